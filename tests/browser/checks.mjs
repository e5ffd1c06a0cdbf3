// The page's checks of issue 29 (site/audit.js), one by one in Node, on
// cases made here: a beacon step's receipt times against its close of
// orders; each sealed orders file's `notice:` and `revision:`; the bytes,
// entropy and policy of orders the server applied (docs/DICE.md, "Applied
// orders"), with the entropy and J computed apart by Python from the
// document. Each case says what `galloper audit` says of it (src/game/
// beacon.rs, src/game/audit/orders.rs): the same words at the same place.
// Run by tests/site_browser.rs; prints one line per check and exits 1 on a
// mismatch.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const root = fileURLToPath(new URL('../../', import.meta.url));
for (const f of ['site/vendor/galloper-vendor.js', 'site/audit.js']) {
  vm.runInThisContext(readFileSync(root + f, 'utf8'), { filename: f });
}
const A = globalThis.GalloperAudit;
const enc = new TextEncoder();
let bad = 0;
const same = (what, got, want) => {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) bad++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`);
};
// What a check throws: null when it passes, else "PLACE: WHAT".
const outcome = (f) => {
  try {
    f();
    return null;
  } catch (e) {
    if (e.place === undefined) throw e;
    return `${e.place}: ${e.what}`;
  }
};

// ---------- item 1: receipts in a beacon step ----------
const beacon = { chain: 'quicknet', protocol: 2, round: 1234, round_time: '2025-01-08T17:00:02Z', orders_close: '2025-01-08T17:00:00Z' };
const entry = (side, extra) => ({ side, sha256: '00'.repeat(32), signature: 'x', ...extra });
const receipts = (sides, notice) => outcome(() => A.receipts({ sides }, notice, 'step 3'));
same('no beacon: no receipt needed', receipts([entry('red')], { step: 3 }), null);
same('received before the close', receipts([entry('red', { received: '2025-01-08T16:39:12Z' })], { beacon }), null);
same('received at the close itself', receipts([entry('red', { received: '2025-01-08T17:00:00Z' })], { beacon }), null);
same('an offset is a time too', receipts([entry('red', { received: '2025-01-08T18:00:00+01:00' })], { beacon }), null);
same('an applied file needs no receipt', receipts([entry('red', { applied: 'missed the deadline' })], { beacon }), null);
same(
  'received after the close fails at its step',
  receipts([entry('blue', { received: '2025-01-08T16:00:00Z' }), entry('red', { received: '2025-01-08T17:00:01Z' })], { beacon }),
  "step 3: red's orders were received at 2025-01-08T17:00:01Z, after the close of orders at 2025-01-08T17:00:00Z: they could have been chosen knowing round 1234",
);
same(
  'no receipt time fails',
  receipts([entry('red')], { beacon }),
  "step 3: orders.yaml gives no receipt time for red's orders: a beacon step must show that each file came before its close of orders",
);
same('a receipt time that is not a time fails', receipts([entry('red', { received: 'yesterday' })], { beacon }), 'step 3: red\'s receipt time "yesterday" is not a time');
same(
  "a close that is not a time fails",
  receipts([entry('red', { received: '2025-01-08T16:39:12Z' })], { beacon: { ...beacon, orders_close: 'soon' } }),
  "step 3: the notice's orders_close is not a time",
);

// ---------- item 3: notice and revision of each sealed file ----------
const game = { game: 'g-1' };
const N = '9368a7d21e018f64ae3327d2f25cd4d7693b2d85328e4bb680bcfcbd4c26b90e'; // sha256("notice")
const run = (missed) => ({ step: 4, run: 1, notice: missed === undefined ? {} : { missed }, noticeSha256: N });
const player = (over = {}) => {
  const o = { notice: N, revision: 2, ...over };
  const lines = ['galloper: 1', 'game: g-1', 'step: 4', 'side: red'];
  if (o.notice != null) lines.push(`notice: ${o.notice}`);
  if (o.revision != null) lines.push(`revision: ${o.revision}`);
  lines.push('entropy: 00112233445566778899aabbccddeeff', 'orders:', '  moves:', '  - unit: r-1', '    to: [12.0, 3.5]');
  return enc.encode(lines.join('\n') + '\n');
};
const sealed = (text, e, r, standing = new Map()) =>
  outcome(() => A.sealedOrders({ place: 'sealed step 4: orders-red.yaml', text, entry: e }, game, r, standing));
{
  const standing = new Map();
  same("a player's file answering its run's notice, revision 2", sealed(player(), entry('red'), run(), standing), null);
  same("his orders become his standing orders", standing.get('red'), { moves: [{ unit: 'r-1', to: [12, 3.5] }] });
}
same('the notice compared without case', sealed(player({ notice: N.toUpperCase() }), entry('red'), run()), null);
const other = 'ab'.repeat(32);
same(
  "a file answering another notice fails (a run's secrets replaced after the orders)",
  sealed(player({ notice: other }), entry('red'), run()),
  `sealed step 4: orders-red.yaml: answers notice ${other}, but it was mixed into run 1 of step 4, whose notice is ${N}: orders must be written after the commitments they meet`,
);
same(
  'a file naming no notice fails',
  sealed(player({ notice: null }), entry('red'), run()),
  `sealed step 4: orders-red.yaml: answers notice (none), but it was mixed into run 1 of step 4, whose notice is ${N}: orders must be written after the commitments they meet`,
);
same(
  "a player's file with revision 0 fails",
  sealed(player({ revision: 0 }), entry('red'), run()),
  "sealed step 4: orders-red.yaml: a player's orders carry a revision of 1 or more, not 0: revision 0 is the server's",
);
same(
  "a player's file with no revision fails",
  sealed(player({ revision: null }), entry('red'), run()),
  "sealed step 4: orders-red.yaml: a player's orders carry a revision of 1 or more, not none: revision 0 is the server's",
);
same(
  'a file of another side fails',
  sealed(player(), entry('blue'), run()),
  'sealed step 4: orders-red.yaml: names game g-1 step 4 side red, where it was mixed into game g-1 step 4 for blue',
);

// ---------- item 4: applied orders ----------
// Computed apart, from docs/DICE.md, with Python's hashlib and json.dumps.
const E = 'c82819d8ef33cb81d0be07788b9200fff04d0f5f539ad9f0415ac52816f92d6b';
const J = '{"moves": [{"note": "vers l\u2019est", "to": [12.0, 3.5], "unit": "r-1"}], "n": 3, "pass": false}';
same('the entropy follows from public values (Python agrees)', A.appliedEntropy('g-1', 4, 'red', N), E);
same('J read and written again is the same line (Python agrees)', A.jsonLine(A.jsonTree(J)), J);
same('keys out of order are written sorted', A.jsonLine(A.jsonTree('{"b":1,"a":[2.50,"x"]}')), '{"a": [2.5, "x"], "b": 1}');
same('floats as Python (and the server) write them', [1, 0.5, 1e16, 1e15, 1.5e-7, -2, 0.0001, 0.00001].map(A.floatText), ['1.0', '0.5', '1e+16', '1000000000000000.0', '1.5e-07', '-2.0', '0.0001', '1e-05']);
const appliedFile = (policy, j = J, n = N) => A.appliedText('g-1', 4, 'red', n, policy, j);
same('the nine lines of DICE.md', appliedFile('default').split('\n'), [
  '# galloper applied orders: default', 'galloper: 1', 'game: g-1', 'step: 4', 'side: red', `notice: ${N}`, 'revision: 0', `entropy: ${E}`, `orders: ${J}`, '',
]);
const applied = entry('red', { applied: 'red missed the deadline: default orders' });
const file = (t) => enc.encode(t);
same('default orders applied under `default`', sealed(file(appliedFile('default')), applied, run('default')), null);
same('default orders applied under `standing` (the rules say whether standing ones were due)', sealed(file(appliedFile('default')), applied, run('standing')), null);
same(
  'applied orders under `wait` fail',
  sealed(file(appliedFile('default')), applied, run('wait')),
  'sealed step 4: orders-red.yaml: the server applied orders in a step whose notice names the rule `wait`: it may apply none',
);
same(
  'applied orders in a step with no rule fail',
  sealed(file(appliedFile('default')), applied, run()),
  'sealed step 4: orders-red.yaml: the server applied orders in a step whose notice names no rule for missed orders: it may apply none',
);
same(
  'standing orders under `default` fail',
  sealed(file(appliedFile('standing')), applied, run('default')),
  'sealed step 4: orders-red.yaml: standing orders applied in a step whose notice names the rule `default`',
);
const notBuilt = 'sealed step 4: orders-red.yaml: is not the applied file docs/DICE.md builds from its policy, notice and orders: the server wrote bytes of its own choosing';
same('a comment of the server\'s own fails', sealed(file(appliedFile('default').replace('galloper: 1\n', 'galloper: 1\n# chosen\n')), applied, run('default')), notBuilt);
same('another entropy fails', sealed(file(appliedFile('default').replace(E, 'ff'.repeat(32))), applied, run('default')), notBuilt);
same('J not as written by DICE.md fails', sealed(file(appliedFile('default', J.replace(', "n": 3', ',"n":3'))), applied, run('default')), notBuilt);
same('J written as YAML, not JSON, fails', sealed(file(appliedFile('default', '{n: 3}')), applied, run('default')), notBuilt);
same(
  'no policy line fails',
  sealed(file(appliedFile('default').replace('# galloper applied orders: default', '# applied')), applied, run('default')),
  'sealed step 4: orders-red.yaml: an applied file starts `# galloper applied orders: default` or `# galloper applied orders: standing`',
);
same(
  'an applied file with revision 1 fails',
  sealed(file(appliedFile('default').replace('revision: 0', 'revision: 1')), applied, run('default')),
  'sealed step 4: orders-red.yaml: orders the server applied carry revision 0, not 1',
);
same(
  'an applied file answering another notice fails',
  sealed(file(appliedFile('default', J, other)), applied, run('default')),
  `sealed step 4: orders-red.yaml: answers notice ${other}, but it was mixed into run 1 of step 4, whose notice is ${N}: orders must be written after the commitments they meet`,
);
{
  // Standing orders: the side's own latest earlier file.
  const standing = new Map();
  sealed(player(), entry('red'), { ...run(), step: 4 }, standing);
  const j = A.jsonLine(A.jsonTree('{"moves": [{"unit": "r-1", "to": [12.0, 3.5]}]}'));
  const mk = (jj) => file(appliedFile('standing', jj));
  same('standing orders equal to the side\'s own earlier ones', sealed(mk(j), applied, run('standing'), standing), null);
  // (The page reads YAML without telling 12 from 12.0: its words show the
  // standing orders' whole numbers without the `.0` galloper audit's show.)
  same(
    'standing orders other than the side\'s own fail',
    sealed(mk(A.jsonLine(A.jsonTree('{"moves": []}'))), applied, run('standing'), standing),
    `sealed step 4: orders-red.yaml: the applied orders are not the standing orders the rules give: orders: ${j.replace('12.0', '12')}`,
  );
  same(
    'standing orders for a side with none of its own fail',
    sealed(mk(j), applied, run('standing'), new Map()),
    'sealed step 4: orders-red.yaml: standing orders applied, but the side has no earlier orders of its own that the rules still take',
  );
}
console.log(bad ? `${bad} check(s) failed` : 'all checks agree');
process.exit(bad ? 1 : 0);
