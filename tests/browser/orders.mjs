// Drives an orders page (galloper orders page) in Debian's chromium from
// file:// as a player would, for tests/orders_page.rs:
//
//   node orders.mjs PLAN.json
//
// PLAN: { page: HTML, out: DIR, key_file, passphrase, wrong_key_file,
//   actions: [ {unit, drag: {x, y}} | {unit, facing: DEG} | {unit, target: {kind, id}}
//            | {unit, formation} | {unit, field, value} | {field, value}
//            | {field, tick: VALUE} (one box of a many-choice field) ] }
// Positions are in table units; the script turns them into pointer moves
// over the map. Prints one JSON object: { orders, signature, problems,
// unordered, outside: [requests that left file://], errors, ready_ms,
// wrong_key, status }.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { chromium } = await import('playwright-core');
const b = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
const context = await b.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } });
const outside = [];
context.on('request', (r) => {
  const u = r.url();
  if (!u.startsWith('file://') && !u.startsWith('blob:') && !u.startsWith('data:')) outside.push(u);
});
const page = await context.newPage();
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
page.on('console', (m) => { if (m.type() === 'error') errors.push('console: ' + m.text()); });

const t0 = Date.now();
await page.goto(pathToFileURL(plan.page).href);
await page.waitForSelector('body[data-ready="true"]', { timeout: 10000 });
const ready_ms = Date.now() - t0;

// The client point of a table point.
async function client(p) {
  return page.evaluate((p) => {
    const svg = document.querySelector('#map svg');
    const q = GalloperPageApi.px(p);
    const pt = svg.createSVGPoint();
    pt.x = q.x;
    pt.y = q.y;
    const c = pt.matrixTransform(svg.getScreenCTM());
    return { x: c.x, y: c.y };
  }, p);
}
async function unitPlan(id) {
  return page.evaluate((id) => GalloperPage.plan.units.find((u) => u.id === id), id);
}
// Where the unit stands on the page now (drawn or not), and the middle of
// its outline there, to take hold of it.
async function hold(id) {
  return page.evaluate((id) => {
    const u = GalloperPage.plan.units.find((x) => x.id === id);
    const d = GalloperPageApi.drawn().units[id];
    const at = d && d.move ? { x: d.move.x, y: d.move.y } : u.at;
    const facing = d && d.move ? d.move.facing : u.facing;
    const o = (GalloperPage.outlines[id] || [[[0, 0]]]).flat();
    const mx = o.reduce((a, p) => a + p[0], 0) / o.length;
    const my = o.reduce((a, p) => a + p[1], 0) / o.length;
    const r = (facing * Math.PI) / 180;
    const mid = { x: at.x + mx * Math.cos(r) + my * Math.sin(r), y: at.y - mx * Math.sin(r) + my * Math.cos(r) };
    return { at, facing, mid };
  }, id);
}
async function select(id) {
  const h = await hold(id);
  const c = await client(h.mid);
  await page.mouse.click(c.x, c.y);
  const chosen = await page.evaluate(() => document.querySelector('#unit-panel h2') && document.querySelector('#unit-panel h2').textContent);
  if (!chosen || !chosen.includes('[' + id + ']')) throw new Error('clicking ' + id + ' on the map chose ' + chosen);
}

