// The Maurice Lite writer of the orders page (issue 32): what the player
// drew becomes the `orders:` block (src/rulesets/maurice_lite/orders.rs).
// The plan (plan.rs) gives each unit's frame in `plan.extra.units`.
//
// A drawn move is the unit's front centre and facing at the end of a
// March. A line or massed unit gets `forward`, a `wheel`, `forward`, or a
// wheel, `forward` and a wheel the other way (or the same backward),
// solved so that it ends on the point, facing the drawn way, the shortest
// within its allowance. A column or gun gets a `path`
// whose last leg lies along the drawn facing (its head faces along its
// last leg). A column may first form line or massed, then move as one.
(function () {
  'use strict';
  const G = GalloperOrders;
  const { canon, tidy } = G;
  const TENTH = 0.05;

  function r1(v) {
    return Math.round(v * 10) / 10;
  }
  function ahead(f) {
    const r = (f * Math.PI) / 180;
    return { x: Math.sin(r), y: Math.cos(r) };
  }
  function rightOf(f) {
    const r = (f * Math.PI) / 180;
    return { x: Math.cos(r), y: -Math.sin(r) };
  }
  // `v` turned clockwise (facing grows) by `deg`.
  function rot(v, deg) {
    const a = (deg * Math.PI) / 180;
    const c = Math.cos(a);
    const s = Math.sin(a);
    return { x: v.x * c + v.y * s, y: -v.x * s + v.y * c };
  }
  function dot(a, b) {
    return a.x * b.x + a.y * b.y;
  }

  function list(v) {
    if (Array.isArray(v)) return v.filter((x) => x !== '');
    if (v === undefined || v === null || v === '') return [];
    return String(v).split(',').map((x) => x.trim()).filter((x) => x !== '');
  }
  function yes(v) {
    return v === true || v === 'true';
  }
  function point(v) {
    if (v && typeof v === 'object' && Number.isFinite(v.x) && Number.isFinite(v.y)) return { x: v.x, y: v.y };
    const p = list(v).map(Number);
    if (p.length === 2 && p.every(Number.isFinite)) return { x: p[0], y: p[1] };
    return null;
  }

  // --- A line or massed unit: forward, wheel, forward (or all backward) ----

  // Where the front centre goes when the unit at `at` facing `f` (frame
  // `w` by `d`) wheels by `theta` degrees (clockwise when positive).
  function wheelShift(at, f, w, d, theta, backward) {
    // Forward, the corner on the side of the turn stays put; backward, the
    // corner on the other side (orders.rs, Wheel).
    const side = (theta > 0) !== backward ? 1 : -1;
    const rt = rightOf(f);
    const fw = ahead(f);
    const rear = backward ? d : 0;
    const pivot = { x: at.x + (rt.x * side * w) / 2 - fw.x * rear, y: at.y + (rt.y * side * w) / 2 - fw.y * rear };
    const v = rot({ x: at.x - pivot.x, y: at.y - pivot.y }, theta);
    return { x: pivot.x + v.x - at.x, y: pivot.y + v.y - at.y, pivot: side > 0 ? 'right' : 'left' };
  }

  // The unit at `p` ({x, y, facing}) after a wheel of `theta` degrees.
  function wheeled(p, frame, theta, backward) {
    const sh = wheelShift(p, p.facing, frame.width, frame.depth, theta, backward);
    return { x: p.x + sh.x, y: p.y + sh.y, facing: p.facing + theta, pivot: sh.pivot };
  }

  function wheelStep(pivot, theta, backward) {
    const w = { pivot: pivot, degrees: r1(Math.abs(theta)) };
    if (backward) w.backward = true;
    return { wheel: w };
  }

  function arc(frame, degrees) {
    return (frame.width * Math.abs(degrees) * Math.PI) / 180;
  }

  // Straight, one wheel of the whole turn, straight: the two distances
  // solved from the point; null when one would be negative.
  function oneWheel(from, frame, to, theta, backward) {
    const uf = ahead(from.facing);
    const uF = ahead(from.facing + theta);
    const sign = backward ? -1 : 1;
    const sh = theta ? wheelShift(from, from.facing, frame.width, frame.depth, theta, backward) : { x: 0, y: 0 };
    const R = { x: sign * (to.x - from.x - sh.x), y: sign * (to.y - from.y - sh.y) };
    let d1;
    const det = uf.x * uF.y - uf.y * uF.x;
    if (theta === 0 || Math.abs(det) < 1e-6) d1 = theta === 0 ? dot(R, uf) : 0;
    else d1 = (R.x * uF.y - R.y * uF.x) / det;
    if (d1 < -TENTH) return null;
    d1 = r1(Math.max(0, d1));
    const rest = { x: R.x - d1 * uf.x, y: R.y - d1 * uf.y };
    let d2 = theta === 0 ? 0 : dot(rest, uF);
    if (d2 < -TENTH) return null;
    d2 = r1(Math.max(0, d2));
    if (Math.hypot(rest.x - d2 * uF.x, rest.y - d2 * uF.y) > 0.1) return null;
    const straight = backward ? 'back' : 'forward';
    const steps = [];
    if (d1 > 0) steps.push({ [straight]: d1 });
    if (theta) steps.push(wheelStep(sh.pivot, theta, backward));
    if (d2 > 0) steps.push({ [straight]: d2 });
    return { steps: steps, used: d1 + d2 + arc(frame, theta), backward: backward };
  }

  // A wheel one way, straight, a wheel the other way (turning `theta` in
  // all): for a point the unit's own wheel would carry it past, or a
  // sideways step. The first wheel is found by bisection on how far the
  // end misses the point sideways.
  function twoWheels(from, frame, to, theta, backward) {
    const sign = backward ? -1 : 1;
    const at = (alpha) => {
      const p1 = Math.abs(alpha) < 1e-9 ? { x: from.x, y: from.y, facing: from.facing } : wheeled(from, frame, alpha, backward);
      const beta = theta - alpha;
      const w2 = Math.abs(beta) < 1e-9 ? { x: 0, y: 0 } : wheelShift(p1, p1.facing, frame.width, frame.depth, beta, backward);
      const u1 = ahead(p1.facing);
      const R = { x: to.x - p1.x - w2.x, y: to.y - p1.y - w2.y };
      return { p1: p1, w2: w2, u1: u1, beta: beta, b: sign * dot(R, u1), side: u1.x * R.y - u1.y * R.x, R: R };
    };
    let best = null;
    const lo = Math.max(-180, theta - 180);
    const hi = Math.min(180, theta + 180);
    let prev = null;
    for (let a = lo; a <= hi + 1e-9; a += 1) {
      const cur = { a: a, s: at(a).side };
      if (prev && (prev.s === 0 || prev.s * cur.s < 0)) {
        let [x0, x1, s0] = [prev.a, cur.a, prev.s];
        for (let i = 0; i < 50; i++) {
          const mid = (x0 + x1) / 2;
          const sm = at(mid).side;
          if (s0 * sm <= 0) x1 = mid;
          else [x0, s0] = [mid, sm];
        }
        const alpha = r1((x0 + x1) / 2);
        const beta = r1(theta - alpha);
        if (Math.abs(alpha) < TENTH || Math.abs(beta) < TENTH || Math.abs(alpha) > 180 || Math.abs(beta) > 180) {
          prev = cur;
          continue;
        }
        const c = at(alpha);
        if (c.b >= -TENTH) {
          const b = r1(Math.max(0, c.b));
          const miss = Math.hypot(c.R.x - sign * b * c.u1.x, c.R.y - sign * b * c.u1.y);
          const used = b + arc(frame, alpha) + arc(frame, beta);
          if (miss <= 0.1 && (!best || used < best.used)) {
            const steps = [wheelStep(c.p1.pivot, alpha, backward)];
            if (b > 0) steps.push({ [backward ? 'back' : 'forward']: b });
            steps.push(wheelStep(c.w2.pivot, beta, backward));
            best = { steps: steps, used: used, backward: backward };
          }
        }
      }
      prev = cur;
    }
    return best;
  }

  // Steps taking a line from `from` ({x, y, facing}) to `to`: of the ways
  // that reach it, the shortest within its allowance (forward `full`, back
  // `back`), else the shortest; null when none reaches it.
  function wheelSteps(from, frame, to, full, back) {
    let theta = r1(G.turn(from.facing, to.facing));
    if (Math.abs(theta) < TENTH) theta = 0;
    const ways = [];
    for (const backward of [false, true]) {
      for (const way of [oneWheel, twoWheels]) {
        const w = way(from, frame, to, theta, backward);
        if (w) {
          w.limit = backward ? back : full;
          ways.push(w);
        }
      }
    }
    if (!ways.length) return null;
    const within = ways.filter((w) => w.used <= w.limit + TENTH);
    const pool = within.length ? within : ways;
    return pool.reduce((a, b) => (b.used < a.used - 1e-9 ? b : a));
  }

  // --- A column or gun: a path whose last leg sets the facing --------------

  function pathSteps(from, baseDepth, to) {
    const end = { x: r1(to.x), y: r1(to.y) };
    const straight = G.distance(from, end);
    if (straight >= baseDepth && Math.abs(G.turn(G.bearing(from, end), to.facing)) <= 0.1) {
      return { steps: [{ path: [end] }], used: straight };
    }
    // A waypoint on the tenth's grid behind the end, far enough for the
    // head base to lie on the last leg: the shortest way within a tenth of
    // a degree of the facing, or else the nearest facing.
    let best = null;
    const reach = Math.ceil((baseDepth + 3) * 10);
    const ex = Math.round(end.x * 10);
    const ey = Math.round(end.y * 10);
    for (let i = -reach; i <= reach; i++) {
      for (let j = -reach; j <= reach; j++) {
        const p = { x: (ex + i) / 10, y: (ey + j) / 10 };
        const k = G.distance(p, end);
        if (k < baseDepth + 0.01 || k > baseDepth + 3) continue;
        const err = Math.abs(G.turn(G.bearing(p, end), to.facing));
        const used = G.distance(from, p) + k;
        const score = err <= 0.1 ? used : 1e6 + err;
        if (!best || score < best.score) best = { score: score, p: p, used: used };
      }
    }
    return { steps: [{ path: [best.p, end] }], used: best.used };
  }

  // --- One unit's March entry -----------------------------------------------

  function frameOf(page, id) {
    return ((page.plan.extra || {}).units || {})[id] || {};
  }

  // { steps, used, limit } or { error } for a unit's drawn orders; null
  // when it has none to march.
  function march(page, u, d) {
    const fr = frameOf(page, u.id);
    const about = yes(G.value(d.fields, 'about_face', false));
    const formation = d.formation && d.formation !== u.formation ? d.formation : '';
    const moved = d.move && (G.distance(u.at, d.move) > TENTH || Math.abs(G.turn(u.facing, d.move.facing)) > TENTH);
    if (!moved && !formation && !about) return null;
    const who = u.label + ' [' + u.id + ']';
    let steps = [];
    let from = { x: u.at.x, y: u.at.y, facing: u.facing };
    let frame = { width: fr.width, depth: fr.depth };
    let kind = fr.kind;
    if (formation) {
      if (u.formation !== 'column') {
        if (moved) {
          return { error: who + ' changes formation from ' + u.formation + ': that ends its move, so it may not also move' };
        }
        const fc = { to: formation };
        if (formation === 'column') fc.turn = d.move && G.turn(u.facing, d.move.facing) < 0 ? 'left' : 'right';
        return { steps: [{ formation: fc }], used: 0, limit: 0 };
      }
      const after = fr.after || {};
      let key = formation;
      if (formation === 'line') {
        const want = d.move ? d.move.facing : u.facing + 90;
        const off = (k) => (after[k] ? Math.abs(G.turn(after[k].facing, want)) : 999);
        key = off('line_left') < off('line_right') ? 'line_left' : 'line_right';
      }
      const a = after[key];
      if (!a) return { error: who + ' may not form ' + formation + ' where it stands' };
      steps.push({ formation: key === 'line_left' ? { to: 'line', turn: 'left' } : key === 'line_right' ? { to: 'line', turn: 'right' } : { to: formation } });
      from = { x: a.x, y: a.y, facing: a.facing };
      frame = { width: a.width, depth: a.depth };
      kind = 'wheel';
    }
    if (about) {
      steps.push('about_face');
      const fw = ahead(from.facing);
      from = { x: from.x - fw.x * frame.depth, y: from.y - fw.y * frame.depth, facing: (from.facing + 180) % 360 };
    }
    const limit = u.reach ? u.reach.full : 0;
    if (!d.move) return { steps: steps, used: 0, limit: limit };
    const to = { x: d.move.x, y: d.move.y, facing: d.move.facing };
    if (G.distance(from, to) <= TENTH && Math.abs(G.turn(from.facing, to.facing)) <= TENTH) {
      return { steps: steps, used: 0, limit: limit };
    }
    if (kind === 'path') {
      const p = pathSteps(from, fr.base_depth, to);
      return { steps: steps.concat(p.steps), used: p.used, limit: limit };
    }
    const w = wheelSteps(from, frame, to, limit, fr.back);
    if (!w) {
      return {
        error: who + ' cannot reach that point facing that way: a line or massed unit goes straight and wheels, all forward or all backward',
      };
    }
    return { steps: steps.concat(w.steps), used: w.used, limit: w.limit, backward: w.backward };
  }

  // A side-level field's value: as drawn, else the plan's default (the
  // page keeps only the fields the player changed).
  function field(page, drawn, name) {
    const f = (page.plan.fields || []).find((x) => x.name === name);
    return G.value(drawn.fields, name, f ? f.default : '');
  }

  function drawnOf(drawn, id) {
    return (drawn.units || {})[id] || {};
  }

  function step(page) {
    return (page.plan.extra || {}).step;
  }

  // The March entries, charges and force of the drawn orders.
  function activation(page, drawn) {
    const moves = [];
    const charges = [];
    const force = [];
    const extraForce = list(field(page, drawn, 'force'));
    for (const u of page.plan.units) {
      const d = drawnOf(drawn, u.id);
      const target = (d.targets || {}).charge;
      const m = target ? null : march(page, u, d);
      if (target) charges.push({ unit: u.id, target: target });
      if (m && !m.error && m.steps.length) moves.push({ unit: u.id, steps: m.steps });
      if (target || (m && !m.error && m.steps.length) || extraForce.includes(u.id)) force.push(u.id);
    }
    const cards = list(field(page, drawn, 'cards'));
    const a = { force: force, cards: cards.length ? cards : 'fewest' };
    if (moves.length) a.moves = moves;
    if (charges.length) a.charges = charges;
    return a;
  }

  function commandOf(page, drawn) {
    const cmd = String(field(page, drawn, 'command') || 'auto');
    if (cmd !== 'auto') return cmd;
    const a = activation(page, drawn);
    if (a.charges) return 'charge';
    if (a.moves) return 'march';
    return 'pass';
  }

  function round(page, drawn) {
    const out = {};
    const volleys = list(field(page, drawn, 'volleys'));
    out.volleys = volleys.length ? volleys : false;
    const cmd = commandOf(page, drawn);
    if (cmd.startsWith('event:')) out.command = { event: cmd.slice(6) };
    else if (cmd === 'pass') out.command = 'pass';
    else {
      const a = yes(field(page, drawn, 'consult')) ? { consult: true } : activation(page, drawn);
      if (cmd !== 'march' && cmd !== 'charge') delete a.moves;
      if (cmd !== 'charge') delete a.charges;
      out.command = { [cmd]: a };
    }
    const modify = list(field(page, drawn, 'modify'));
    if (modify.length) out.modify = modify;
    const cinc = point(field(page, drawn, 'cinc'));
    if (cinc) {
      out.cinc = { to: cinc };
      const discard = field(page, drawn, 'cinc_discard');
      if (discard) out.cinc.discard = discard;
    }
    return { round: out };
  }

  function decide(page, drawn) {
    const a = activation(page, drawn);
    if ((page.plan.extra || {}).action !== 'march' && (page.plan.extra || {}).action !== 'charge') delete a.moves;
    return { decide: a };
  }

  function reactions(page, drawn) {
    const x = page.plan.extra || {};
    const out = {};
    const fire = field(page, drawn, 'return_fire');
    out.return_fire = fire === 'listed' ? x.listed : fire === 'none' ? 'none' : 'all';
    if (x.fire_order && x.fire_order !== 'left_to_right') out.fire_order = x.fire_order;
    if ((x.aims || []).length) out.aims = x.aims;
    out.interrupts = [];
    out.modifiers = [];
    for (const v of list(field(page, drawn, 'plays'))) {
      const p = (x.plays || {})[v];
      if (p) out[p.key].push(clean(p.play));
    }
    return { reactions: out };
  }

  // A play without the fields it leaves out.
  function clean(p) {
    const o = {};
    for (const k of Object.keys(p)) if (p[k] !== null && p[k] !== undefined) o[k] = p[k];
    return o;
  }

  function deploy(page, drawn) {
    const units = page.plan.units.map((u) => {
      const d = drawnOf(drawn, u.id);
      const at = d.move ? { x: d.move.x, y: d.move.y } : u.at;
      const facing = d.move ? d.move.facing : u.facing;
      return { unit: u.id, at: at, facing: r1(facing), formation: d.formation || u.formation };
    });
    const cinc = point(field(page, drawn, 'cinc'));
    return { deploy: { cinc: cinc, units: units } };
  }

  function write(page, drawn) {
    drawn = drawn || {};
    switch (step(page)) {
      case 'deploy':
        return deploy(page, drawn);
      case 'decide':
        return decide(page, drawn);
      case 'reactions':
        return reactions(page, drawn);
      default:
        return round(page, drawn);
    }
  }

  function check(page, drawn) {
    drawn = drawn || {};
    const out = [];
    const s = step(page);
    if (s !== 'round' && s !== 'decide') return out;
    const cmd = s === 'round' ? commandOf(page, drawn) : (page.plan.extra || {}).action;
    const consult = s === 'round' && yes(field(page, drawn, 'consult'));
    const m = page.head.measure || 'BW';
    for (const u of page.plan.units) {
      const d = drawnOf(drawn, u.id);
      const who = u.label + ' [' + u.id + ']';
      const target = (d.targets || {}).charge;
      if (target && d.move) {
        out.push({ unit: u.id, message: who + ' charges: the charge moves it, so give it a target or a move, not both' });
        continue;
      }
      if (target && cmd !== 'charge') {
        out.push({ unit: u.id, message: who + ' is given a target, but the command is not a Charge' });
      }
      if (target) continue;
      const mv = march(page, u, d);
      if (!mv) continue;
      if (mv.error) {
        out.push({ unit: u.id, message: mv.error });
        continue;
      }
      if (cmd !== 'march' && cmd !== 'charge') {
        out.push({ unit: u.id, message: who + ' is given a move, but only a March or the supporting units of a Charge move' });
        continue;
      }
      if (consult) {
        out.push({ unit: u.id, warning: true, message: who + ': with consult, moves are asked after the draw and this one is not sent' });
      }
      if (mv.used > mv.limit + TENTH) {
        const why = mv.backward ? ', halved for retrograde' : '';
        out.push({
          unit: u.id,
          message: who + ' would move ' + r1(mv.used) + ' ' + m + ' (wheels included); its allowance is ' + r1(mv.limit) + ' ' + m + why,
        });
      }
    }
    return out;
  }

  // --- Reading a file back ----------------------------------------------------
  //
  // The inverse of `write`. A March's steps are played forward from where
  // the unit stands (its change of formation and about-face as `march`
  // makes them, then each straight step, wheel or path) to the front
  // centre and facing it was dropped at; of the points and facings that
  // give the same steps, the one on the page's grid (0.1 BW, whole
  // degrees) is taken. Charges, the force, cards, commands and the side's
  // choices come back as the form's strings, standing reactions as the
  // plays they name. Whatever `write` would not write the same from what
  // is read (steps the page never writes, a path of waypoints, a fire
  // plan by hand) gives null, and the page offers the file as text.

  function blank() {
    return { move: null, formation: '', targets: {}, fields: {} };
  }

  function spot(p) {
    return p.x + ', ' + p.y;
  }

  function joined(v) {
    return Array.isArray(v) ? v.join(',') : '';
  }

  // A wheel's signed turn (clockwise positive) from its pivot.
  function wheelTurn(w) {
    const side = w.pivot === 'right' ? 1 : -1;
    const backward = w.backward === true;
    return Number(w.degrees) * ((side > 0) !== backward ? 1 : -1);
  }

  // Where `steps` take a unit at `from` ({x, y, facing}) with `frame`:
  // its front centre and facing, or null for a step the writer never
  // writes.
  function play(from, frame, steps) {
    let p = { x: from.x, y: from.y, facing: from.facing };
    for (const st of steps) {
      if (!st || typeof st !== 'object') return null;
      if (st.forward != null || st.back != null) {
        const n = st.forward != null ? Number(st.forward) : -Number(st.back);
        const fw = ahead(p.facing);
        p = { x: p.x + fw.x * n, y: p.y + fw.y * n, facing: p.facing };
      } else if (st.wheel) {
        p = wheeled(p, frame, wheelTurn(st.wheel), st.wheel.backward === true);
      } else if (Array.isArray(st.path) && st.path.length) {
        const end = st.path[st.path.length - 1];
        const last = st.path.length > 1 ? st.path[st.path.length - 2] : p;
        p = { x: end.x, y: end.y, facing: G.bearing(last, end) };
      } else {
        return null;
      }
    }
    return p;
  }

  // The drops that may have written `steps` for unit `u` (the formation
  // and about-face already in `d`): none first when they move it nowhere.
  function drops(page, u, d, steps) {
    const fr = frameOf(page, u.id);
    let i = 0;
    let from = { x: u.at.x, y: u.at.y, facing: u.facing };
    let frame = { width: fr.width, depth: fr.depth };
    const first = steps[0];
    if (first && typeof first === 'object' && first.formation) {
      const f = first.formation;
      const key = f.to === 'line' ? (f.turn === 'left' ? 'line_left' : 'line_right') : f.to;
      const a = (fr.after || {})[key];
      if (a) {
        from = { x: a.x, y: a.y, facing: a.facing };
        frame = { width: a.width, depth: a.depth };
      }
      i = 1;
    }
    if (steps[i] === 'about_face') {
      const fw = ahead(from.facing);
      from = { x: from.x - fw.x * frame.depth, y: from.y - fw.y * frame.depth, facing: (from.facing + 180) % 360 };
      i += 1;
    }
    const rest = steps.slice(i);
    const out = [null];
    if (!rest.length) {
      out.push({ x: from.x, y: from.y, facing: from.facing });
      return out;
    }
    const end = play(from, frame, rest);
    if (!end) return out;
    const f = ((end.facing % 360) + 360) % 360;
    const facings = [Math.round(f) % 360, r1(f) % 360, f];
    const r = { x: r1(end.x), y: r1(end.y) };
    // The page drops units on that grid: its points first.
    const points = [];
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) points.push({ x: r1(r.x + dx / 10), y: r1(r.y + dy / 10) });
    }
    points.sort((a, b) => G.distance(a, end) - G.distance(b, end));
    points.push({ x: end.x, y: end.y });
    for (const q of points) for (const fc of facings) out.push({ x: q.x, y: q.y, facing: fc });
    return out;
  }

  // Drawn orders for one unit's March entry, or null.
  function readMarch(page, u, steps) {
    if (!Array.isArray(steps)) return null;
    const want = canon(steps);
    const d = blank();
    const first = steps[0];
    if (first && typeof first === 'object' && first.formation) d.formation = String(first.formation.to);
    if (steps.includes('about_face')) d.fields.about_face = 'true';
    for (const m of drops(page, u, d, steps)) {
      const t = JSON.parse(JSON.stringify(d));
      t.move = m;
      const got = march(page, u, t);
      if (got && !got.error && canon(got.steps) === want) return t;
    }
    return null;
  }

  // The units, force and cards of an activation.
  function readActivation(page, drawn, a) {
    if (!a || typeof a !== 'object') return false;
    const moving = [];
    for (const m of a.moves || []) {
      const u = G.unitPlan(page, m.unit);
      const d = u && readMarch(page, u, m.steps);
      if (!d) return false;
      drawn.units[u.id] = d;
      moving.push(u.id);
    }
    for (const c of a.charges || []) {
      if (!G.unitPlan(page, c.unit)) return false;
      drawn.units[c.unit] = drawn.units[c.unit] || blank();
      drawn.units[c.unit].targets.charge = String(c.target);
      moving.push(c.unit);
    }
    drawn.fields.force = (a.force || []).filter((id) => !moving.includes(id)).join(',');
    drawn.fields.cards = joined(a.cards);
    return true;
  }

  function readRound(page, drawn, r) {
    drawn.fields.volleys = joined(r.volleys);
    const c = r.command;
    if (c === 'pass') drawn.fields.command = 'pass';
    else if (c && typeof c === 'object' && c.event != null) drawn.fields.command = 'event:' + c.event;
    else if (c && typeof c === 'object' && Object.keys(c).length === 1) {
      const cmd = Object.keys(c)[0];
      drawn.fields.command = cmd;
      if (c[cmd] && c[cmd].consult === true) drawn.fields.consult = 'true';
      else if (!readActivation(page, drawn, c[cmd])) return false;
    } else return false;
    drawn.fields.modify = joined(r.modify);
    drawn.fields.cinc = r.cinc && r.cinc.to ? spot(r.cinc.to) : '';
    if (r.cinc && r.cinc.discard != null) drawn.fields.cinc_discard = String(r.cinc.discard);
    // The command the page picks itself is left to it.
    const auto = JSON.parse(JSON.stringify(drawn));
    delete auto.fields.command;
    if (canon(round(page, auto)) === canon(round(page, drawn))) delete drawn.fields.command;
    return true;
  }

  function readReactions(page, drawn, r) {
    const x = page.plan.extra || {};
    const fire = r.return_fire;
    drawn.fields.return_fire = canon(fire) === canon(x.listed) ? 'listed' : String(fire);
    const plays = [];
    for (const key of ['interrupts', 'modifiers']) {
      for (const p of r[key] || []) {
        const v = Object.keys(x.plays || {}).find((k) => x.plays[k].key === key && canon(clean(x.plays[k].play)) === canon(p));
        if (v === undefined) return false;
        plays.push(v);
      }
    }
    drawn.fields.plays = plays.join(',');
    return true;
  }

  function readDeploy(page, drawn, b) {
    for (const e of b.units || []) {
      const u = G.unitPlan(page, e.unit);
      if (!u || !e.at) return false;
      const d = blank();
      if (e.formation !== u.formation) d.formation = String(e.formation);
      if (e.at.x !== u.at.x || e.at.y !== u.at.y || e.facing !== r1(u.facing)) d.move = { x: e.at.x, y: e.at.y, facing: e.facing };
      drawn.units[u.id] = d;
    }
    // The CinC where the plan has him stays the plan's default.
    const f = (page.plan.fields || []).find((x) => x.name === 'cinc');
    const was = f ? point(f.default) : null;
    const same = was && b.cinc && was.x === b.cinc.x && was.y === b.cinc.y;
    drawn.fields.cinc = same ? f.default : b.cinc ? spot(b.cinc) : '';
    return true;
  }



  function read(page, orders) {
    if (!orders || typeof orders !== 'object') return null;
    const drawn = { units: {}, fields: {} };
    const key = { deploy: 'deploy', decide: 'decide', reactions: 'reactions' }[step(page)] || 'round';
    const b = orders[key];
    if (!b || typeof b !== 'object') return null;
    try {
      let ok;
      if (key === 'deploy') ok = readDeploy(page, drawn, b);
      else if (key === 'decide') ok = readActivation(page, drawn, b);
      else if (key === 'reactions') ok = readReactions(page, drawn, b);
      else ok = readRound(page, drawn, b);
      // Only what `write` makes again, the same, is read onto the map.
      const same = (d) => canon(write(page, d)) === canon(orders);
      return ok && same(drawn) ? tidy(page, drawn, same) : null;
    } catch (e) {
      return null;
    }
  }

  G.register('maurice-lite', { write: write, check: check, read: read });
})();
