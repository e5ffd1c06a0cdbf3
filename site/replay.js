// A game's page: the archive the page carries, replayed step by step (the
// public map, the events as data, each die with what it needed, the cards,
// the outcome), units followed across steps, secrets shown only where the
// archive has revealed them, and the audit button (audit.js).
(function () {
  'use strict';
  const V = globalThis.GalloperVendor;
  const A = globalThis.GalloperAudit;
  // The game's own files and the list of its steps; each step's files come
  // in a script of their own (games/GAME/step-NNNN.js), loaded as the
  // reader comes to the step: a classic script, which loads from file://
  // too, where fetch() cannot.
  const data = JSON.parse(document.getElementById('archive').textContent);
  const gameFiles = data.files || {};
  const stepNumbers = (data.steps || []).slice().sort((a, b) => a - b);
  const parts = data.parts || [];
  const $ = (id) => document.getElementById(id);
  const pad4 = (n) => String(n).padStart(4, '0');
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v == null) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('data-')) e.setAttribute(k, v);
      else e[k] = v;
    }
    for (const k of kids) if (k != null) e.append(k);
    return e;
  };
  const parse = (text) => {
    if (typeof text !== 'string') return null;
    try {
      return V.parseYaml(text);
    } catch (e) {
      return null;
    }
  };

  // ---------- loading the steps' scripts ----------
  const loaded = new Map(); // part -> what its step script carries
  const binaries = new Map(); // part -> its binary files, base64
  const pending = new Map(); // script -> the promise of its loading
  const stepScript = (n) => `${data.dir}/step-${pad4(n)}.js`;
  const filesScript = (n) => `${data.dir}/files-${pad4(n)}.js`;
  // Called by each step's script; a script of another game is ignored.
  globalThis.GalloperStep = (d) => {
    if (!d || d.game !== data.game || loaded.has(d.step)) return;
    loaded.set(d.step, d);
    if (stepNumbers.includes(d.step)) addStep(d);
  };
  globalThis.GalloperFiles = (d) => {
    if (d && d.game === data.game) binaries.set(d.step, d.files || {});
  };
  function loadScript(src) {
    if (!pending.has(src)) {
      pending.set(src, new Promise((resolve) => {
        const s = document.createElement('script');
        s.src = src;
        s.onload = () => resolve(true);
        s.onerror = () => {
          pending.delete(src);
          resolve(false);
        };
        document.head.append(s);
      }));
    }
    return pending.get(src);
  }
  const ensure = (n) => (loaded.has(n) ? Promise.resolve(true) : loadScript(stepScript(n)).then(() => loaded.has(n)));
  // Load many, a few at a time, saying how far it got.
  async function loadMany(srcs, progress) {
    let done = 0;
    const queue = srcs.slice();
    const worker = async () => {
      while (queue.length) {
        await loadScript(queue.shift());
        done += 1;
        progress(done, srcs.length);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
  }
  // Every step's script (for a unit's story and for the audit).
  const ensureAll = (progress) => loadMany(parts.filter((n) => !loaded.has(n)).map(stepScript), progress || (() => {}));

  // ---------- the steps ----------
  const end = parse(gameFiles['end.yaml']);
  const byN = new Map();
  function makeStep(d) {
    const n = d.step;
    const files = d.files || {};
    const yaml = (p) => parse(files[p]);
    const dir = `step-${pad4(n)}`;
    const view = yaml(`${dir}/view.yaml`) || {};
    const notice = yaml(`${dir}/notice.yaml`) || {};
    const sdir = `sealed/${dir}`;
    return {
      n,
      dir,
      files,
      // As the step's mail titles it: the step that was played, its own
      // notice's heading (the view's names the step after).
      heading: d.heading != null ? d.heading : notice.heading || '',
      panels: view.panels || [],
      units: ((view.map || {}).units || []),
      sides: ((view.map || {}).sides || []),
      events: yaml(`${dir}/events.yaml`) || [],
      dice: yaml(`${dir}/dice.yaml`) || [],
      reveal: yaml(`${dir}/reveal.yaml`) || {},
      orders: (yaml(`${dir}/orders.yaml`) || {}).sides || [],
      map: d.map || null,
      // The ruleset's own telling of the public events (the public report's lines).
      told: d.told || null,
      sealed: `${sdir}/hidden.yaml` in files
        ? {
          hidden: yaml(`${sdir}/hidden.yaml`) || {},
          events: (yaml(`${sdir}/events.yaml`) || []).filter((e) => e.visibility !== 'public'),
          dice: (yaml(`${sdir}/dice.yaml`) || []).filter((d) => d.stream === 'hidden'),
          orders: Object.keys(files).filter((p) => p.startsWith(`${sdir}/orders-`)),
        }
        : null,
    };
  }

  // ---------- units across steps ----------
  // Learnt from each step as it loads; a unit's story reads every step.
  const unitNames = new Map();
  const stories = new Map();
  const tell = (id, step, text) => {
    if (!stories.has(id)) stories.set(id, []);
    stories.get(id).push({ step, text });
  };
  const unitsOf = (e) => {
    const f = e.facts || {};
    return [f.unit, f.target, ...(f.units || [])].filter(Boolean);
  };
  function addStep(d) {
    const s = makeStep(d);
    byN.set(s.n, s);
    for (const u of s.units) unitNames.set(u.id, u.label);
    for (const e of s.events) {
      const seen = new Set();
      for (const u of unitsOf(e)) {
        if (!unitNames.has(u.id)) unitNames.set(u.id, u.name);
        if (seen.has(u.id)) continue;
        seen.add(u.id);
        tell(u.id, s.n, e.text);
      }
    }
  }

  // ---------- drawing a step ----------
  let current = stepNumbers.length ? stepNumbers[0] : 0;
  let followed = null;
  let auditResult = null;

  function unitButton(u) {
    return el('button', { type: 'button', class: 'unit', 'data-unit': u.id, title: 'Follow this unit' }, u.name || unitNames.get(u.id) || u.id);
  }
  // An event's words with its units as buttons that follow them.
  function eventWords(e) {
    const text = String(e.text || '');
    const units = unitsOf(e).filter((u) => u.name);
    const frag = document.createDocumentFragment();
    let rest = text;
    for (;;) {
      let best = null;
      for (const u of units) {
        const i = rest.indexOf(u.name);
        if (i >= 0 && (!best || i < best.i)) best = { i, u };
      }
      if (!best) break;
      frag.append(rest.slice(0, best.i), unitButton(best.u));
      rest = rest.slice(best.i + best.u.name.length);
    }
    frag.append(rest);
    return frag;
  }

  function drawMap(s) {
    const fig = $('map');
    fig.textContent = '';
    if (!s.map || !s.map.svg) {
      fig.append(el('p', { class: 'note' }, s.map && s.map.error ? `The map cannot be drawn: ${s.map.error}` : 'No map for this step.'));
      return;
    }
    // The SVG is drawn by galloper from the step's parsed view, not copied
    // from the archive (src/site/maps.rs).
    fig.innerHTML = s.map.svg;
    const svg = fig.querySelector('svg');
    if (!svg) return;
    svg.removeAttribute('width');
    svg.removeAttribute('height');
    svg.setAttribute('data-step', String(s.n));
    const NS = 'http://www.w3.org/2000/svg';
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('class', 'unit-hits');
    for (const [id, x, y, w, h] of s.map.units || []) {
      const r = document.createElementNS(NS, 'rect');
      const m = 4;
      r.setAttribute('x', x - m);
      r.setAttribute('y', y - m);
      r.setAttribute('width', w + 2 * m);
      r.setAttribute('height', h + 2 * m);
      r.setAttribute('rx', 4);
      r.setAttribute('data-unit', id);
      r.setAttribute('class', 'unit-hit' + (id === followed ? ' followed' : ''));
      const t = document.createElementNS(NS, 'title');
      t.textContent = unitNames.get(id) || id;
      r.append(t);
      g.append(r);
    }
    svg.append(g);
  }

  function neededOf(s) {
    const need = new Map();
    for (const e of s.events) {
      for (const i of e.dice || []) need.set(i, { needed: (e.facts || {}).needed, event: e });
    }
    return need;
  }

  function drawStep() {
    $('slider').value = String(stepNumbers.indexOf(current) + 1);
    $('step-label').textContent = `Step ${current} of ${stepNumbers.length}`;
    const s = byN.get(current);
    if (!s) {
      // Its script is on its way (or failed to load: said so).
      document.body.setAttribute('data-loading', String(current));
      document.body.classList.add('loading');
      return;
    }
    document.body.removeAttribute('data-loading');
    document.body.classList.remove('loading');
    $('heading').textContent = `Step ${s.n}: ${s.heading}`;
    document.body.setAttribute('data-step', String(s.n));
    if (location.hash !== `#step-${s.n}`) history.replaceState(null, '', `#step-${s.n}`);
    drawMap(s);

    // Cards played, the outcome, and the view's panels.
    const cards = $('cards');
    cards.textContent = '';
    const played = s.events.filter((e) => e.kind === 'card' && ((e.facts || {}).cards || []).length);
    if (played.length) {
      cards.append(el('h3', {}, 'Cards'));
      const ul = el('ul', { class: 'cards' });
      for (const e of played) ul.append(el('li', {}, el('span', { class: 'card-names' }, e.facts.cards.join(', ')), ' \u2014 ', e.text));
      cards.append(ul);
    }
    const outcome = s.events.filter((e) => e.kind === 'outcome');
    const last = s.n === stepNumbers[stepNumbers.length - 1];
    if (outcome.length || (last && end)) {
      cards.append(el('h3', {}, 'Outcome'));
      for (const e of outcome) cards.append(el('p', { class: 'outcome' }, e.text));
      if (last && end) cards.append(el('p', { class: 'outcome' }, `The game is over: ${end.outcome}`));
    }
    for (const p of s.panels) {
      cards.append(el('h3', {}, p.title));
      const ul = el('ul', { class: 'panel-lines' });
      for (const l of p.lines || []) ul.append(el('li', {}, l));
      cards.append(ul);
    }

    // Events.
    const ol = $('events');
    ol.textContent = '';
    // Each line as the ruleset tells it; a line that is one event's own
    // words keeps that event's kind, dice and modifiers.
    const used = new Set();
    const rows = s.told
      ? s.told.map((line) => {
        const i = s.events.findIndex((e, j) => !used.has(j) && e.text === line.text);
        if (i < 0) return { line };
        used.add(i);
        return { e: s.events[i], i };
      })
      : s.events.map((e, i) => ({ e, i }));
    const stepUnits = s.events.flatMap(unitsOf);
    rows.forEach(({ e, i, line }, k) => {
      if (line) {
        const li = el('li', { class: 'event told', id: `ev-${s.n}-t${k}` },
          eventWords({ text: line.text, facts: { units: stepUnits } }));
        if ((line.dice || []).length)
          li.append(el('span', { class: 'event-dice' }, ` [${line.dice.map((x) => `d${x.sides}: ${x.value}`).join(', ')}]`));
        ol.append(li);
        return;
      }
      const f = e.facts || {};
      const dice = (e.dice || []).map((n) => s.dice[n]).filter(Boolean);
      const li = el('li', { class: `event kind-${e.kind}`, 'data-kind': e.kind, 'data-what': e.what, id: `ev-${s.n}-${i}` },
        el('span', { class: 'kind' }, e.kind), ' ', eventWords(e));
      if (dice.length) {
        const d = el('span', { class: 'event-dice' });
        d.append(` [${dice.map((x) => `d${x.sides}: ${x.value}`).join(', ')}`, f.needed != null ? `; needed ${f.needed}` : '', ']');
        li.append(d);
      }
      if ((f.modifiers || []).length)
        li.append(el('span', { class: 'mods' }, ` (${f.modifiers.map((m) => `${m.why} ${m.value > 0 ? '+' : ''}${m.value}`).join(', ')})`));
      ol.append(li);
    });
    if (!rows.length) ol.append(el('li', { class: 'note' }, 'No public event.'));

    // Dice with what they needed.
    const tb = $('dice').querySelector('tbody');
    tb.textContent = '';
    const need = neededOf(s);
    for (const d of s.dice) {
      const w = need.get(d.n);
      tb.append(el('tr', { 'data-n': d.n },
        el('td', { class: 'n' }, `#${d.n}`), el('td', {}, `d${d.sides}`), el('td', { class: 'value' }, String(d.value)),
        el('td', {}, d.purpose || ''), el('td', {}, w && w.needed != null ? `${w.needed}+` : '')));
    }
    if (!s.dice.length) tb.append(el('tr', {}, el('td', { colSpan: 5, class: 'note' }, 'No public die this step.')));

    // Secrets: only what the archive has revealed.
    const sec = $('secrets');
    sec.textContent = '';
    sec.append(el('h3', {}, 'Secrets'));
    sec.append(el('p', {}, `Public secret ${s.reveal.public_secret || '?'}, public seed ${s.reveal.public_seed || '?'}; orders mixed in: ${s.orders.map((o) => o.side).join(', ') || 'none'}.`));
    if (s.sealed) {
      sec.append(el('p', {}, `Revealed at the end: hidden secret ${s.sealed.hidden.hidden_secret}, ${s.sealed.dice.length} hidden dice.`));
      if (s.sealed.events.length) {
        const ul = el('ul', { class: 'hidden-events' });
        for (const e of s.sealed.events) ul.append(el('li', {}, `(${typeof e.visibility === 'object' ? `for ${Object.values(e.visibility)[0]}` : 'umpire'}) `, e.text));
        sec.append(ul);
      }
      for (const p of s.sealed.orders) {
        const d = el('details', { class: 'orders' }, el('summary', {}, p.split('/').pop()), el('pre', {}, s.files[p]));
        sec.append(d);
      }
    } else {
      sec.append(el('p', { class: 'note' }, 'Hands, hidden dice and orders stay sealed until the game ends.'));
    }
    if (auditResult) markAudit();
    if (followed) drawStory();
  }

  // Show step `current`, loading its script first if need be, then the
  // next one's, so that moving on is quick.
  function show() {
    const n = current;
    drawStep();
    const after = () => {
      const next = stepNumbers[stepNumbers.indexOf(n) + 1];
      if (next != null) ensure(next);
    };
    if (byN.has(n)) return after();
    $('heading').textContent = `Step ${n}: loading\u2026`;
    ensure(n).then((ok) => {
      if (current !== n) return;
      if (!ok) {
        $('heading').textContent = `Step ${n}: its file ${stepScript(n)} did not load`;
        return;
      }
      drawStep();
      after();
    });
  }
  function go(i) {
    const k = Math.max(0, Math.min(stepNumbers.length - 1, i));
    if (stepNumbers[k] == null) return;
    current = stepNumbers[k];
    show();
  }
  const index = () => stepNumbers.indexOf(current);

  // ---------- a unit's story ----------
  function follow(id) {
    followed = id;
    drawStep();
    // Its story is told from every step: read them all (once).
    if (loaded.size < parts.length) {
      $('story-title').textContent = `${unitNames.get(followed) || followed}: reading every step for its story\u2026`;
      ensureAll().then(() => {
        if (followed === id) drawStory();
      });
    }
  }
  function drawStory() {
    const box = $('story');
    box.hidden = false;
    $('story-title').textContent = `${unitNames.get(followed) || followed}: its story`;
    const ol = $('story-lines');
    ol.textContent = '';
    // Steps load in any order; a story goes in the game's.
    const lines = (stories.get(followed) || []).slice().sort((a, b) => a.step - b.step);
    for (const l of lines) {
      const b = el('button', { type: 'button', class: 'story-step', 'data-step': l.step }, `Step ${l.step}`);
      ol.append(el('li', { class: l.step === current ? 'now' : '' }, b, ' ', l.text));
    }
    if (!lines.length) ol.append(el('li', { class: 'note' }, 'No public event names this unit.'));
    document.querySelectorAll('[data-unit]').forEach((e) => e.classList.toggle('followed', e.getAttribute('data-unit') === followed));
  }
  function highlight(id, on) {
    document.querySelectorAll(`#map [data-unit="${CSS.escape(id)}"]`).forEach((e) => e.classList.toggle('hover', on));
  }

  // ---------- the audit ----------
  function markAudit() {
    const r = auditResult;
    document.querySelectorAll('#audit-lines li').forEach((li) =>
      li.classList.toggle('now', li.getAttribute('data-step') === String(current)));
    const f = headlineFailure(r);
    const badge = !f ? 'pass' : f.step === current ? 'fail' : f.step != null && current > f.step ? 'unchecked' : 'pass';
    $('step-label').setAttribute('data-audit', badge);
  }
  // The audit reads every file: every step's script, then the binary
  // files (the maps' PNGs) that wait in games/GAME/files-NNNN.js until an
  // audit needs them. Classic scripts, which load from file:// too. Then
  // the archive whole, or what did not load.
  async function loadArchive() {
    const say = (t) => { $('audit-progress').textContent = t; };
    await ensureAll((k, n) => say(`Reading the steps\u2019 files: ${k} of ${n}\u2026`));
    const withBinary = [0, ...parts].filter((n) => (n === 0 ? data.binary_paths || [] : (loaded.get(n) || {}).binary_paths || []).length);
    await loadMany(withBinary.filter((n) => !binaries.has(n)).map(filesScript), (k, n) => say(`Reading the maps\u2019 files: ${k} of ${n}\u2026`));
    say('');
    const missing = parts.filter((n) => !loaded.has(n)).map(stepScript)
      .concat(withBinary.filter((n) => !binaries.has(n)).map(filesScript));
    return { archive: A.assemble(data, [...loaded.values()], [...binaries.values()]), missing };
  }
  // The command line's verdict when the site was made: a failure there is
  // the page's headline, as loud as the page's own, even where the page
  // cannot see it (the replay through the rules is the command line's).
  const built = data.built || {};
  const cliFailed = built.passed === false;
  const cliHeadline = $('verdict').textContent;
  const cliFailure = cliFailed
    ? { place: built.place || '?', what: built.audit || '', step: globalThis.GalloperAudit.stepOf(built.place || ''), cli: true }
    : null;
  // What the headline says failed: the page's own failure, which it shows
  // itself, or else the command line's.
  const headlineFailure = (r) => (r && !r.passed ? r.failure : cliFailure);
  function setVerdict(node, verdict, step, text) {
    node.setAttribute('data-verdict', verdict);
    if (step != null) node.setAttribute('data-step', String(step));
    else node.removeAttribute('data-step');
    node.textContent = text;
  }
  function failedLine(f, text) {
    const li = el('li', { class: 'failed', 'data-step': f.step == null ? '' : String(f.step) },
      f.step != null ? `step ${f.step}: ` : '', text);
    if (f.step != null && stepNumbers.includes(f.step)) {
      li.append(' ', el('button', { type: 'button', class: 'story-step', 'data-step': f.step }, `Show step ${f.step}`));
    }
    return li;
  }
  function runAudit() {
    const verdict = $('verdict');
    const own = $('page-verdict');
    if (!cliFailed) setVerdict(verdict, 'running', null, 'Auditing\u2026');
    setVerdict(own, 'running', null, cliFailed ? 'This page\u2019s own audit: auditing\u2026' : '');
    loadArchive().then(({ archive, missing }) => setTimeout(() => {
      const t0 = performance.now();
      const r = missing.length
        ? A.notLoaded(missing, parts.filter((n) => !loaded.has(n))[0])
        : A.run(archive);
      auditResult = r;
      const ms = Math.round(performance.now() - t0);
      const ownStep = r.failure ? r.failure.step : null;
      const ownText = r.passed ? `${r.summary} (${ms} ms)` : r.summary;
      if (!r.passed) {
        // Its own failure heads the page; the command line's, if it
        // failed too, stays below.
        setVerdict(verdict, 'fail', ownStep, ownText);
        verdict.removeAttribute('data-source');
        setVerdict(own, 'fail', ownStep, '');
      } else if (cliFailed) {
        setVerdict(verdict, 'fail', cliFailure.step, cliHeadline);
        setVerdict(own, 'pass', null,
          `This page\u2019s own audit, which cannot replay the rules, found nothing wrong in what it checks: ${ownText}`);
      } else {
        setVerdict(verdict, 'pass', null, ownText);
        setVerdict(own, 'pass', null, '');
      }
      const ol = $('audit-lines');
      ol.textContent = '';
      for (const l of r.lines) ol.append(el('li', { 'data-step': l.step == null ? '' : String(l.step), class: 'ok' }, l.text));
      if (!r.passed) ol.append(failedLine(r.failure, `${r.failure.place}: ${r.failure.what}`));
      // The command line's failure, unless it is the page's own in its words.
      if (cliFailed && (r.passed || r.summary.trim() !== String(built.audit).trim()))
        ol.append(failedLine(cliFailure, `the command line's audit: ${cliFailure.what}`));
      markAudit();
    }, 20));
  }

  // ---------- wiring ----------
  const slider = $('slider');
  slider.max = String(Math.max(1, stepNumbers.length));
  slider.addEventListener('input', () => go(Number(slider.value) - 1));
  $('prev').addEventListener('click', () => go(index() - 1));
  $('next').addEventListener('click', () => go(index() + 1));
  $('audit-run').addEventListener('click', runAudit);
  document.addEventListener('keydown', (e) => {
    if (e.target === slider || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight' || e.key === 'j') go(index() + 1);
    else if (e.key === 'ArrowLeft' || e.key === 'k') go(index() - 1);
    else if (e.key === 'Home') go(0);
    else if (e.key === 'End') go(stepNumbers.length - 1);
    else return;
    e.preventDefault();
  });
  document.addEventListener('click', (e) => {
    const u = e.target.closest('[data-unit]');
    if (u) return follow(u.getAttribute('data-unit'));
    const s = e.target.closest('button.story-step');
    if (s) go(stepNumbers.indexOf(Number(s.getAttribute('data-step'))));
  });
  document.addEventListener('mouseover', (e) => {
    const u = e.target.closest && e.target.closest('[data-unit]');
    if (u) highlight(u.getAttribute('data-unit'), true);
  });
  document.addEventListener('mouseout', (e) => {
    const u = e.target.closest && e.target.closest('[data-unit]');
    if (u) highlight(u.getAttribute('data-unit'), false);
  });
  const fromHash = /^#step-(\d+)$/.exec(location.hash);
  if (fromHash && stepNumbers.includes(Number(fromHash[1]))) current = Number(fromHash[1]);
  show();
  globalThis.GalloperPage = {
    go,
    steps: () => stepNumbers.slice(),
    current: () => current,
    follow,
    runAudit,
    // What a test reads: a loaded step's told lines and unit boxes, and
    // the paths of every file the page has read so far.
    told: (n) => (byN.get(n) || {}).told || null,
    mapUnits: (n) => (((byN.get(n) || {}).map || {}).units || []).length,
    loadAll: () => ensureAll(),
    loadedSteps: () => [...loaded.keys()].sort((a, b) => a - b),
    carried: () => Object.keys(gameFiles).concat(...[...loaded.values()].map((d) => Object.keys(d.files || {}))),
  };
})();
