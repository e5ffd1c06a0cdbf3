// The page's audit primitives (site/audit.js on site/vendor/galloper-vendor.js)
// against docs/DICE.md's test vectors (tests/data/dice-vectors.json), in
// Node: a third derivation of the dice beside Rust's and tests/dice_vectors.py.
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
const V = globalThis.GalloperVendor;
const data = JSON.parse(readFileSync(root + 'tests/data/dice-vectors.json', 'utf8'));
let bad = 0;
const same = (what, got, want) => {
  const ok = JSON.stringify(got) === JSON.stringify(want);
  if (!ok) bad++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}${ok ? '' : `: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`);
};
const words = (seed, n) => {
  const s = new A.Stream(seed);
  return Array.from({ length: n }, (_, i) => s.word(i).toString(16).padStart(8, '0'));
};
const rolls = (seed, sides, n) => {
  const s = new A.Stream(seed);
  return Array.from({ length: n }, () => s.roll(sides));
};
const shuffle = (seed, n) => {
  const s = new A.Stream(seed);
  const items = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i >= 1; i--) {
    const j = s.roll(i + 1) - 1;
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
};

const ref = data.chacha20_reference;
same('ChaCha20 reference words', words(A.unhex(ref.seed), ref.words.length), ref.words);
for (const v of data.vectors) {
  const P = A.unhex(v.public_secret);
  const H = A.unhex(v.hidden_secret);
  same(`${v.name}: public commitment`, A.hex(A.commit('public', v.game, v.step, P)), v.commit_public);
  same(`${v.name}: hidden commitment`, A.hex(A.commit('hidden', v.game, v.step, H)), v.commit_hidden);
  const hashes = v.orders.map((o) => A.hex(V.sha256(A.unhex(o.bytes))));
  same(`${v.name}: orders' hashes`, hashes, v.order_hashes);
  const mix = A.unhex(v.mix);
  same(`${v.name}: mix`, hashes.join(''), v.mix);
  const ps = A.seedOf('public', P, mix, null);
  const hs = A.seedOf('hidden', H, mix, null);
  same(`${v.name}: public seed`, A.hex(ps), v.public_seed);
  same(`${v.name}: hidden seed`, A.hex(hs), v.hidden_seed);
  same(`${v.name}: public words`, words(ps, 8), v.public_words);
  same(`${v.name}: hidden words`, words(hs, 8), v.hidden_words);
  same(`${v.name}: d6`, rolls(ps, 6, v.public_d6.length), v.public_d6);
  same(`${v.name}: d10`, rolls(ps, 10, v.public_d10.length), v.public_d10);
  same(`${v.name}: shuffle`, shuffle(hs, v.hidden_shuffle.length), v.hidden_shuffle);
  // The big die pins down the rejection rule: its records go through the
  // audit's own check, index by index.
  const big = v.public_big_die;
  const records = big.rolls.map((r) => ({ stream: 'public', index: r.index, sides: big.sides, value: r.value }));
  let err = null;
  try {
    A.checkStream(ps, 'public', records);
  } catch (e) {
    err = e.message;
  }
  same(`${v.name}: d${big.sides} with rejections passes the audit's check`, err, null);
  records[3] = { ...records[3], value: records[3].value + 1 };
  try {
    A.checkStream(ps, 'public', records);
    err = null;
  } catch (e) {
    err = e.message;
  }
  same(`${v.name}: one die changed fails, naming its record`, /^record 3 /.test(err || ''), true);
}
for (const b of data.beacon_vectors) {
  const randomness = A.verifyRound(b.round, A.unhex(b.signature));
  same(`${b.name}: BLS signature verifies, randomness`, A.hex(randomness), b.randomness);
  const mix = A.unhex(b.mix);
  const ps = A.seedOf('public', A.unhex(b.public_secret), mix, randomness);
  same(`${b.name}: public seed`, A.hex(ps), b.public_seed);
  same(`${b.name}: d6`, rolls(ps, 6, b.public_d6.length), b.public_d6);
  let refused = false;
  try {
    A.verifyRound(b.round + 1, A.unhex(b.signature));
  } catch (e) {
    refused = true;
  }
  same(`${b.name}: the signature of another round is refused`, refused, true);
}
console.log(bad ? `${bad} check(s) failed` : 'all vectors match');
process.exit(bad ? 1 : 0);
