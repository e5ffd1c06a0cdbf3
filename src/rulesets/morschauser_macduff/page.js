// The orders page's writer for morschauser-macduff (see site/orders/write.js
// and plan.rs beside this file): what the player drew becomes the `deploy:`
// or `turn:` block. A drawn move is a path straight to the drawn front
// centre, then a free pivot to the drawn facing (B.1); a charge goes to the
// drawn point (or straight at its target) without the pivot.
(function () {
  'use strict';
  const G = GalloperOrders;
  const { canon, tidy } = G;
  const SEQUENCES = ['move_then_shoot', 'shoot_then_move', 'move_only', 'shoot_only', 'melee_then_move', 'hold'];

  function yes(v) {
    return v === true || v === 'true' || v === 'yes' || v === 'on';
  }

  // A point field's value: {x, y}, or "x, y" as a form holds it.
  function pointOf(v) {
    if (v && typeof v === 'object' && Number.isFinite(Number(v.x)) && Number.isFinite(Number(v.y))) {
      return { x: G.round1(Number(v.x)), y: G.round1(Number(v.y)) };
    }
    if (typeof v !== 'string' || v.trim() === '') return null;
    const m = v.match(/-?\d+(?:\.\d+)?/g);
    if (!m || m.length !== 2) return null;
    return { x: G.round1(Number(m[0])), y: G.round1(Number(m[1])) };
  }

  function list(v) {
    if (Array.isArray(v)) return v.filter((x) => x !== '');
    if (typeof v !== 'string' || v === '') return [];
    return v.split(',').map((x) => x.trim()).filter((x) => x !== '');
  }

  function extra(page) {
    return page.plan.extra || {};
  }

  function fieldDefault(page, name) {
    const f = (page.plan.fields || []).find((x) => x.name === name);
    return f ? f.default : '';
  }

  // The side's fields that name a general, as `{general, ...}` entries.
  function generalEntries(page, drawn, deploy) {
    const out = [];
    for (const g of extra(page).generals || []) {
      const choice = G.value(drawn.fields, 'general:' + g.id, '');
      const spot = pointOf(G.value(drawn.fields, (deploy ? 'general_at:' : 'general_to:') + g.id, ''));
      if (choice.startsWith('attach:')) out.push({ general: g.id, attach: choice.slice(7) });
      else if (choice === 'detach' && !deploy) out.push({ general: g.id, detach: true });
      else if (spot) out.push(deploy ? { general: g.id, at: spot } : { general: g.id, to: spot });
    }
    return out;
  }

  // E.1: a regiment's hit order, only where the player changed it.
  function hitEntries(page, drawn) {
    const out = [];
    for (const f of page.plan.fields || []) {
      if (!f.name.startsWith('hits:')) continue;
      const now = list(G.value(drawn.fields, f.name, f.default));
      if (now.join(',') === list(f.default).join(',')) continue;
      out.push({ regiment: f.name.slice(5), first: now });
    }
    return out;
  }

  function drawnIds(page, drawn) {
    // A.5: in the order the player gave them (the order of `drawn.units`).
    return Object.keys(drawn.units || {}).filter((id) => G.unitPlan(page, id));
  }

  function deploy(page, drawn) {
    const block = { if_winner: G.value(drawn.fields, 'if_winner', fieldDefault(page, 'if_winner') || 'first') };
    const companies = [];
    for (const id of drawnIds(page, drawn)) {
      const d = drawn.units[id];
      if (!d.move) continue;
      const u = G.unitPlan(page, id);
      const entry = { company: id, at: { x: G.round1(d.move.x), y: G.round1(d.move.y) } };
      entry.facing = G.round1(d.move.facing == null ? u.facing : d.move.facing);
      companies.push(entry);
    }
    if (companies.length) block.companies = companies;
    const generals = generalEntries(page, drawn, true);
    if (generals.length) block.generals = generals;
    const hits = hitEntries(page, drawn);
    if (hits.length) block.hits = hits;
    return { deploy: block };
  }

  // What one company's drawn orders come to, before the sequence is chosen.
  function parts(page, id, d) {
    const u = G.unitPlan(page, id);
    const f = d.fields || {};
    const t = d.targets || {};
    const fire = t.fire || '';
    const charge = t.charge || '';
    const breach = G.value(f, 'breach', '');
    const demolish = G.value(f, 'demolish', '');
    const path = [];
    let moves = false;
    if (d.move) {
      const to = { x: G.round1(d.move.x), y: G.round1(d.move.y) };
      let heading = u.facing;
      if (G.distance(u.at, to) > 1e-9) {
        path.push({ to });
        heading = G.bearing(u.at, to);
        moves = true;
      }
      const facing = d.move.facing == null ? heading : d.move.facing;
      const pivot = G.round1(G.turn(heading, facing));
      if (!charge && Math.abs(pivot) >= 0.1) path.push({ pivot });
    }
    const heavy = (extra(page).heavy_guns || []).includes(id);
    return { u, f, fire, charge, breach, demolish, path, moves, heavy };
  }

  function sequenceOf(p) {
    const chosen = G.value(p.f, 'sequence', 'auto');
    if (SEQUENCES.includes(chosen)) return chosen;
    const moves = p.path.length > 0 || !!p.charge;
    const shoots = !!p.fire || (p.heavy && !!p.breach);
    if (moves && shoots) return 'move_then_shoot';
    if (moves) return 'move_only';
    if (shoots) return 'shoot_only';
    return 'hold';
  }

  function action(page, id, d) {
    const p = parts(page, id, d);
    const a = { company: id, sequence: sequenceOf(p) };
    if (p.path.length) a.path = p.path;
    const road = p.u.reach && p.u.reach.road != null;
    const far = d.move && p.u.reach && G.distance(p.u.at, d.move) > p.u.reach.full + 0.05;
    if (road && (yes(G.value(p.f, 'road', '')) || far)) a.road = true;
    if (p.fire) a.target = p.fire;
    if (p.charge) {
      a.charge = { target: p.charge, flank: yes(G.value(p.f, 'flank', '')), pursue: yes(G.value(p.f, 'pursue', '')) };
    }
    if (p.breach) a.breach = p.breach;
    if (p.demolish) a.demolish = p.demolish;
    const fallback = G.value(p.f, 'fallback', 'hold');
    if (fallback === 'nearest') a.fallback = 'nearest';
    return a;
  }

  function turnBlock(page, drawn) {
    const actions = [];
    for (const id of drawnIds(page, drawn)) {
      const d = drawn.units[id];
      const given = d.move || Object.keys(d.targets || {}).some((k) => d.targets[k]) ||
        Object.keys(d.fields || {}).length > 0;
      if (given) actions.push(action(page, id, d));
    }
    const block = { actions };
    const generals = generalEntries(page, drawn, false);
    if (generals.length) block.generals = generals;
    const hits = hitEntries(page, drawn);
    if (hits.length) block.hits = hits;
    const mines = list(G.value(drawn.fields, 'fire_mines', ''));
    if (mines.length) block.fire_mines = mines;
    return { turn: block };
  }

  function write(page, drawn) {
    return extra(page).phase === 'deploy' ? deploy(page, drawn) : turnBlock(page, drawn);
  }

  // What the shared checks do not see, in the words a refusal mail uses.
  function check(page, drawn) {
    const out = [];
    const x = extra(page);
    for (const id of drawnIds(page, drawn)) {
      const d = drawn.units[id];
      const u = G.unitPlan(page, id);
      const who = u.label + ' [' + id + ']';
      if (x.phase === 'deploy') {
        const z = x.zone;
        if (d.move && z && !(d.move.x >= z.min.x && d.move.x <= z.max.x && d.move.y >= z.min.y && d.move.y <= z.max.y)) {
          out.push({
            unit: id,
            message: who + ': (' + G.round1(d.move.x) + ', ' + G.round1(d.move.y) + ') is outside your zone x ' +
              z.min.x + ' to ' + z.max.x + ', y ' + z.min.y + ' to ' + z.max.y,
          });
        }
        continue;
      }
      const p = parts(page, id, d);
      const seq = sequenceOf(p);
      const moves = !['shoot_only', 'hold'].includes(seq);
      const shoots = ['move_then_shoot', 'shoot_then_move', 'shoot_only'].includes(seq);
      if (!moves && (p.path.length > 0 || p.charge)) {
        out.push({ unit: id, message: who + ': `' + seq + '` does not move: choose a sequence that moves, or drop the move' });
      }
      if (p.charge && seq === 'shoot_then_move') {
        out.push({ unit: id, message: who + ': a unit which shoots then moves may not charge: choose `move_then_shoot` or `move_only` to charge, or drop the charge' });
      }
      if (p.charge && d.move && d.move.facing != null && G.distance(u.at, d.move) > 0.05 &&
          Math.abs(G.turn(G.bearing(u.at, d.move), d.move.facing)) > 0.5) {
        out.push({ unit: id, warning: true, message: who + ': a charge ends facing the way it went: the drawn facing is not kept' });
      }
      if (p.fire && !shoots) {
        out.push({ unit: id, warning: true, message: who + ': `' + seq + '` does not shoot: the target is not fired at' });
      }
      if (p.heavy && p.breach) {
        if (p.fire) out.push({ unit: id, message: who + ': give the wall as `breach` and drop `target`: the breach is its shooting' });
        if (!shoots) out.push({ unit: id, message: who + ": a heavy gun's breach is its shooting: choose a sequence that shoots, not `" + seq + '`' });
      }
    }
    for (const g of x.generals || []) {
      const choice = G.value(drawn.fields, 'general:' + g.id, '');
      const spot = pointOf(G.value(drawn.fields, (x.phase === 'deploy' ? 'general_at:' : 'general_to:') + g.id, ''));
      if (x.phase === 'deploy' || !spot || choice) continue;
      const far = G.distance(g.at, spot);
      if (far > x.general_move + 1e-9) {
        out.push({ unit: g.id, message: 'General ' + g.name + ' would ride ' + G.round1(far) + ' in, but rides at most ' + x.general_move + ' in' });
      }
    }
    return out;
  }

  // --- Reading a file back ----------------------------------------------------
  //
  // The inverse of `write`: a path's end back to the drop point, facing
  // the way it went turned by its pivot (the whole degree the page drew
  // when that gives the same pivot); a pivot alone turns the company where
  // it stands; targets, charges, sequences and the side's fields as the
  // form's strings. Whatever `write` would not write the same from what
  // is read (a path with waypoints, another order of generals) gives null,
  // and the page offers the file as text.

  function spot(p) {
    return p.x + ', ' + p.y;
  }

  function readGenerals(drawn, entries, deploy) {
    for (const e of entries || []) {
      if (e.attach != null) drawn.fields['general:' + e.general] = 'attach:' + e.attach;
      else if (e.detach === true && !deploy) drawn.fields['general:' + e.general] = 'detach';
      else if (deploy && e.at) drawn.fields['general_at:' + e.general] = spot(e.at);
      else if (!deploy && e.to) drawn.fields['general_to:' + e.general] = spot(e.to);
      else return false;
    }
    return true;
  }

  function readHits(drawn, entries) {
    for (const h of entries || []) drawn.fields['hits:' + h.regiment] = (h.first || []).join(',');
  }

  // The facing a move to `to` (or a turn where it stands) ends with.
  function facingOf(u, to, pivot) {
    const heading = to && G.distance(u.at, to) > 1e-9 ? G.bearing(u.at, to) : u.facing;
    const f = ((heading + pivot) % 360 + 360) % 360;
    const whole = Math.round(f) % 360;
    return G.round1(G.turn(heading, whole)) === G.round1(G.turn(heading, f)) ? whole : f;
  }

  function readAction(page, drawn, a) {
    const u = G.unitPlan(page, a.company);
    if (!u) return false;
    const d = (drawn.units[a.company] = { move: null, formation: '', targets: {}, fields: {} });
    const path = a.path || [];
    const to = path.length && path[0].to ? path[0].to : null;
    const pivotAt = to ? 1 : 0;
    const pivot = path.length > pivotAt && path[pivotAt].pivot != null ? path[pivotAt].pivot : null;
    if (path.length > pivotAt + (pivot != null ? 1 : 0)) return false;
    if (to || pivot != null) {
      const end = to ? { x: to.x, y: to.y } : { x: u.at.x, y: u.at.y };
      d.move = { x: end.x, y: end.y, facing: facingOf(u, to, pivot || 0) };
    }
    if (a.target != null) d.targets.fire = String(a.target);
    if (a.charge) {
      d.targets.charge = String(a.charge.target);
      if (a.charge.flank === true) d.fields.flank = 'true';
      if (a.charge.pursue === true) d.fields.pursue = 'true';
    }
    if (a.breach != null) d.fields.breach = String(a.breach);
    if (a.demolish != null) d.fields.demolish = String(a.demolish);
    if (a.fallback === 'nearest') d.fields.fallback = 'nearest';
    const far = d.move && u.reach && G.distance(u.at, d.move) > u.reach.full + 0.05;
    if (a.road === true && !far) d.fields.road = 'true';
    const given = d.move || Object.keys(d.targets).length || Object.keys(d.fields).length;
    if (a.sequence !== sequenceOf(parts(page, a.company, d)) || !given) d.fields.sequence = String(a.sequence);
    return true;
  }

  function readBlock(page, orders) {
    const drawn = { units: {}, fields: {} };
    if (extra(page).phase === 'deploy') {
      const b = orders.deploy;
      if (!b || typeof b !== 'object') return null;
      drawn.fields.if_winner = b.if_winner;
      for (const c of b.companies || []) {
        if (!G.unitPlan(page, c.company) || !c.at) return null;
        drawn.units[c.company] = { move: { x: c.at.x, y: c.at.y, facing: c.facing }, formation: '', targets: {}, fields: {} };
      }
      if (!readGenerals(drawn, b.generals, true)) return null;
      readHits(drawn, b.hits);
      return drawn;
    }
    const b = orders.turn;
    if (!b || typeof b !== 'object') return null;
    for (const a of b.actions || []) if (!readAction(page, drawn, a)) return null;
    if (!readGenerals(drawn, b.generals, false)) return null;
    readHits(drawn, b.hits);
    if ((b.fire_mines || []).length) drawn.fields.fire_mines = b.fire_mines.join(',');
    return drawn;
  }



  function read(page, orders) {
    if (!orders || typeof orders !== 'object') return null;
    try {
      const drawn = readBlock(page, orders);
      // Only what `write` makes again, the same, is read onto the map.
      const same = (d) => canon(write(page, d)) === canon(orders);
      return drawn && same(drawn) ? tidy(page, drawn, same) : null;
    } catch (e) {
      return null;
    }
  }

  G.register('morschauser-macduff', { write, check, read });
})();
