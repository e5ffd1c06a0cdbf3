// The warm-browser yardstick of `galloper bench` (src/bench/chromium.rs):
// one Chromium kept open, a fresh page per shot, as a renderer service
// would keep it. The timing starts when the page is asked for and ends
// when the PNG is in hand; Chromium's start and one warm-up shot are not
// counted.
//
//   node warm_chromium.mjs PLAN.json
//
// PLAN: { modules, chromium, svg, width, height, reps, last }: `modules` is
// a node_modules folder holding playwright-core, `last` where the last
// shot is kept. Prints the milliseconds of each shot as a JSON array.
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { chromium } = createRequire(`${plan.modules}/`)('playwright-core');
const browser = await chromium.launch({
  executablePath: plan.chromium,
  args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
const context = await browser.newContext({ viewport: { width: plan.width, height: plan.height } });
const url = pathToFileURL(plan.svg).href;
const shot = async () => {
  const page = await context.newPage();
  await page.goto(url);
  const png = await page.screenshot({ type: 'png' });
  await page.close();
  return png;
};
await shot();
const ms = [];
let png;
for (let i = 0; i < plan.reps; i++) {
  const t = performance.now();
  png = await shot();
  ms.push(performance.now() - t);
}
writeFileSync(plan.last, png);
await browser.close();
console.log(JSON.stringify(ms));
