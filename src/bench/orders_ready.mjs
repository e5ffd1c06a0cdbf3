// The orders page's opening time for `galloper bench` (src/bench/orders_page.rs):
// one Chromium kept open, the page opened afresh from file:// each time,
// timed from the request to the page's own "ready" mark (its map drawn,
// its plan laid out). One warm-up opening is not counted.
//
//   node orders_ready.mjs PLAN.json
//
// PLAN: { modules, chromium, page, reps }. Prints the milliseconds of each
// opening as a JSON array.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { chromium } = createRequire(`${plan.modules}/`)('playwright-core');
const browser = await chromium.launch({ executablePath: plan.chromium, args: ['--no-sandbox', '--disable-gpu'] });
const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
const url = pathToFileURL(plan.page).href;
const open = async () => {
  const page = await context.newPage();
  const t0 = performance.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const ms = performance.now() - t0;
  await page.close();
  return ms;
};
await open();
const out = [];
for (let i = 0; i < plan.reps; i++) out.push(await open());
await browser.close();
console.log(JSON.stringify(out));
