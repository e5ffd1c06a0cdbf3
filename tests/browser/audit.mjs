// The page's own audit (site/audit.js) of game pages made by `galloper
// site`, in Node rather than a browser: the archive the page carries (its
// `<script id="archive">` JSON and its GAME.files.js), audited by the very
// script the page runs. For tests that compare it with `galloper audit` on
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
  const files = join(dirname(page), data.binary_script);
  if (existsSync(files)) {
    vm.runInThisContext(readFileSync(files, 'utf8'), { filename: files });
    data.binary = (globalThis.GalloperBinary || {})[data.game] || {};
  }
  const r = globalThis.GalloperAudit.run(data);
  console.log(JSON.stringify({ game: data.game, passed: r.passed, summary: r.summary, lines: r.lines.map((l) => l.text), failure: r.failure }));
}