for (const a of plan.actions) {
  if (a.unit && a.drag) {
    const h = await hold(a.unit);
    const from = await client(h.mid);
    const to = await client({ x: h.mid.x + (a.drag.x - h.at.x), y: h.mid.y + (a.drag.y - h.at.y) });
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 12 });
    await page.mouse.up();
  } else if (a.unit && a.facing !== undefined) {
    await select(a.unit);
    const h = await hold(a.unit);
    const handle = page.locator('[data-handle="' + a.unit + '"]');
    const box = await handle.boundingBox();
    const r = (a.facing * Math.PI) / 180;
    const far = await client({ x: h.at.x + 40 * Math.sin(r), y: h.at.y + 40 * Math.cos(r) });
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(far.x, far.y, { steps: 12 });
    await page.mouse.up();
  } else if (a.unit && a.target) {
    await select(a.unit);
    await page.selectOption('#unit-panel select[name="target-' + a.target.kind + '"]', a.target.id);
  } else if (a.unit && a.formation) {
    await select(a.unit);
    await page.selectOption('#unit-panel select[name="formation"]', a.formation);
  } else if (a.field && a.tick !== undefined) {
    const scope = a.unit ? '#unit-panel' : '#side-fields';
    if (a.unit) await select(a.unit);
    await page.locator(scope + ' [data-field="' + a.field + '"] input[type=checkbox][value="' + a.tick + '"]').setChecked(true);
  } else if (a.field) {
    const scope = a.unit ? '#unit-panel' : '#side-fields';
    if (a.unit) await select(a.unit);
    const input = page.locator(scope + ' [name="' + a.field + '"]').first();
    const tag = await input.evaluate((e) => e.tagName.toLowerCase() + ':' + (e.type || ''));
    if (tag.startsWith('select')) await input.selectOption(String(a.value));
    else if (tag.endsWith('checkbox')) await input.setChecked(a.value === true || a.value === 'true');
    else { await input.fill(String(a.value)); await input.dispatchEvent('change'); }
  } else {
    throw new Error('an action the driver does not know: ' + JSON.stringify(a));
  }
}

const problems = await page.evaluate(() => GalloperOrders.problems(GalloperPage, GalloperPageApi.drawn()));
const unordered = await page.evaluate(() => GalloperOrders.unordered(GalloperPage, GalloperPageApi.drawn()));
const drawn = await page.evaluate(() => GalloperPageApi.drawn());
// Two drawings may write one file (a unit ticked to activate first that
// is first anyway): what was drawn is compared by what it writes.
const written = await page.evaluate(() => GalloperOrders.file(GalloperPage, GalloperPageApi.drawn()));

let wrong_key = null;
if (plan.wrong_key_file) {
  await page.setInputFiles('#key-file', plan.wrong_key_file);
  await page.waitForFunction(() => document.getElementById('sign-status').textContent !== '');
  wrong_key = await page.textContent('#sign-status');
  await page.click('#sign-button');
  wrong_key += ' | ' + (await page.textContent('#sign-status'));
}

await page.setInputFiles('#key-file', plan.key_file);
// The key is read as the browser pleases; signing waits until the page
// has taken it.
await page.waitForFunction(() => /on record/.test(document.getElementById('sign-status').textContent));
if (plan.passphrase) {
  await page.waitForSelector('#pass-row:not([hidden])');
  await page.fill('#passphrase', plan.passphrase);
}
await page.click('#sign-button');
let orders = null;
let signature = null;
const status = await page.textContent('#sign-status');
if (await page.evaluate(() => document.body.dataset.signed === 'true')) {
  const take = async (sel) => {
    const [dl] = await Promise.all([page.waitForEvent('download'), page.click(sel)]);
    return readFileSync(await dl.path(), 'utf8');
  };
  orders = await take('#save-orders');
  signature = await take('#save-sig');
}
if (plan.screenshot) await page.screenshot({ path: plan.screenshot, fullPage: true });

// The signed file loaded back into a fresh copy of the page, as a player
// who changes orders already sent would.
let reload = null;
if (plan.reload && orders !== null) {
  const saved = plan.reload;
  const { writeFileSync } = await import('node:fs');
  writeFileSync(saved, orders);
  const again = await context.newPage();
  again.on('pageerror', (e) => errors.push(e.message));
  await again.goto(pathToFileURL(plan.page).href);
  await again.waitForSelector('body[data-ready="true"]');
  await again.setInputFiles('#load-orders', saved);
  await again.waitForFunction(() => document.getElementById('sign-status').textContent !== '');
  reload = await again.evaluate(() => ({
    drawn: GalloperPageApi.drawn(),
    written: GalloperOrders.file(GalloperPage, GalloperPageApi.drawn()),
    revision: GalloperPageApi.revision(),
    text: document.getElementById('orders-text').value,
    status: document.getElementById('sign-status').textContent,
  }));
  // A slip in the file edited by hand is shown at once, with its line.
  await again.evaluate(() => { document.querySelector('.sign details').open = true; });
  await again.fill('#orders-text', 'galloper: 1\norders:\n  turn: [\n');
  reload.slip = await again.textContent('#text-problem');
}
await b.close();
console.log(JSON.stringify({ orders, signature, problems, unordered, drawn, written, outside, errors, ready_ms, wrong_key, status, reload }));
