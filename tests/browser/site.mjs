// Drives Debian's chromium (playwright-core, no browser download) over a
// site made by `galloper site`, as tests/site_browser.rs asks:
//
//   node site.mjs PLAN.json
//
// PLAN: { index?, index_shot?, index_expect?: { club?, key? }, shots, phone?, missing_allowed?,
//   pages: [{ file, game, steps, headings?, expect: "pass" | "fail" | { fail: STEP },
//   quick?, running?: { public_dice, secrets } }] }.
// For each page: step through the game (slider, keys, buttons), checking
// that the map and the events change with the step, that each step is
// titled with its own heading (`headings[n - 1]`, its notice's), and that
// the page opened with its first step's script only and loads the others
// as the reader moves; follow a unit; run the in-browser audit (which
// reads every step's script) and read its verdict. A `quick` page (a tampered copy)
// is only audited. A `running` page (a game in progress) must show, at
// every step, its public dice only (`public_dice[i]` rows at step i+1),
// no sealed file and none of the `secrets` (the server's unrevealed
// secrets and hidden events). Prints one JSON line per page ({game,
// verdict, step, summary: the headline; own, own_step, own_summary: the
// page's own audit below it; key_note, pinned: the server key beside it})
// for the Rust test to compare with `galloper audit`, and exits 1 with the
// reasons when a check fails.
import { chromium } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const plan = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const problems = [];
const check = (ok, what) => {
  if (!ok) problems.push(what);
  return ok;
};
mkdirSync(plan.shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--allow-file-access-from-files'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
// Any request outside file:// breaks the promise that a site needs nothing else.
const outside = [];
context.on('request', (r) => {
  if (!r.url().startsWith('file://') && !r.url().startsWith('data:')) outside.push(r.url());
});
const errors = [];

const page = await context.newPage();
page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
page.on('console', (m) => {
  if (m.type() === 'error') errors.push(`${page.url()}: console: ${m.text()}`);
});

// The index lists every game with a link to its page.
if (plan.index) {
  await page.goto(pathToFileURL(plan.index).href);
  const cards = await page.$$eval('.game-card', (cs) => cs.map((c) => c.getAttribute('data-game')));
  check(
    JSON.stringify([...cards].sort()) === JSON.stringify(plan.pages.map((p) => p.game).sort()),
    `the index lists ${cards.join(', ')}, not the games given`,
  );
  const ie = plan.index_expect || {};
  const head = await page.$eval('header', (h) => h.textContent);
  if (ie.club) check(head.includes(ie.club), `the index carries the club's name ${ie.club}: ${head}`);
  if (ie.key) check(head.includes(ie.key), `the index carries the pinned key ${ie.key}: ${head}`);
  const keys = await page.$$eval('.game-card dd.server-key', (ds) => ds.map((d) => d.textContent));
  check(keys.length === plan.pages.length && keys.every((k) => k.startsWith('SHA256:')), `each game's card shows its server key's fingerprint (${keys.join(', ')})`);
  if (plan.index_shot) await page.screenshot({ path: `${plan.shots}/${plan.index_shot}`, fullPage: true });
}
// A step is shown once its script has loaded and it is drawn.
const settle = (n) =>
  page.waitForFunction((n) => document.body.getAttribute('data-step') === String(n) && !document.body.hasAttribute('data-loading'), n, { timeout: 30000 })
    .then(() => true, () => false);
const toStep = async (n) => {
  await page.$eval('#slider', (s, n) => {
    s.value = String(n);
    s.dispatchEvent(new Event('input', { bubbles: true }));
  }, n);
  return settle(n);
};

const state = async () =>
  page.evaluate(() => ({
    step: document.body.getAttribute('data-step'),
    mapStep: document.querySelector('#map svg')?.getAttribute('data-step'),
    mapLen: document.querySelector('#map svg')?.outerHTML.length || 0,
    mapTitle: document.querySelector('#map svg text')?.textContent || '',
    events: [...document.querySelectorAll('#events li')].map((l) => l.textContent).join('\n'),
    heading: document.getElementById('heading').textContent,
  }));

for (const p of plan.pages) {
  await page.goto(pathToFileURL(p.file).href);
  await page.waitForSelector('#map svg');
  if (!p.quick) await replay(p);
  if (p.running) await secrecy(p);
  await audit(p);
}

async function replay(p) {
  // The page opens with its first step's script (and the next one's,
  // fetched ahead), not the game's.
  const early = await page.evaluate(() => GalloperPage.loadedSteps());
  check(early[0] === 1 && early.length <= 2 && (p.steps <= 2 || early.length < p.steps), `${p.game}: the page opens with its first step only (loaded ${early.join(', ')} of ${p.steps})`);
  const first = await state();
  check(first.step === '1' && first.mapStep === '1', `${p.game}: the page opens at step 1 (got ${first.step})`);
  check(first.mapTitle.includes('step 1'), `${p.game}: the map of step 1 is titled so (got ${first.mapTitle})`);
  // Keys and buttons move between steps; map and events follow.
  const seen = [first];
  await page.keyboard.press('ArrowRight');
  await settle(2);
  seen.push(await state());
  await page.click('#next');
  await settle(3);
  seen.push(await state());
  check(seen[1].step === '2' && seen[2].step === '3', `${p.game}: the right arrow and the next button move on one step (got ${seen[1].step}, ${seen[2].step})`);
  check(seen[1].mapTitle.includes('step 2') && seen[2].mapTitle.includes('step 3'), `${p.game}: the map follows the step`);
  check(new Set(seen.map((s) => s.events)).size > 1, `${p.game}: the events change with the step`);
  check(new Set(seen.map((s) => s.heading)).size === 3, `${p.game}: the heading changes with the step`);
  // Titled as the step's mail and map are: the step that was played.
  for (const s of seen) {
    const played = s.heading.replace(/^Step \d+: /, '');
    check(s.mapTitle.includes(played), `${p.game}: step ${s.step} is titled ${played} on the page but ${s.mapTitle} on its map`);
  }
  await page.keyboard.press('ArrowLeft');
  await settle(2);
  check((await state()).step === '2', `${p.game}: the left arrow goes back`);
  // The slider reaches the last step, whose script loads then.
  await toStep(p.steps);
  const last = await state();
  check(last.step === String(p.steps) && last.mapStep === String(p.steps), `${p.game}: the slider reaches step ${p.steps} (got ${last.step})`);
  // Every step's events in the ruleset's own words, as the public report tells them.
  const flat = (t) => String(t).replace(/\s+/g, ' ').trim();
  for (let n = 1; n <= p.steps; n++) {
    if (!check(await toStep(n), `${p.game}: step ${n} loads and is shown`)) break;
    const lines = await page.evaluate((n) => GalloperPage.told(n), n);
    if (!check(Array.isArray(lines), `${p.game}: step ${n} carries its told lines`)) break;
    // Each step titled with its own heading, its notice's: not the next step's.
    if (p.headings) {
      const heading = await page.$eval('#heading', (h) => h.textContent);
      if (!check(heading === `Step ${n}: ${p.headings[n - 1]}`, `${p.game}: step ${n} is titled ${heading}, its own notice's heading is ${p.headings[n - 1]}`)) break;
    }
    const shown = await page.$$eval('#events li:not(.note)', (ls) => ls.map((l) => l.textContent));
    const same = shown.length === lines.length && lines.every((l, k) => flat(shown[k]).includes(flat(l.text)));
    if (!check(same, `${p.game}: step ${n} lists ${JSON.stringify(shown.slice(0, 3))}, not the public report's ${JSON.stringify(lines.slice(0, 3).map((l) => l.text))}`)) break;
  }
  await page.keyboard.press('Home');
  await settle(1);
  check((await state()).step === '1', `${p.game}: Home goes to the first step`);
  // A unit named by an event can be followed: its story lists steps.
  const unit = await page.$('#events button.unit');
  if (unit) {
    await unit.click();
    await page.waitForFunction(() => !/reading every step/.test(document.getElementById('story-title').textContent));
    const story = await page.$$eval('#story-lines li', (ls) => ls.length);
    check(story > 0 && (await page.isVisible('#story')), `${p.game}: clicking a unit shows its story`);
  }
  // Every unit of the step's public map is marked (a hidden-troops game may
  // show none while both sides' troops are hidden).
  const boxes = await page.evaluate(() => GalloperPage.mapUnits(1));
  const hits = await page.$$eval('#map .unit-hit', (r) => r.length);
  check(hits === boxes, `${p.game}: the map marks its ${boxes} units for hover and click (${hits} marked)`);
  // (Whether any step shows a unit is the game's: a hidden-troops game may
  // end with none public at any step.)
}

// A game in progress: the public steps only, and nothing sealed or secret
// at any step, in what the page shows nor in what it carries.
async function secrecy(p) {
  const carried = await page.evaluate(async () => {
    await GalloperPage.loadAll();
    return GalloperPage.carried();
  });
  check(!carried.some((f) => f.startsWith('sealed/') || f === 'end.yaml'), `${p.game}: a game in progress carries no sealed file nor end (${carried.filter((f) => f.startsWith('sealed/')).join(', ')})`);
  const max = await page.$eval('#slider', (s) => Number(s.max));
  check(max === p.running.public_dice.length, `${p.game}: the slider has the ${p.running.public_dice.length} resolved steps only (max ${max})`);
  for (let n = 1; n <= p.running.public_dice.length; n++) {
    check(await toStep(n), `${p.game}: step ${n} loads and is shown`);
    const shown = await page.evaluate(() => ({
      step: document.body.getAttribute('data-step'),
      secrets: document.getElementById('secrets').textContent,
      dice: document.querySelectorAll('#dice tbody tr[data-n]').length,
      html: document.documentElement.outerHTML,
      text: document.body.innerText,
    }));
    check(shown.step === String(n), `${p.game}: step ${n} shown (got ${shown.step})`);
    check(!shown.secrets.includes('Revealed at the end') && shown.secrets.includes('stay sealed'), `${p.game} step ${n}: the secrets say sealed, not revealed (${shown.secrets})`);
    check(shown.dice === p.running.public_dice[n - 1], `${p.game} step ${n}: ${shown.dice} dice rows, the step's public dice are ${p.running.public_dice[n - 1]}`);
    for (const x of p.running.secrets) {
      check(!shown.html.includes(x) && !shown.text.includes(x), `${p.game} step ${n}: the page shows a secret: ${x}`);
    }
  }
  await page.keyboard.press('Home');
}

async function audit(p) {
  // The audit, in the page.
  // Before it runs, a page whose archive the command line failed already
  // says so in its headline.
  const before = await page.$eval('#verdict', (v) => ({ verdict: v.getAttribute('data-verdict'), summary: v.textContent }));
  const built = await page.$eval('#archive', (a) => JSON.parse(a.textContent).built || {});
  if (built.passed === false)
    check(before.verdict === 'fail' && before.summary.startsWith('AUDIT FAILED'), `${p.game}: before its own audit runs, the headline says the command line failed the game (${before.summary})`);
  await page.click('#audit-run');
  await page.waitForFunction(() => ['pass', 'fail'].includes(document.getElementById('page-verdict').getAttribute('data-verdict')), null, { timeout: 120000 });
  // The audit read every step's script.
  const all = await page.evaluate(() => GalloperPage.loadedSteps().length);
  check(all >= p.steps || plan.missing_allowed, `${p.game}: the audit read every step's script (${all} of ${p.steps} at least)`);
  const verdict = await page.$eval('#verdict', (v) => ({
    verdict: v.getAttribute('data-verdict'),
    step: v.getAttribute('data-step'),
    summary: v.textContent,
  }));
  // The page's own result, below the headline (empty there when it is the headline).
  const own = await page.$eval('#page-verdict', (v) => ({
    own: v.getAttribute('data-verdict'),
    own_step: v.getAttribute('data-step'),
    own_summary: v.textContent,
  }));
  const key = await page.$eval('#server-key', (k) => ({ key_note: k.textContent, pinned: k.getAttribute('data-pinned') }));
  // Never a green headline over a command line that failed; the headline
  // is as loud as the page's own failures (the same element and style).
  const look = await page.$eval('#verdict', (v) => ({ colour: getComputedStyle(v).color, size: getComputedStyle(v).fontSize, weight: getComputedStyle(v).fontWeight }));
  if (built.passed === false) {
    check(verdict.verdict === 'fail' && /^AUDIT FAILED/.test(verdict.summary), `${p.game}: the command line failed the game, and the headline says ${verdict.summary}`);
    check(look.colour === 'rgb(179, 38, 30)' && Number(look.weight) >= 700, `${p.game}: the headline's FAILED is red and bold (${JSON.stringify(look)})`);
  }
  console.log(JSON.stringify({ game: p.game, ...verdict, ...own, ...key, look }));
  const scope = await page.$eval('#audit-scope', (s) => s.textContent).catch(() => '');
  check(/Checked here/.test(scope) && /Not checked here/.test(scope) && /replay/.test(scope), `${p.game}: the page says what its audit checked and what it did not (${scope})`);
  if (p.expect === 'pass') {
    check(verdict.verdict === 'pass', `${p.game}: the audit passes in the browser (${verdict.summary})`);
  } else if (p.expect === 'fail') {
    check(verdict.verdict === 'fail', `${p.game}: the audit fails (${verdict.summary})`);
  } else {
    check(verdict.verdict === 'fail' && verdict.step === String(p.expect.fail), `${p.game}: the audit fails at step ${p.expect.fail} (${verdict.summary})`);
    const failed = await page.$eval('#audit-lines li.failed', (l) => l.textContent).catch(() => '');
    check(failed.includes(`step ${p.expect.fail}`), `${p.game}: the failed line names step ${p.expect.fail} (${failed})`);
  }
  if (p.shot) {
    await (await page.$('.audit')).screenshot({ path: `${plan.shots}/${p.shot}-audit.png` });
    await toStep(Math.ceil(p.steps / 2));
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${plan.shots}/${p.shot}.png`, fullPage: false });
  }
}

// A phone: the map scales to the screen, the page does not scroll sideways.
if (plan.phone) {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const pp = await phone.newPage();
  await pp.goto(pathToFileURL(plan.pages[0].file).href);
  await pp.waitForSelector('#map svg');
  const fit = await pp.evaluate(() => ({
    map: document.querySelector('#map svg').getBoundingClientRect().width,
    page: document.documentElement.scrollWidth,
    view: window.innerWidth,
  }));
  check(fit.map <= fit.view && fit.page <= fit.view + 1, `on a phone the map (${fit.map}px) and the page (${fit.page}px) fit the screen (${fit.view}px)`);
  await pp.screenshot({ path: `${plan.shots}/phone.png` });
  await phone.close();
}

await browser.close();
check(outside.length === 0, `requests outside the site: ${outside.join(', ')}`);
// (A plan that removed a script on purpose expects the browser's word
// that it is not there, and no other error.)
const unexpected = errors.filter((e) => !(plan.missing_allowed && /ERR_FILE_NOT_FOUND/.test(e)));
check(unexpected.length === 0, `script errors: ${unexpected.join('; ')}`);
if (problems.length) {
  console.error(problems.map((p) => `FAILED: ${p}`).join('\n'));
  process.exit(1);
}
console.error('browser checks passed');
