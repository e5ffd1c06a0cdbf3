// The orders page's writer for crowther-dougan (issue 32): what the player
// drew becomes the `move:`, `reactions:` or `deploy:` block, as plan.rs
// laid the step out (`plan.extra.kind`). A classic script: it registers
// itself with GalloperOrders (site/orders/write.js) and knows no rules
// beyond what the plan carries.
//
// Facing: a unit ends facing the way it moves when that is within 90
// degrees of its front, else keeps its facing (the resolution's rule,
// movement.rs `travel`); turning about faces it the other way first. The
// writer turns a unit about when that brings it nearer the facing drawn,
// and says so when the facing drawn cannot be had.
(function () {
  'use strict';
  const G = GalloperOrders;
  const { canon, tidy } = G;

  function yes(v) {
    return v === true || v === 'true' || v === 'yes';
  }

  // A point field's value: {x, y}, or text holding two numbers ("62.5, 19").
  function point(v) {
    if (v && typeof v === 'object' && Number.isFinite(+v.x) && Number.isFinite(+v.y)) {
      return { x: G.round1(+v.x), y: G.round1(+v.y) };
    }
    if (typeof v === 'string') {
      const n = v.match(/-?\d+(?:\.\d+)?/g);
      if (n && n.length === 2) return { x: G.round1(+n[0]), y: G.round1(+n[1]) };
    }
    return null;
  }

  function whole(v) {
    const n = parseInt(v, 10);
    return Number.isFinite(n) && n > 0 ? n : 0;
  }

  function name(u) {
    return u.label + ' [' + u.id + ']';
  }

  function unitsDrawn(drawn) {
    return drawn.units || {};
  }

  function fieldsOf(d) {
    return (d && d.fields) || {};
  }

  // Where the move goes, as the file will say it (to 0.1 cm), or null.
  function dest(u, d) {
    if (!d.move || G.distance(u.at, d.move) <= 0.05) return null;
    return { x: G.round1(d.move.x), y: G.round1(d.move.y) };
  }

  // The facing a move to `to` leaves, turned about or not.
  function facingAfter(u, to, about) {
    const front = about ? (u.facing + 180) % 360 : u.facing;
    if (!to || G.distance(u.at, to) <= 0.1) return front;
    const way = G.bearing(u.at, to);
    return Math.abs(G.turn(front, way)) <= 90 ? way : front;
  }

  // Whether the unit turns about: ticked, or the facing drawn is nearer
  // what turning about leaves than what it leaves without.
  function about(u, d) {
    if (yes(G.value(fieldsOf(d), 'about', false))) return true;
    if (!d.move) return false;
    const to = dest(u, d);
    const want = d.move.facing;
    const plain = Math.abs(G.turn(facingAfter(u, to, false), want));
    const turned = Math.abs(G.turn(facingAfter(u, to, true), want));
    return turned + 0.5 < plain;
  }

  function formationOf(u, d) {
    return d.formation && d.formation !== u.formation ? d.formation : null;
  }

  function target(d, kind) {
    const t = d && d.targets ? d.targets[kind] : '';
    return t ? String(t) : '';
  }

  // --- move -----------------------------------------------------------------

  function writeMove(page, drawn) {
    const extra = page.plan.extra || {};
    const lists = { observe: [], charges: [], pledges: [], recall: [], fire: [], moves: [], personalities: [] };
    for (const u of page.plan.units) {
      const d = unitsDrawn(drawn)[u.id];
      if (!d) continue;
      const at = point(G.value(fieldsOf(d), 'observe', null));
      if (at) lists.observe.push({ unit: u.id, at: at });
      if (target(d, 'charge')) lists.charges.push({ unit: u.id, target: target(d, 'charge') });
      if (target(d, 'fire')) lists.fire.push({ unit: u.id, target: target(d, 'fire') });
      if (!u.reach) continue;
      const m = { unit: u.id };
      const to = dest(u, d);
      if (to) m.to = to;
      const f = formationOf(u, d);
      if (f) m.formation = f;
      if (about(u, d)) m.about = true;
      if (Object.keys(m).length > 1) lists.moves.push(m);
    }
    const persons = extra.persons || {};
    const side = drawn.fields || {};
    for (const p of Object.keys(persons)) {
      const points = whole(G.value(side, 'pledge:' + p, '0'));
      if (points > 0) lists.pledges.push({ personality: p, unit: persons[p], points: points });
      if (yes(G.value(side, 'recall:' + p, false))) lists.recall.push({ personality: p, unit: persons[p] });
    }
    for (const p of Object.keys(side)) {
      if (p.startsWith('join:') && side[p]) lists.personalities.push({ personality: p.slice(5), unit: String(side[p]) });
    }
    const out = {};
    for (const k of Object.keys(lists)) if (lists[k].length) out[k] = lists[k];
    return { move: out };
  }

  function checkMove(page, drawn) {
    const budgets = (page.plan.extra || {}).budgets || {};
    const out = [];
    for (const u of page.plan.units) {
      const d = unitsDrawn(drawn)[u.id];
      if (!d) continue;
      const observes = !!point(G.value(fieldsOf(d), 'observe', null));
      for (const kind of ['charge', 'fire']) {
        if (target(d, kind) === 'found' && !observes) {
          out.push({ unit: u.id, message: '`target: found` names what ' + u.id + ' finds by its own observation this move: give it an `observe:` entry too' });
        }
      }
      if (!u.reach) continue;
      const to = dest(u, d);
      if (target(d, 'charge') && (to || formationOf(u, d) || about(u, d))) {
        out.push({
          unit: u.id,
          warning: true,
          message: name(u) + ' charges: if the charge goes in, it makes its initial charge move toward its target and the ordered move is dropped (Charge procedure)',
        });
      }
      const turned = about(u, d);
      const f = formationOf(u, d) || u.formation;
      const left = (budgets[u.id] || {})[f];
      if (to && left) {
        const budget = left[turned ? 1 : 0];
        const dist = G.distance(u.at, to);
        const why = [];
        if (f !== u.formation) why.push('forming ' + f);
        if (turned) why.push('turning about');
        if (why.length && dist > budget + 0.05) {
          out.push({
            unit: u.id,
            message: name(u) + ' moves ' + G.round1(dist) + ' ' + page.head.measure + ', more than the ' + G.round1(budget) + ' ' +
              page.head.measure + ' its move leaves after ' + why.join(' and ') + ': it stops short',
          });
        }
      }
      if (d.move) {
        const ends = facingAfter(u, to, turned);
        if (Math.abs(G.turn(ends, d.move.facing)) > 1) {
          out.push({
            unit: u.id,
            warning: true,
            message: name(u) + ' ends facing ' + Math.round(ends) + ', not ' + Math.round(d.move.facing) +
              ': a unit faces the way it moves when that is within 90 degrees of its front, else keeps its facing; turning about faces it the other way',
          });
        }
      }
    }
    return out;
  }

  // --- reactions --------------------------------------------------------------

  function writeReactions(page, drawn) {
    const persons = (page.plan.extra || {}).persons || {};
    const side = drawn.fields || {};
    const pledges = [];
    for (const p of Object.keys(persons)) {
      const field = page.plan.fields.find((f) => f.name === 'pledge:' + p);
      const points = whole(G.value(side, 'pledge:' + p, field ? field.default : '0'));
      if (points > 0) pledges.push({ personality: p, unit: persons[p], points: points });
    }
    return { reactions: pledges.length ? { pledges: pledges } : {} };
  }

  // --- deploy -----------------------------------------------------------------

  function writeDeploy(page, drawn) {
    const units = [];
    for (const u of page.plan.units) {
      const d = unitsDrawn(drawn)[u.id];
      if (!d) continue;
      const f = formationOf(u, d);
      if (!d.move && !f) continue;
      const at = d.move ? { x: G.round1(d.move.x), y: G.round1(d.move.y) } : { x: u.at.x, y: u.at.y };
      const p = { unit: u.id, at: at };
      if (d.move) p.facing = G.round1(((d.move.facing % 360) + 360) % 360);
      if (f) p.formation = f;
      units.push(p);
    }
    return { deploy: units.length ? { units: units } : {} };
  }

  // Whether `p` lies inside the polygon `pts` (even-odd rule).
  function inside(p, pts) {
    let odd = false;
    for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
      const a = pts[i];
      const b = pts[j];
      if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) odd = !odd;
    }
    return odd;
  }

  function checkDeploy(page, drawn) {
    const zones = (page.plan.extra || {}).zones || {};
    const out = [];
    for (const u of page.plan.units) {
      const d = unitsDrawn(drawn)[u.id];
      if (!d || !d.move) continue;
      const its = zones[u.id] || [];
      const p = { x: G.round1(d.move.x), y: G.round1(d.move.y) };
      if (!its.some((z) => inside(p, z.points))) {
        out.push({
          unit: u.id,
          message: '(' + p.x.toFixed(1) + ', ' + p.y.toFixed(1) + ') is in none of ' + u.id + "'s zones (" + its.map((z) => z.id).join(', ') + ')',
        });
      }
    }
    return out;
  }

  // --- reading a file back -------------------------------------------------------
  //
  // The inverse of the writers above: a move back to its drop point,
  // facing as a drag leaves it (the unit's own facing) or as the move
  // does, turned about when the file says so; a
  // placement to its point and facing; targets, observations, pledges,
  // recalls and joins as the form's strings. What the writer would not
  // write the same (a hand-written entry, another order of units) gives
  // null: the page then offers the file as text.

  function readMove(page, block) {
    const drawn = { units: {}, fields: {} };
    const unit = (id) => (drawn.units[id] = drawn.units[id] || { move: null, formation: '', targets: {}, fields: {} });
    for (const o of block.observe || []) unit(o.unit).fields.observe = o.at.x + ', ' + o.at.y;
    for (const c of block.charges || []) unit(c.unit).targets.charge = String(c.target);
    for (const f of block.fire || []) unit(f.unit).targets.fire = String(f.target);
    for (const m of block.moves || []) {
      const u = G.unitPlan(page, m.unit);
      if (!u) return null;
      const d = unit(m.unit);
      if (m.formation) d.formation = m.formation;
      const turned = m.about === true;
      if (m.to || turned) {
        const to = m.to ? { x: m.to.x, y: m.to.y } : { x: u.at.x, y: u.at.y };
        // A drag keeps the unit's facing; else the facing the move
        // leaves, in whole degrees as the ring turns it, or exactly.
        const after = facingAfter(u, m.to ? to : null, turned);
        for (const facing of [u.facing, Math.round(after) % 360, after]) {
          d.move = { x: to.x, y: to.y, facing: facing };
          if (about(u, d) === turned) break;
        }
        // Where the facing alone does not say it, the box says it.
        if (about(u, d) !== turned) d.fields.about = String(turned);
      }
    }
    for (const p of block.pledges || []) drawn.fields['pledge:' + p.personality] = String(p.points);
    for (const r of block.recall || []) drawn.fields['recall:' + r.personality] = 'true';
    for (const j of block.personalities || []) drawn.fields['join:' + j.personality] = String(j.unit);
    return drawn;
  }

  function readReactions(page, block) {
    const drawn = { units: {}, fields: {} };
    const persons = (page.plan.extra || {}).persons || {};
    for (const p of Object.keys(persons)) drawn.fields['pledge:' + p] = '0';
    for (const p of block.pledges || []) drawn.fields['pledge:' + p.personality] = String(p.points);
    return drawn;
  }

  function readDeploy(page, block) {
    const drawn = { units: {}, fields: {} };
    for (const p of block.units || []) {
      const u = G.unitPlan(page, p.unit);
      if (!u || !p.at) return null;
      const d = (drawn.units[p.unit] = { move: null, formation: p.formation || '', targets: {}, fields: {} });
      if (p.facing != null) d.move = { x: p.at.x, y: p.at.y, facing: p.facing };
    }
    return drawn;
  }


  // Whether the writer makes the same block again from `drawn`.
  function rewrites(page, drawn, orders) {
    try {
      return canon(G.writerFor(page).write(page, drawn)) === canon(orders);
    } catch (e) {
      return false;
    }
  }


  function read(page, orders) {
    if (!orders || typeof orders !== 'object') return null;
    const k = kind(page);
    const block = orders[k];
    if (!block || typeof block !== 'object' || Array.isArray(block)) return null;
    let drawn = null;
    try {
      if (k === 'deploy') drawn = readDeploy(page, block);
      else if (k === 'reactions') drawn = readReactions(page, block);
      else drawn = readMove(page, block);
    } catch (e) {
      return null;
    }
    const same = (d) => rewrites(page, d, orders);
    return drawn && same(drawn) ? tidy(page, drawn, same) : null;
  }

  // --- the writer ---------------------------------------------------------------

  function kind(page) {
    return (page.plan.extra || {}).kind || 'move';
  }

  G.register('crowther-dougan', {
    write(page, drawn) {
      const k = kind(page);
      if (k === 'deploy') return writeDeploy(page, drawn);
      if (k === 'reactions') return writeReactions(page, drawn);
      return writeMove(page, drawn);
    },
    check(page, drawn) {
      const k = kind(page);
      if (k === 'deploy') return checkDeploy(page, drawn);
      if (k === 'reactions') return [];
      return checkMove(page, drawn);
    },
    read: read,
  });
})();
