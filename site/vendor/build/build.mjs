// node build.mjs: bundle entry.js into ../galloper-vendor.js and copy each
// package's licence beside it. `galloper site` embeds those files
// (src/site/vendor.rs), so building a site needs neither npm nor a network.
import { build } from 'esbuild';
import { copyFileSync, readFileSync } from 'node:fs';

const packages = ['@noble/hashes', '@noble/ciphers', '@noble/curves', 'yaml', 'bcrypt-pbkdf'];
const versions = packages
  .map((p) => `${p} ${JSON.parse(readFileSync(`node_modules/${p}/package.json`)).version}`)
  .join(', ');
const common = {
  bundle: true,
  format: 'iife',
  target: 'es2020',
  minify: true,
  legalComments: 'inline',
  // bcrypt-pbkdf's one use of tweetnacl is SHA-512: @noble/hashes' stands in
  // (tweetnacl-sha512.js), so tweetnacl itself is not bundled.
  alias: { tweetnacl: './tweetnacl-sha512.js' },
};
await build({
  ...common,
  entryPoints: ['entry.js'],
  banner: { js: `/* galloper-vendor.js: ${versions}; licences in LICENSES/ beside this file */` },
  outfile: '../galloper-vendor.js',
});
// The orders page's subset (orders-entry.js), inlined in every page.
await build({
  ...common,
  entryPoints: ['orders-entry.js'],
  banner: { js: `/* orders-vendor.js: ${versions}; licences in galloper's site/vendor/LICENSES/ */` },
  outfile: '../orders-vendor.js',
});
for (const p of packages) {
  copyFileSync(`node_modules/${p}/LICENSE`, `../LICENSES/${p.replace('/', '-').replace('@', '')}.LICENSE`);
}
console.log(`built ../galloper-vendor.js and ../orders-vendor.js (${versions})`);
