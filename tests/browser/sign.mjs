// The orders page's signing (site/orders/sign.js on
// site/vendor/galloper-vendor.js), driven by tests/orders_sign.rs:
//
//   node sign.mjs PLAN.json            # in Node
//   node sign.mjs PLAN.json --browser  # in Debian's chromium, from file://
//
// PLAN: { work: DIR, cases: [{ name, key_file, passphrase, fingerprint,
//   side, orders_file, notice, revision }], fields: [{ text, key, value }] }.
// Each case reads the key, refuses it unless its fingerprint is the one
// given, opens it (timed), fills in the orders and signs them, as the page
// will. Prints one JSON object: { cases: [{ name, ok, orders, signature,
// public_line, fingerprint, unlock_ms, error, error_name }], fields: [{
// text, field }], entropy: [two fresh values], outside: [requests that left
// file://] }. The Rust test compares it with ssh-keygen and src/envelope.rs.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const root = fileURLToPath(new URL('../../', import.meta.url));
const scripts = ['site/vendor/galloper-vendor.js', 'site/orders/sign.js'];
const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const browser = process.argv.includes('--browser');

// What the page does with one dropped key, step by step so that the
// passphrase's cost can be timed. Runs in Node or in the page as it stands
// (Playwright sends its source), so it uses nothing from outside.
function runCase(c) {
  const S = globalThis.GalloperSign;
  const out = { name: c.name, ok: false };
  try {
    const key = S.requireKey(S.readKey(c.key_text), c.fingerprint, c.side);
    const t0 = performance.now();
    const unlocked = S.unlockKey(key, c.passphrase);
    out.unlock_ms = performance.now() - t0;
    const orders = S.fillOrders(c.orders_text, { notice: c.notice, revision: c.revision });
    out.orders = orders;
    out.signature = S.sign(unlocked, orders);
    out.public_line = unlocked.publicLine;
    out.fingerprint = unlocked.fingerprint;
    // The one-call form the page will use gives the same signature over
    // its own (freshly filled) orders.
    const again = S.signOrders({
      keyText: c.key_text,
      passphrase: c.passphrase,
      expectedFingerprint: c.fingerprint,
      side: c.side,
      orders: orders,
      notice: c.notice,
      revision: c.revision,
    });
    out.again_orders = again.orders;
    out.again_signature = again.signature;
    out.ok = true;
  } catch (e) {
    out.error = String(e && e.message);
    out.error_name = String(e && e.name);
  }
  return out;
}

function runFields(fields) {
  const S = globalThis.GalloperSign;
  return {
    fields: fields.map((f) => ({ text: S.withField(f.text, f.key, f.value), field: S.field(f.text, f.key) })),
    entropy: [S.freshEntropy(), S.freshEntropy()],
  };
}

const cases = plan.cases.map((c) => ({
  ...c,
  key_text: readFileSync(c.key_file, 'utf8'),
  orders_text: readFileSync(c.orders_file, 'utf8'),
}));
let result;
if (!browser) {
  for (const f of scripts) vm.runInThisContext(readFileSync(root + f, 'utf8'), { filename: f });
  result = { cases: cases.map(runCase), ...runFields(plan.fields), outside: [] };
} else {
  // A page beside its two scripts, as the orders page will be, opened from file://.
  for (const f of scripts) copyFileSync(root + f, join(plan.work, f.split('/').pop()));
  const html = join(plan.work, 'sign.html');
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'self'; connect-src 'none'"><title>sign</title><script src="galloper-vendor.js"></script><script src="sign.js"></script><p>sign</p>`,
  );
  const { chromium } = await import('playwright-core');
  const b = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const context = await b.newContext();
  const outside = [];
  context.on('request', (r) => {
    if (!r.url().startsWith('file://')) outside.push(r.url());
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(html).href);
  if (!(await page.evaluate(() => typeof globalThis.GalloperSign === 'object'))) {
    console.error(`sign.js did not load in the page: ${errors.join('; ')}`);
    process.exit(2);
  }
  const done = [];
  for (const c of cases) done.push(await page.evaluate(runCase, c));
  const rest = await page.evaluate(runFields, plan.fields);
  await b.close();
  if (errors.length) {
    console.error(`errors in the page: ${errors.join('; ')}`);
    process.exit(2);
  }
  result = { cases: done, ...rest, outside };
}
console.log(JSON.stringify(result));
