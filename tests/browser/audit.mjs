// The page's own audit (site/audit.js) of game pages made by `galloper
// site`, in Node rather than a browser: the archive the page carries (its
// `<script id="archive">` JSON, each step's games/GAME/step-NNNN.js and
// the binary files' games/GAME/files-NNNN.js), audited by the very script
// the page runs. For tests that compare it with `galloper audit` on
// many archives without driving Chromium (tests/site_orders.rs):
//
//   node audit.mjs PAGE.html...
//
// Prints one JSON line per page: { game, passed, summary, lines, failure }.
//
//   node audit.mjs --applied GAME STEP SIDE NOTICE POLICY J
//
// Prints the applied orders file the page rebuilds (docs/DICE.md, "Applied
// orders") from those values and J read as JSON and written again.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = fileURLToPath(new URL('../../', import.meta.url));
for (const f of ['site/vendor/galloper-vendor.js', 'site/audit.js']) {
  vm.runInThisContext(readFileSync(root + f, 'utf8'), { filename: f });
}
if (process.argv[2] === '--applied') {
  const [game, step, side, notice, policy, j] = process.argv.slice(3);
  const A = globalThis.GalloperAudit;
  const tree = A.jsonTree(j);
  process.stdout.write(tree ? A.appliedText(game, Number(step), side, notice, policy, A.jsonLine(tree)) : 'not JSON\n');
  process.exit(0);
}
for (const page of process.argv.slice(2)) {
  const html = readFileSync(page, 'utf8');
  const m = /<script type="application\/json" id="archive">([\s\S]*?)<\/script>/.exec(html);
  if (!m) {
    console.error(`${page}: no archive in the page`);
    process.exit(2);
  }
  const data = JSON.parse(m[1]);
  // Each script calls the page's register functions, as in the browser.
  const steps = [];
  const binaries = [];
  globalThis.GalloperStep = (d) => steps.push(d);
  globalThis.GalloperFiles = (d) => binaries.push(d.files || {});
  const run = (rel) => {
    const f = join(dirname(page), rel);
    if (existsSync(f)) vm.runInThisContext(readFileSync(f, 'utf8'), { filename: f });
  };
  const pad4 = (n) => String(n).padStart(4, '0');
  for (const n of data.parts || []) run(`${data.dir}/step-${pad4(n)}.js`);
  if ((data.binary_paths || []).length) run(`${data.dir}/files-0000.js`);
  for (const d of steps) if ((d.binary_paths || []).length) run(`${data.dir}/files-${pad4(d.step)}.js`);
  const archive = globalThis.GalloperAudit.assemble(data, steps, binaries);
  const r = globalThis.GalloperAudit.run(archive);
  console.log(JSON.stringify({ game: data.game, passed: r.passed, summary: r.summary, lines: r.lines.map((l) => l.text), failure: r.failure }));
}
