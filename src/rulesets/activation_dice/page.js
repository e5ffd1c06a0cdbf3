// The activation-dice writer of the orders page (issue 32): what the
// player drew becomes `deploy:` or `turn:` orders. The plan (plan.rs)
// gives, per unit, in `plan.extra`: in set-up the placement's counts and
// zone; in a turn the dice it may roll, its move in each formation
// (`allow`), the depth behind its front centre of the centre it pivots
// about (`half`), the charges it makes only at the double, and whether it
// routs, fights in melee or has a broken line.
//
// A drawn move is written so that the unit ends where it was dropped and
// facing as drawn: one move per success straight to the point, then the
// pivot. A pivot turns the unit about its centre, which moves its front
// centre, so the moves go to the point the pivot then brings onto the
// drawn one. A change of formation that lengthens the move comes first,
// any other last; then canister, the shot, the charge.
(function () {
  'use strict';
  const G = GalloperOrders;
  const { canon, tidy } = G;
  const LIMBER = { limbered: 'limber', unlimbered: 'unlimber' };

  function yes(v) {
    return v === true || v === 'true';
  }

  function ahead(deg) {
    const r = (deg * Math.PI) / 180;
    return { x: Math.sin(r), y: Math.cos(r) };
  }

  // Whether a move from `a` to `b` keeps within 45 degrees of `facing`,
  // as the ruleset asks it.
  function forward(facing, a, b) {
    return G.distance(a, b) < 1e-9 || Math.abs(G.turn(facing, G.bearing(a, b))) <= 45 - 1e-4;
  }

  // The point the file names for one move from `from` toward `p`: `p` to
  // 0.1 cm, as the file writes it, unless that rounding takes the move
  // past 45 degrees off the front or past its length `step`; then the
  // nearest point of that grid that does not.
  function snap(facing, from, p, step) {
    const ok = (q) => forward(facing, from, q) && G.distance(from, q) <= step + 1e-9;
    const r = { x: G.round1(p.x), y: G.round1(p.y) };
    if (ok(r)) return r;
    let best = null;
    for (let dx = -2; dx <= 2; dx++) {
      for (let dy = -2; dy <= 2; dy++) {
        const q = { x: G.round1(r.x + dx / 10), y: G.round1(r.y + dy / 10) };
        if (ok(q) && (!best || G.distance(q, p) < G.distance(best, p))) best = q;
      }
    }
    return best || r;
  }

  function named(u) {
    return u.label + ' [' + u.id + ']';
  }

  // A unit's field as the form holds it, else the plan's default.
  function field(u, d, name) {
    const f = (u.fields || []).find((x) => x.name === name);
    return G.value((d && d.fields) || {}, name, f ? f.default : '');
  }

  function successes(n) {
    return n === 1 ? '1 success' : n + ' successes';
  }

  // --- Set-up -----------------------------------------------------------------

  function placed(u, d) {
    if (d && (d.move || (d.formation && d.formation !== u.formation))) return true;
    return (u.fields || []).every((f) => f.name !== 'place') || yes(field(u, d, 'place'));
  }

  function deployment(page, drawn) {
    const all = drawn.units || {};
    return page.plan.units
      .filter((u) => placed(u, all[u.id]))
      .map((u) => {
        const d = all[u.id] || {};
        const m = d.move;
        return {
          unit: u.id,
          at: { x: m ? m.x : u.at.x, y: m ? m.y : u.at.y },
          facing: m ? m.facing : u.facing,
          formation: d.formation || u.formation,
        };
      });
  }

  function deploymentProblems(page, drawn) {
    const x = page.plan.extra;
    const out = [];
    const units = deployment(page, drawn);
    if (units.length < x.least || units.length > x.most) {
      const want = x.least === x.most ? String(x.least) : x.least + ' or ' + x.most;
      out.push({
        unit: null,
        message: 'placement ' + x.placement + ' puts down ' + want + ' units (' +
          (x.placement === 1 ? 'half of your force' : 'all your units not yet placed') +
          '), not ' + units.length,
      });
    }
    for (const p of units) {
      const from = x.edge === 'north' ? x.height - p.at.y : p.at.y;
      if (from > x.zone + 0.05) {
        out.push({
          unit: p.unit,
          message: 'it must stand within 1 L (' + G.round1(x.zone) + ' cm) of your edge; its front stands ' +
            G.round1(from) + ' cm from it',
        });
      }
    }
    return out;
  }

  // --- A turn -----------------------------------------------------------------

  // Unit `u`'s activation from what was drawn for it (`d`): its actions,
  // the successes they need, the dice it rolls and what is wrong; null
  // when nothing was drawn for it.
  function activation(page, u, d) {
    const x = (page.plan.extra.units || {})[u.id] || {};
    const who = named(u);
    const problems = [];
    const warnings = [];
    const actions = [];
    const targets = d.targets || {};
    if (x.rout) {
      if (!yes(field(u, d, 'rally'))) return null;
      if (d.move) problems.push(who + ' is routing: it may only try to rally');
      return { entry: { unit: u.id, dice: 3, actions: [] }, cost: 3, problems, warnings };
    }
    const f0 = u.formation;
    const f1 = d.formation || f0;
    const reform = f1 !== f0;
    const formCost = x.arm === 'artillery' ? 2 : 1;
    const formAction = (f) => (x.arm === 'artillery' ? LIMBER[f] : { formation: f });
    // Its first success reforms a broken line.
    let cost = x.broken ? 1 : 0;
    if (x.melee) {
      if (d.move) problems.push(who + ' is in melee: it may seize the initiative, recoil or change formation, not move');
      if (reform) {
        actions.push(formAction(f1));
        cost += formCost;
      }
      if (targets.seize) {
        actions.push({ seize: targets.seize });
        cost += 2;
      }
      if (yes(field(u, d, 'recoil'))) {
        if (targets.seize) problems.push(who + ': seizing the initiative and recoiling exclude each other: pick one');
        actions.push('recoil');
        cost += 2;
      }
    } else {
      const allow = x.allow || {};
      const half = x.half || {};
      const move = d.move;
      const dist = move ? G.distance(u.at, move) : 0;
      const moving = dist > 0.05;
      const pivot = move ? G.round1(G.turn(u.facing, move.facing)) : 0;
      const turning = Math.abs(pivot) > 0.5;
      // A change that lengthens the move is made before it.
      const first = reform && (allow[f1] || 0) > (allow[f0] || 0);
      const during = first ? f1 : f0;
      if (first) {
        actions.push(formAction(f1));
        cost += formCost;
      }
      if (moving) {
        // The pivot turns it about its centre, `half` behind its front:
        // the moves go where the pivot brings the front onto the point.
        let to = { x: move.x, y: move.y };
        if (turning) {
          const h = half[during] || 0;
          const was = ahead(u.facing);
          const now = ahead(u.facing + pivot);
          to = { x: move.x + (was.x - now.x) * h, y: move.y + (was.y - now.y) * h };
        }
        const step = allow[during] || 0;
        const len = G.distance(u.at, to);
        if (step <= 0) {
          problems.push(who + ' does not move in ' + during + (reform ? '' : ': pick another formation for it'));
        } else if (len > 0.05) {
          const off = Math.abs(G.turn(u.facing, G.bearing(u.at, to)));
          if (off > 45.5) {
            problems.push(who + ' would move ' + Math.round(off) + ' degrees off its front to end there facing ' +
              Math.round(((move.facing % 360) + 360) % 360) +
              ': a move goes forward within 45 degrees (the pivot comes after it)');
          }
          if (off > 45 && off <= 45.5) {
            // Within what the page lets pass: written at 45 degrees.
            const side = G.turn(u.facing, G.bearing(u.at, to)) > 0 ? 45 : -45;
            const dir = ahead(u.facing + side);
            to = { x: u.at.x + dir.x * len, y: u.at.y + dir.y * len };
          }
          const n = Math.max(1, Math.ceil(len / step - 1e-6));
          let from = u.at;
          for (let k = 1; k <= n; k++) {
            const p = { x: u.at.x + ((to.x - u.at.x) * k) / n, y: u.at.y + ((to.y - u.at.y) * k) / n };
            from = snap(u.facing, from, p, step);
            actions.push({ move: { to: from } });
          }
          cost += n;
        }
      }
      if (turning) {
        if (during === 'square') problems.push(who + ': a square does not pivot; change its formation first');
        actions.push({ pivot: pivot });
        let c = Math.max(1, Math.ceil(Math.abs(pivot) / 45 - 1e-9));
        // A column turns 45 degrees free once an activation.
        if (f0 === 'column') c -= 1;
        cost += c;
      }
      if (reform && !first) {
        actions.push(formAction(f1));
        cost += formCost;
      }
      if (yes(field(u, d, 'canister'))) {
        actions.push('canister');
        cost += 2;
      }
      const aimed = yes(field(u, d, 'aimed'));
      if (targets.fire) {
        if (x.arm === 'artillery' && f1 !== 'unlimbered') {
          problems.push(who + ': limbered guns cannot fire: pick unlimbered for it');
        }
        actions.push(aimed ? { aimed: targets.fire } : { fire: targets.fire });
        cost += aimed ? 2 : 1;
      } else if (aimed) {
        problems.push(who + ': an aimed shot needs a target to fire at');
      }
      if (targets.charge && targets.seize) {
        problems.push(who + ': a charge and seizing the initiative exclude each other: pick one');
      }
      if ((targets.charge || targets.seize) && moving) {
        problems.push(who + ': a charge is its move, from where it stands: draw no move besides');
      }
      if (targets.charge) {
        const double = (x.double || []).includes(targets.charge);
        actions.push(double ? { double_time: { toward: targets.charge } } : { move: { toward: targets.charge } });
        cost += double ? 2 : 1;
      }
      if (targets.seize) {
        actions.push({ seize: targets.seize });
        cost += 2;
      }
    }
    const asked = field(u, d, 'dice');
    if (actions.length === 0 && (asked === '' || asked == null)) return null;
    const most = x.dice || 3;
    let dice;
    if (asked === '' || asked == null) {
      dice = Math.min(Math.max(cost, 1), most);
    } else {
      dice = Number(asked);
      if (!Number.isInteger(dice) || dice < 1 || dice > most) {
        problems.push(who + ': ' + (most === 1 ? 'its officer is dead: one die only' : '1 to 3 dice, not ' + asked));
      } else if (dice < cost) {
        warnings.push(who + ' rolls ' + dice + (dice === 1 ? ' die' : ' dice') + ' for actions that need ' +
          successes(cost) + ': those the successes do not pay are not carried out');
      }
    }
    if (cost > most) {
      problems.push(who + ' needs ' + successes(cost) + ' for what is drawn, more than the ' + most +
        (most === 1 ? ' die it may roll (its officer is dead)' : ' dice it may roll'));
    }
    return { entry: { unit: u.id, dice: dice, actions: actions.length ? actions : ['hold'] }, cost, problems, warnings };
  }

  // The units in the order they activate: the ones ticked first.
  function sequence(page, drawn) {
    const ticked = String(G.value(drawn.fields, 'sequence', '') || '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const units = page.plan.units;
    const out = [];
    for (const id of ticked) {
      const u = units.find((v) => v.id === id);
      if (u && !out.includes(u)) out.push(u);
    }
    for (const u of units) if (!out.includes(u)) out.push(u);
    return out;
  }

  function activations(page, drawn) {
    const all = drawn.units || {};
    return sequence(page, drawn)
      .filter((u) => all[u.id])
      .map((u) => [u, activation(page, u, all[u.id])])
      .filter(([, a]) => a);
  }

  function sideField(page, drawn, name) {
    const f = (page.plan.fields || []).find((x) => x.name === name);
    return G.value(drawn.fields, name, f ? f.default : '');
  }

  // --- Reading a file back ------------------------------------------------------
  //
  // The inverse of the writer: a unit's moves and pivot back to the point
  // it was dropped on (the pivot's shift of its front centre undone) and
  // the facing drawn; its change of formation, targets and boxes as the
  // form's strings; its dice only where they are not what the page would
  // roll; the order of activation and the side's choices. Of the points
  // and facings that give the same entry, the one on the page's grid
  // (0.1 cm, whole degrees) is taken. Whatever the writer would not write
  // the same (moves that are not one straight line split evenly, a `hold`
  // with other actions, another order of actions) gives null, and the
  // page offers the file as text.

  const UNLIMBER = { limber: 'limbered', unlimber: 'unlimbered' };

  function blank() {
    return { move: null, formation: '', targets: {}, fields: {} };
  }

  // What an entry's actions say, one kind each; null for an action the
  // writer never writes.
  function parseActions(actions) {
    const a = { moves: [], pivot: null, formation: '', targets: {}, fields: {} };
    for (const x of actions || []) {
      if (x === 'hold') continue;
      if (x === 'canister' || x === 'recoil') a.fields[x] = 'true';
      else if (x === 'limber' || x === 'unlimber') a.formation = UNLIMBER[x];
      else if (!x || typeof x !== 'object') return null;
      else if (x.formation) a.formation = String(x.formation);
      else if (x.move && x.move.to) a.moves.push(x.move.to);
      else if (x.move && x.move.toward != null) a.targets.charge = String(x.move.toward);
      else if (x.double_time && x.double_time.toward != null) a.targets.charge = String(x.double_time.toward);
      else if (x.pivot != null) a.pivot = Number(x.pivot);
      else if (x.fire != null) a.targets.fire = String(x.fire);
      else if (x.aimed != null) {
        a.targets.fire = String(x.aimed);
        a.fields.aimed = 'true';
      } else if (x.seize != null) a.targets.seize = String(x.seize);
      else return null;
    }
    return a;
  }

  // The points a drop may have been on for moves ending at `end` and a
  // pivot of `pivot`: where the pivot brings the front, then its
  // neighbours on the page's 0.1 cm grid.
  function drops(page, u, d, end, pivot) {
    const x = (page.plan.extra.units || {})[u.id] || {};
    const allow = x.allow || {};
    const f0 = u.formation;
    const f1 = d.formation || f0;
    const during = f1 !== f0 && (allow[f1] || 0) > (allow[f0] || 0) ? f1 : f0;
    const h = (x.half || {})[during] || 0;
    const was = ahead(u.facing);
    const now = ahead(u.facing + pivot);
    const m = Math.abs(pivot) > 0.5 ? { x: end.x + (now.x - was.x) * h, y: end.y + (now.y - was.y) * h } : end;
    const out = [];
    const r = { x: G.round1(m.x), y: G.round1(m.y) };
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) out.push({ x: G.round1(r.x + dx / 10), y: G.round1(r.y + dy / 10) });
    }
    // The page drops units on that grid: its points first.
    out.sort((a, b) => G.distance(a, m) - G.distance(b, m));
    return out.concat([m]);
  }

  // Drawn orders for one entry, or null when none writes it the same.
  function readEntry(page, u, e) {
    const x = (page.plan.extra.units || {})[u.id] || {};
    const want = canon(e);
    const same = (d) => {
      let a = activation(page, u, d);
      if (!a || a.entry.dice !== e.dice) {
        d.fields.dice = String(e.dice);
        a = activation(page, u, d);
      }
      return !!a && canon(a.entry) === want;
    };
    if (x.rout) {
      const d = blank();
      d.fields.rally = 'true';
      return same(d) ? d : null;
    }
    const a = parseActions(e.actions);
    if (!a) return null;
    const d = blank();
    d.formation = a.formation;
    d.targets = a.targets;
    d.fields = a.fields;
    const pivot = a.pivot || 0;
    const raw = ((u.facing + pivot) % 360 + 360) % 360;
    const facings = [Math.round(raw) % 360, raw];
    const points = a.moves.length ? drops(page, u, d, a.moves[a.moves.length - 1], pivot) : a.pivot != null ? [u.at] : [null];
    for (const p of points) {
      for (const f of facings) {
        const t = JSON.parse(JSON.stringify(d));
        if (p) t.move = { x: p.x, y: p.y, facing: f };
        if (same(t)) return t;
      }
    }
    return null;
  }

  function readDeploy(page, block) {
    const drawn = { units: {}, fields: {} };
    for (const p of block.units || []) {
      const u = G.unitPlan(page, p.unit);
      if (!u || !p.at) return null;
      const d = blank();
      if (p.formation !== u.formation) d.formation = String(p.formation);
      if (p.at.x !== u.at.x || p.at.y !== u.at.y || p.facing !== u.facing) d.move = { x: p.at.x, y: p.at.y, facing: p.facing };
      if ((u.fields || []).some((f) => f.name === 'place')) d.fields.place = 'true';
      drawn.units[u.id] = d;
    }
    // A unit the file does not place was left unticked.
    for (const u of page.plan.units) {
      if (!drawn.units[u.id] && (u.fields || []).some((f) => f.name === 'place')) {
        drawn.units[u.id] = blank();
        drawn.units[u.id].fields.place = 'false';
      }
    }
    return drawn;
  }

  function readTurn(page, block) {
    const drawn = { units: {}, fields: {} };
    const ids = [];
    for (const e of block.activations || []) {
      const u = G.unitPlan(page, e.unit);
      if (!u || drawn.units[u.id]) return null;
      const d = readEntry(page, u, e);
      if (!d) return null;
      drawn.units[u.id] = d;
      ids.push(u.id);
    }
    const planned = page.plan.units.map((u) => u.id).filter((id) => ids.includes(id));
    if (ids.join(',') !== planned.join(',')) drawn.fields.sequence = ids.join(',');
    drawn.fields.consult = block.consult === true ? 'true' : 'false';
    if (block.turnover != null) drawn.fields.turnover = String(block.turnover);
    if (block.after_blunder != null) drawn.fields.after_blunder = String(block.after_blunder);
    return drawn;
  }

  function write(page, drawn) {
    if (page.plan.extra.phase === 'deploy') return { deploy: { units: deployment(page, drawn) } };
    return {
      turn: {
        consult: yes(sideField(page, drawn, 'consult')),
        turnover: sideField(page, drawn, 'turnover') || 'act',
        after_blunder: sideField(page, drawn, 'after_blunder') || 'carry_on',
        activations: activations(page, drawn).map(([, a]) => a.entry),
      },
    };
  }



  function read(page, orders) {
    if (!orders || typeof orders !== 'object') return null;
    try {
      const deploy = page.plan.extra.phase === 'deploy';
      const block = deploy ? orders.deploy : orders.turn;
      if (!block || typeof block !== 'object') return null;
      const drawn = deploy ? readDeploy(page, block) : readTurn(page, block);
      // Only what the writer makes again, the same, is read onto the map.
      const same = (d) => canon(write(page, d)) === canon(orders);
      return drawn && same(drawn) ? tidy(page, drawn, same) : null;
    } catch (e) {
      return null;
    }
  }

  GalloperOrders.register('activation-dice', {
    read: read,
    write: write,
    check(page, drawn) {
      if (page.plan.extra.phase === 'deploy') return deploymentProblems(page, drawn);
      const out = [];
      for (const [u, a] of activations(page, drawn)) {
        for (const m of a.problems) out.push({ unit: u.id, message: m });
        for (const m of a.warnings) out.push({ unit: u.id, message: m, warning: true });
      }
      return out;
    },
  });
})();
