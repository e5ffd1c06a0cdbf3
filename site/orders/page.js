// The orders page's hands: the map, the forms, the order list and the
// signing, over the pure parts (GalloperOrders, GalloperSign) and the page's
// data (GalloperPage). It makes no request and stores nothing.
(function () {
  'use strict';
  const P = globalThis.GalloperPage;
  const O = globalThis.GalloperOrders;
  const S = globalThis.GalloperSign;
  const SVGNS = 'http://www.w3.org/2000/svg';
  const $ = (id) => document.getElementById(id);
  const writer = O.writerFor(P);
  const byHand = !!writer.byHand;

  // --- State: what the player drew, with undo ---------------------------------

  let drawn = { units: {}, fields: {} };
  const history = [];
  let selected = null;
  let handEdited = false;

  function snapshot() {
    history.push(JSON.stringify(drawn));
    if (history.length > 200) history.shift();
  }
  function unitOrders(id) {
    if (!drawn.units[id]) drawn.units[id] = { move: null, formation: '', targets: {}, fields: {} };
    return drawn.units[id];
  }
  function prune(id) {
    const d = drawn.units[id];
    if (d && !d.move && !d.formation && !Object.keys(d.targets).length && !Object.keys(d.fields).length) {
      delete drawn.units[id];
    }
  }
  function change(fn) {
    snapshot();
    fn();
    refresh();
  }

  // --- Geometry: table units to the picture's pixels ---------------------------

  const F = P.frame;
  function px(p) {
    return F.turned
      ? { x: F.left + (F.table_w - p.x) * F.scale, y: F.top + p.y * F.scale }
      : { x: F.left + p.x * F.scale, y: F.top + (F.table_h - p.y) * F.scale };
  }
  function table(q) {
    return F.turned
      ? { x: F.table_w - (q.x - F.left) / F.scale, y: (q.y - F.top) / F.scale }
      : { x: (q.x - F.left) / F.scale, y: F.table_h - (q.y - F.top) / F.scale };
  }
  // A unit's bases at `at` facing `facing`, each as its corners, from
  // its outline.
  function bases(id, at, facing) {
    const o = P.outlines[id] || [[[-1, 0], [1, 0], [1, -1], [-1, -1]]];
    const r = (facing * Math.PI) / 180;
    const s = Math.sin(r), c = Math.cos(r);
    return o.map((base) => base.map(([lx, ly]) => ({ x: at.x + lx * c + ly * s, y: at.y - lx * s + ly * c })));
  }
  function ahead(at, facing, d) {
    const r = (facing * Math.PI) / 180;
    return { x: at.x + d * Math.sin(r), y: at.y + d * Math.cos(r) };
  }
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function points(ps) {
    return ps.map((p) => { const q = px(p); return q.x.toFixed(1) + ',' + q.y.toFixed(1); }).join(' ');
  }

  const svg = document.querySelector('#map svg');
  // The hatching of ground that shortens a move, defined once.
  const hatch = el('pattern', { id: 'g-hatch', patternUnits: 'userSpaceOnUse', width: 8, height: 8, patternTransform: 'rotate(45)' }, el('defs', {}, svg));
  // A dark and a light stroke, so it shows over dark woods and pale fields.
  el('line', { x1: 1, y1: 0, x2: 1, y2: 8, class: 'g-hatch-line' }, hatch);
  el('line', { x1: 3.5, y1: 0, x2: 3.5, y2: 8, class: 'g-hatch-light' }, hatch);
  const overlay = el('g', { id: 'overlay' }, svg);
  function pointer(ev) {
    const m = svg.getScreenCTM().inverse();
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX;
    pt.y = ev.clientY;
    const q = pt.matrixTransform(m);
    return table({ x: q.x, y: q.y });
  }
  function size(u) {
    const o = (P.outlines[u.id] || [[[0, 0]]]).flat();
    return Math.max(1, ...o.map(([x, y]) => Math.hypot(x, y)));
  }

  // --- Drawing ------------------------------------------------------------------

  function where(u) {
    const d = drawn.units[u.id];
    if (d && d.move) return { at: { x: d.move.x, y: d.move.y }, facing: d.move.facing };
    return { at: u.at, facing: u.facing };
  }
  function verdict(u, d) {
    const probs = O.problems(P, { units: { [u.id]: d }, fields: drawn.fields });
    if (probs.some((p) => !p.warning)) return 'bad';
    if (probs.length) return 'warn';
    return '';
  }

  function draw() {
    overlay.textContent = '';
    const open = new Set(O.unordered(P, drawn));
    if (selected) drawReach(selected);
    for (const u of P.plan.units) {
      const d = drawn.units[u.id];
      const g = el('g', { class: 'g-unit' + (open.has(u.id) ? ' unordered' : '') + (selected && selected.id === u.id ? ' selected' : ''), 'data-unit': u.id }, overlay);
      for (const b of bases(u.id, u.at, u.facing)) el('polygon', { points: points(b), fill: 'transparent', stroke: '#333' }, g);
      g.addEventListener('pointerdown', (ev) => startDrag(ev, u));
      if (d && d.move) {
        el('polyline', { class: 'g-path', points: points([u.at, d.move]) }, overlay);
        const ghost = el('g', { class: 'g-ghost ' + verdict(u, d), 'data-ghost': u.id }, overlay);
        for (const b of bases(u.id, d.move, d.move.facing)) el('polygon', { points: points(b), fill: '#4a7' }, ghost);
        ghost.addEventListener('pointerdown', (ev) => startDrag(ev, u));
      }
    }
    if (selected) {
      const w = where(selected);
      const h = px(ahead(w.at, w.facing, size(selected) * 1.6));
      const handle = el('circle', { class: 'g-handle', cx: h.x.toFixed(1), cy: h.y.toFixed(1), r: 7, 'data-handle': selected.id }, overlay);
      handle.addEventListener('pointerdown', (ev) => startTurn(ev, selected));
    }
  }

  function drawReach(u) {
    if (!u.reach) return;
    const r = u.reach;
    const c = px(u.at);
    const rad = (v) => (v * F.scale).toFixed(1);
    if (r.road != null && r.road > r.full) el('circle', { class: 'g-reach-road', cx: c.x, cy: c.y, r: rad(r.road) }, overlay);
    if (r.shape === 'forward45') {
      const arc = (d) => {
        const ps = [u.at];
        for (let a = -45; a <= 45; a += 5) ps.push(ahead(u.at, u.facing + a, d));
        return ps;
      };
      el('polygon', { class: 'g-reach-full', points: points(arc(r.full)) }, overlay);
      if (r.turned != null) el('polygon', { class: 'g-reach-turned', points: points(arc(r.turned)) }, overlay);
    } else if (r.shape === 'straight') {
      el('polyline', { class: 'g-reach-full', points: points([ahead(u.at, u.facing, -r.full), ahead(u.at, u.facing, r.full)]), 'stroke-width': 8 }, overlay);
    } else {
      el('circle', { class: 'g-reach-full', cx: c.x, cy: c.y, r: rad(r.full) }, overlay);
      if (r.turned != null) el('circle', { class: 'g-reach-turned', cx: c.x, cy: c.y, r: rad(r.turned) }, overlay);
    }
    drawGround(u);
  }

  // The ground the plan says stops or slows this unit: red where it may
  // not enter, hatched where a move that enters it is shortened, each
  // with its name and rule as a tooltip.
  function drawGround(u) {
    const m = P.head.measure;
    for (const g of u.reach.ground || []) {
      const o = (P.plan.ground || [])[g.outline];
      if (!o) continue;
      const kind = g.most == null ? 'stop' : 'slow';
      const attrs = { class: 'g-ground g-ground-' + kind + (g.soft ? ' g-ground-soft' : ''), 'data-ground': o.name };
      let shape;
      if (o.line != null) {
        attrs.points = points(o.points);
        attrs['stroke-width'] = Math.max(4, o.line * F.scale).toFixed(1);
        shape = el('polyline', attrs, overlay);
      } else {
        attrs.points = points(o.points);
        shape = el('polygon', attrs, overlay);
      }
      const cost = g.cost != null && g.cost !== 1 ? ', each ' + m + ' in it counts ' + g.cost : '';
      const limit = g.most == null ? 'may not enter' : 'a move that enters it goes at most ' + O.round1(g.most) + ' ' + m + cost;
      el('title', {}, shape).textContent = o.name + ': ' + limit + ' (' + g.why + ')' + (g.soft ? '; checked on receipt' : '');
    }
  }

  // --- Dragging and turning -------------------------------------------------------

  let drag = null;
  function startDrag(ev, u) {
    ev.preventDefault();
    select(u.id);
    if (!u.reach) return;
    const w = where(u);
    const p = pointer(ev);
    drag = { kind: 'move', u, dx: w.at.x - p.x, dy: w.at.y - p.y, facing: w.facing, moved: false };
    snapshot();
    svg.setPointerCapture(ev.pointerId);
  }
  function startTurn(ev, u) {
    ev.preventDefault();
    ev.stopPropagation();
    drag = { kind: 'turn', u };
    snapshot();
    svg.setPointerCapture(ev.pointerId);
  }
  svg.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    const p = pointer(ev);
    const d = unitOrders(drag.u.id);
    if (drag.kind === 'move') {
      let to = { x: p.x + drag.dx, y: p.y + drag.dy };
      if (drag.u.reach && drag.u.reach.shape === 'straight') {
        const r = (drag.u.facing * Math.PI) / 180;
        const along = (to.x - drag.u.at.x) * Math.sin(r) + (to.y - drag.u.at.y) * Math.cos(r);
        to = ahead(drag.u.at, drag.u.facing, along);
      }
      d.move = { x: O.round1(to.x), y: O.round1(to.y), facing: drag.facing };
      drag.moved = true;
    } else {
      const w = where(drag.u);
      const facing = Math.round(O.bearing(w.at, p));
      d.move = { x: w.at.x, y: w.at.y, facing };
    }
    draw();
    showDistance(drag.u);
  });
  function endDrag() {
    if (!drag) return;
    const u = drag.u;
    if (drag.kind === 'move' && !drag.moved) history.pop();
    const d = drawn.units[u.id];
    if (d && d.move && O.distance(u.at, d.move) < 0.05 && Math.abs(O.turn(u.facing, d.move.facing)) < 0.5) d.move = null;
    prune(u.id);
    drag = null;
    refresh();
  }
  svg.addEventListener('pointerup', endDrag);
  svg.addEventListener('pointercancel', endDrag);

  function showDistance(u) {
    const d = drawn.units[u.id];
    const out = $('drag-distance');
    if (!out || !d || !d.move) return;
    out.textContent = O.round1(O.distance(u.at, d.move)) + ' ' + P.head.measure + ', facing ' + Math.round(d.move.facing);
  }

  // --- The unit's panel ----------------------------------------------------------

  function select(id) {
    selected = P.plan.units.find((u) => u.id === id) || null;
    refresh();
  }

  function option(value, label, current) {
    const o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    if (value === current) o.selected = true;
    return o;
  }

  function fieldInput(f, current, set) {
    const label = document.createElement('label');
    label.textContent = f.label + ' ';
    const value = current === undefined ? f.default : current;
    let input;
    const k = f.kind.type;
    if (k === 'one') {
      input = document.createElement('select');
      input.appendChild(option('', '(none)', value));
      for (const c of f.kind.options) input.appendChild(option(c.value, c.label, value));
      input.addEventListener('change', () => set(input.value));
    } else if (k === 'many') {
      input = document.createElement('span');
      const chosen = new Set(String(value || '').split(',').filter(Boolean));
      for (const c of f.kind.options) {
        const l = document.createElement('label');
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.value = c.value;
        box.checked = chosen.has(c.value);
        box.addEventListener('change', () => {
          if (box.checked) chosen.add(c.value); else chosen.delete(c.value);
          set(Array.from(chosen).join(','));
        });
        l.appendChild(box);
        l.appendChild(document.createTextNode(' ' + c.label));
        input.appendChild(l);
      }
    } else if (k === 'yes') {
      input = document.createElement('input');
      input.type = 'checkbox';
      input.checked = value === 'true';
      input.addEventListener('change', () => set(input.checked ? 'true' : 'false'));
    } else if (k === 'number') {
      input = document.createElement('input');
      input.type = 'number';
      input.min = f.kind.min;
      input.max = f.kind.max;
      input.value = value;
      input.addEventListener('change', () => set(input.value));
    } else {
      input = document.createElement('input');
      input.type = 'text';
      input.placeholder = 'x, y';
      input.value = value;
      input.addEventListener('change', () => set(input.value));
    }
    input.name = f.name;
    // A span of boxes has no name attribute of its own: the field's name
    // marks it for scripts and tests alike.
    input.dataset.field = f.name;
    label.appendChild(input);
    if (f.help) {
      const h = document.createElement('span');
      h.className = 'field-help';
      h.textContent = f.help;
      label.appendChild(h);
    }
    return label;
  }

  function unitPanel() {
    const box = $('unit-panel');
    box.textContent = '';
    const u = selected;
    if (!u) {
      const p = document.createElement('p');
      p.className = 'hint';
      p.textContent = 'No unit chosen: click one of yours on the map.';
      box.appendChild(p);
      return;
    }
    const d = drawn.units[u.id] || { move: null, formation: '', targets: {}, fields: {} };
    const h = document.createElement('h2');
    h.textContent = u.label + ' [' + u.id + ']';
    box.appendChild(h);
    const m = P.head.measure;
    const info = document.createElement('p');
    const r1 = O.round1;
    info.textContent = u.formation + ', at (' + r1(u.at.x) + ', ' + r1(u.at.y) + ') facing ' + Math.round(u.facing) + '; ' +
      (u.reach ? 'moves ' + u.reach.full + ' ' + m + (u.reach.turned != null ? ' (' + u.reach.turned + ' ' + m + ' if it turns)' : '') +
        (u.reach.road != null ? ', ' + u.reach.road + ' ' + m + ' on a road' : '') : 'may not move');
    box.appendChild(info);
    const dist = document.createElement('p');
    dist.id = 'drag-distance';
    box.appendChild(dist);
    if (u.reach) {
      const l = document.createElement('label');
      l.textContent = 'Facing after the move ';
      const f = document.createElement('input');
      f.type = 'number';
      f.name = 'facing';
      f.min = 0;
      f.max = 359;
      f.value = Math.round(d.move ? d.move.facing : u.facing);
      f.addEventListener('change', () => change(() => {
        const o = unitOrders(u.id);
        const w = where(u);
        o.move = { x: w.at.x, y: w.at.y, facing: ((Number(f.value) % 360) + 360) % 360 };
      }));
      l.appendChild(f);
      box.appendChild(l);
    }
    if (u.formations.length) {
      box.appendChild(fieldInput({ name: 'formation', label: 'Formation', kind: { type: 'one', options: u.formations.map((x) => ({ value: x, label: x })) }, default: '' },
        d.formation, (v) => change(() => { unitOrders(u.id).formation = v === u.formation ? '' : v; prune(u.id); })));
    }
    for (const t of u.targets) {
      box.appendChild(fieldInput({ name: 'target-' + t.kind, label: t.label, kind: { type: 'one', options: t.options }, default: '' },
        d.targets[t.kind] || '', (v) => change(() => { const o = unitOrders(u.id); if (v) o.targets[t.kind] = v; else delete o.targets[t.kind]; prune(u.id); })));
    }
    for (const f of u.fields) {
      box.appendChild(fieldInput(f, d.fields[f.name], (v) => change(() => { const o = unitOrders(u.id); if (v === f.default) delete o.fields[f.name]; else o.fields[f.name] = v; prune(u.id); })));
    }
    if (d.move || d.formation || Object.keys(d.targets).length) {
      const clear = document.createElement('button');
      clear.type = 'button';
      clear.textContent = 'Clear this unit\'s orders';
      clear.addEventListener('click', () => change(() => { delete drawn.units[u.id]; }));
      box.appendChild(clear);
    }
    const probs = O.problems(P, drawn).filter((p) => p.unit === u.id);
    for (const p of probs) {
      const e = document.createElement('p');
      e.className = 'problem' + (p.warning ? ' warning' : '');
      e.textContent = p.message;
      box.appendChild(e);
    }
    if (u.notes.length) {
      const ul = document.createElement('ul');
      for (const n of u.notes) {
        const li = document.createElement('li');
        li.textContent = n;
        ul.appendChild(li);
      }
      box.appendChild(ul);
    }
  }

  // --- The lists beside the map --------------------------------------------------------

  function describe(u, d) {
    const parts = [];
    if (d.move) {
      const dist = O.round1(O.distance(u.at, d.move));
      parts.push(dist > 0.05 ? 'to (' + d.move.x + ', ' + d.move.y + '), ' + dist + ' ' + P.head.measure : 'in place');
      if (Math.abs(O.turn(u.facing, d.move.facing)) >= 0.5) parts.push('facing ' + d.move.facing);
    }
    if (d.formation) parts.push('into ' + d.formation);
    for (const t of u.targets) if (d.targets[t.kind]) parts.push(t.label.toLowerCase() + ' ' + d.targets[t.kind]);
    for (const k of Object.keys(d.fields)) parts.push(k + ': ' + d.fields[k]);
    return u.label + ' [' + u.id + ']: ' + parts.join('; ');
  }

  function lists() {
    const ol = $('order-list');
    ol.textContent = '';
    for (const u of P.plan.units) {
      const d = drawn.units[u.id];
      if (!d) continue;
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = describe(u, d);
      a.addEventListener('click', (ev) => { ev.preventDefault(); select(u.id); });
      li.appendChild(a);
      const x = document.createElement('button');
      x.type = 'button';
      x.textContent = 'remove';
      x.addEventListener('click', () => change(() => { delete drawn.units[u.id]; }));
      li.appendChild(x);
      ol.appendChild(li);
    }
    const open = $('unordered');
    open.textContent = '';
    const left = O.unordered(P, drawn);
    if (!left.length) open.textContent = P.plan.units.length ? 'none' : '';
    for (const id of left) {
      const u = O.unitPlan(P, id);
      const a = document.createElement('a');
      a.href = '#';
      a.textContent = u.label + ' [' + id + ']';
      a.addEventListener('click', (ev) => { ev.preventDefault(); select(id); });
      open.appendChild(a);
      open.appendChild(document.createTextNode(' '));
    }
    const probs = $('problems');
    probs.textContent = '';
    for (const p of O.problems(P, drawn)) {
      const e = document.createElement('p');
      e.className = p.warning ? 'warning' : '';
      e.textContent = p.message;
      probs.appendChild(e);
    }
    const note = document.createElement('p');
    note.className = 'checked-on-receipt';
    note.textContent = 'The page checks reach, the shape of each move and what the plan says. Ground, friends and enemies in the way, and whatever else the rules ask, are checked by the server on receipt, and a refusal mail names each problem.';
    probs.appendChild(note);
  }

  function sideFields() {
    const box = $('side-fields');
    box.textContent = '';
    if (!P.plan.fields.length) return;
    const h = document.createElement('h3');
    h.textContent = 'This step';
    box.appendChild(h);
    for (const f of P.plan.fields) {
      box.appendChild(fieldInput(f, drawn.fields[f.name], (v) => change(() => { if (v === f.default) delete drawn.fields[f.name]; else drawn.fields[f.name] = v; })));
    }
  }

  // --- The file ---------------------------------------------------------------------

  function ordersText() {
    if (byHand) return P.template;
    try {
      return O.file(P, drawn);
    } catch (e) {
      return '# ' + String(e && e.message) + '\n';
    }
  }

  function refresh() {
    draw();
    unitPanel();
    lists();
    if (!handEdited) $('orders-text').value = ordersText();
  }

  // --- Signing ---------------------------------------------------------------------

  let keyText = null;
  function status(text, good) {
    const s = $('sign-status');
    s.textContent = text;
    s.className = good ? 'good' : 'bad';
  }
  function takeKey(text) {
    keyText = null;
    $('saves').hidden = true;
    try {
      const key = S.requireKey(S.readKey(text), P.head.fingerprint, P.head.side);
      keyText = text;
      $('pass-row').hidden = !key.encrypted;
      status('Key ' + key.fingerprint + ' is the one on record for ' + P.head.side_name + (key.encrypted ? ': type its passphrase, then sign.' : ': ready to sign.'), true);
    } catch (e) {
      status(String(e && e.message), false);
    }
  }
  function readFile(file, then) {
    const r = new FileReader();
    r.onload = () => then(String(r.result));
    r.readAsText(file);
  }
  let keyReading = false;
  function readKey(file) {
    keyReading = true;
    keyText = null;
    readFile(file, (text) => { keyReading = false; takeKey(text); });
  }
  $('key-file').addEventListener('change', (ev) => { if (ev.target.files[0]) readKey(ev.target.files[0]); });
  const drop = $('drop');
  drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (ev) => {
    ev.preventDefault();
    drop.classList.remove('over');
    const f = ev.dataTransfer.files[0];
    if (f) readKey(f);
  });

  let signed = null;
  function revision() {
    const r = Number($('revision').value);
    return Number.isInteger(r) && r >= 1 ? r : P.head.revision;
  }
  function blobUrl(text) {
    return URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  }
  $('sign-button').addEventListener('click', () => {
    if (keyReading) { status('Still reading your key file: sign again in a moment.', false); return; }
    if (!keyText) { status('Drop your orders key file first.', false); return; }
    const hard = O.problems(P, drawn).filter((p) => !p.warning);
    if (hard.length && !handEdited) { status('Fix the problems beside the map first: ' + hard[0].message, false); return; }
    if ($('text-problem').textContent) { status('Fix the orders file first: ' + $('text-problem').textContent, false); return; }
    try {
      signed = S.signOrders({
        keyText,
        passphrase: $('passphrase').value,
        expectedFingerprint: P.head.fingerprint,
        side: P.head.side,
        orders: $('orders-text').value,
        notice: P.head.notice,
        revision: revision(),
      });
      $('passphrase').value = '';
      $('save-orders').href = blobUrl(signed.orders);
      $('save-sig').href = blobUrl(signed.signature);
      $('saves').hidden = false;
      $('share').hidden = !(navigator.canShare && navigator.canShare({ files: [new File(['x'], 'orders.yaml')] }));
      status('Signed. Save both files and attach them to your mail to the club.', true);
      document.body.dataset.signed = 'true';
    } catch (e) {
      status(String(e && e.message), false);
    }
  });
  $('share').addEventListener('click', () => {
    if (!signed) return;
    navigator.share({
      files: [new File([signed.orders], 'orders.yaml', { type: 'text/plain' }), new File([signed.signature], 'orders.yaml.sig', { type: 'text/plain' })],
      title: 'Orders: ' + P.head.game + ', step ' + P.head.step,
    }).catch(() => {});
  });

  // --- Editing by hand and loading back -------------------------------------------------

  // A file edited by hand is read as YAML at once, so a slip is shown
  // where it is; what it says is checked by the server on receipt.
  function checkText() {
    const out = $('text-problem');
    try {
      const doc = globalThis.GalloperVendor.parseYaml($('orders-text').value);
      out.textContent = doc && typeof doc === 'object' && doc.orders !== undefined
        ? ''
        : 'The file has no `orders:` block.';
    } catch (e) {
      const at = e && e.linePos && e.linePos[0] ? 'line ' + e.linePos[0].line + ': ' : '';
      out.textContent = 'The file does not read as YAML, ' + at + String(e && e.message).split('\n')[0];
    }
  }
  $('orders-text').addEventListener('input', () => { handEdited = true; checkText(); });
  $('regenerate').addEventListener('click', () => { handEdited = false; refresh(); });
  $('load-orders').addEventListener('change', (ev) => {
    const f = ev.target.files[0];
    if (!f) return;
    readFile(f, (text) => {
      // Orders sent before are replaced only by a higher revision.
      const sent = Number(S.field(text, 'revision'));
      if (Number.isInteger(sent) && sent >= revision()) $('revision').value = sent + 1;
      const back = typeof writer.read === 'function'
        ? safeRead(text)
        : { why: 'this ruleset\'s page reads no orders back onto the map' };
      if (back.drawn) {
        handEdited = false;
        change(() => { drawn = back.drawn; });
        status('Loaded your orders onto the map; signing gives them revision ' + revision() + '.', true);
      } else {
        handEdited = true;
        $('orders-text').value = text;
        document.querySelector('.sign details').open = true;
        checkText();
        status('Loaded the file as text, to edit below (' + back.why + '); signing gives it revision ' + revision() + '.', true);
      }
    });
  });
  // The orders read back onto the map, or why not (the file is then
  // offered as text).
  function safeRead(text) {
    try {
      const doc = globalThis.GalloperVendor.parseYaml(text);
      const back = writer.read(P, doc && doc.orders);
      return back ? { drawn: back } : { why: 'the page would not write these orders itself (a hand-written path or script, say)' };
    } catch (e) {
      return { why: 'it does not read as orders: ' + String(e && e.message).split('\n')[0] };
    }
  }

  document.addEventListener('keydown', (ev) => {
    if ((ev.ctrlKey || ev.metaKey) && ev.key === 'z' && history.length && document.activeElement !== $('orders-text')) {
      ev.preventDefault();
      drawn = JSON.parse(history.pop());
      refresh();
    }
  });
  $('undo').addEventListener('click', () => { if (history.length) { drawn = JSON.parse(history.pop()); refresh(); } });
  $('reset').addEventListener('click', () => change(() => { drawn = { units: {}, fields: {} }; }));

  // --- Start -------------------------------------------------------------------------

  $('fingerprint').textContent = P.head.fingerprint;
  $('revision').value = P.head.revision;
  $('head-line').textContent = P.head.heading + ': ' + P.head.note + ' (step ' + P.head.step + ', revision ' + P.head.revision + ')';
  const notes = $('notes');
  for (const n of P.plan.notes) {
    const li = document.createElement('li');
    li.textContent = n;
    notes.appendChild(li);
  }
  if (byHand) {
    handEdited = true;
    document.querySelector('.sign details').open = true;
  }
  sideFields();
  refresh();
  // The test (and a curious player) may drive the page through this.
  globalThis.GalloperPageApi = {
    drawn: () => JSON.parse(JSON.stringify(drawn)),
    revision,
    select,
    px: (p) => px(p),
  };
  document.body.dataset.ready = 'true';
})();
