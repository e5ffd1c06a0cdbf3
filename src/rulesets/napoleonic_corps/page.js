// The napoleonic-corps writer of the orders page (src/rulesets/napoleonic_corps/plan.rs
// says what it is given): a drawn move is a `moves` entry to the centre of
// the unit's front edge, with its facing when it turns and its formation
// when one is picked; a target is a charge or an advancing fire entry.
(function () {
  'use strict';

GalloperOrders.register('napoleonic-corps', {
  write(page, drawn) {
    const O = GalloperOrders;
    const units = drawn.units || {};
    if (page.plan.extra && page.plan.extra.phase === 'setup') {
      const formations = [];
      for (const u of page.plan.units) {
        const d = units[u.id];
        if (d && d.formation) formations.push({ unit: u.id, formation: d.formation });
      }
      return { deploy: { formations } };
    }
    const moves = [];
    const charges = [];
    const fire = [];
    for (const u of page.plan.units) {
      const d = units[u.id];
      if (!d) continue;
      const m = {};
      if (d.move && O.distance(u.at, d.move) >= 0.05) m.to = { x: d.move.x, y: d.move.y };
      if (d.move && Math.abs(O.turn(u.facing, d.move.facing)) >= 0.5) m.facing = Math.round(d.move.facing);
      if (d.formation) m.formation = d.formation;
      // Farther than the move off road reaches: the player means a road
      // move (the server checks the road is kept every leg).
      if (m.to && u.reach && u.reach.road != null) {
        const limit = O.turns(u, d) && u.reach.turned != null ? u.reach.turned : u.reach.full;
        if (O.distance(u.at, d.move) > limit + 0.05) m.road = true;
      }
      if (Object.keys(m).length) moves.push(Object.assign({ unit: u.id }, m));
      const t = d.targets || {};
      if (t.charge) charges.push({ unit: u.id, target: t.charge });
      if (t.fire) fire.push({ unit: u.id, target: t.fire });
    }
    const passes = String(O.value(drawn.fields, 'passes', '')).split(',').filter(Boolean);
    return { turn: { passes, moves, charges, fire } };
  },
  check(page, drawn) {
    const out = [];
    for (const u of page.plan.units) {
      const d = (drawn.units || {})[u.id];
      if (!d || !d.targets) continue;
      if (d.targets.charge && d.move && GalloperOrders.distance(u.at, d.move) >= 0.05) {
        out.push({ unit: u.id, message: u.label + ' [' + u.id + '] both moves and charges: a charge goes straight ahead from where it stands, so give it one or the other' });
      }
    }
    return out;
  },
  read(page, orders) {
    const drawn = { units: {}, fields: {} };
    const turn = (orders && orders.turn) || {};
    const unit = (id) => (drawn.units[id] = drawn.units[id] || { move: null, formation: '', targets: {}, fields: {} });
    for (const m of turn.moves || []) {
      const u = GalloperOrders.unitPlan(page, m.unit);
      if (!u) continue;
      const d = unit(m.unit);
      if (m.to || m.facing != null) {
        d.move = { x: m.to ? m.to.x : u.at.x, y: m.to ? m.to.y : u.at.y, facing: m.facing != null ? m.facing : u.facing };
      }
      if (m.formation) d.formation = m.formation;
    }
    for (const c of turn.charges || []) unit(c.unit).targets.charge = c.target;
    for (const f of turn.fire || []) unit(f.unit).targets.fire = f.target;
    if ((turn.passes || []).length) drawn.fields.passes = turn.passes.join(',');
    // Only what the page itself would write comes back onto the map: a
    // file with waypoints, generals or combined batteries is offered as
    // text, so that nothing in it is silently dropped.
    return same(GalloperOrders.writerFor(page).write(page, drawn), orders) ? drawn : null;
  },
});

// Two `orders:` blocks alike, as `GalloperOrders.canon` compares them,
// whether an empty list is written or left out.
function same(a, b) {
  const bare = (v) => {
    if (Array.isArray(v)) return v.map(bare);
    if (v && typeof v === 'object') {
      const out = {};
      for (const k of Object.keys(v)) {
        const x = bare(v[k]);
        if (x === null || x === undefined || (Array.isArray(x) && x.length === 0)) continue;
        out[k] = x;
      }
      return out;
    }
    return v;
  };
  return GalloperOrders.canon(bare(a)) === GalloperOrders.canon(bare(b));
}
})();
