// The orders page's pure part: what the player drew becomes an orders file.
// One classic script, the global `GalloperOrders`, loadable in Node (the
// tests drive it there too) and in the page. It knows no rules: each
// ruleset's writer (src/rulesets/NAME/page.js) registers itself here and
// turns the drawn orders into its `orders:` block; the checks made here are
// the ones every ruleset shares (reach, the shape of a move, the ground the
// plan says stops or slows each unit).
//
// A page's data (`page`, embedded by src/site/orders_page.rs):
//   { head: { game, step, side, side_name, notice, revision, ruleset,
//             fingerprint, measure, heading, note },
//     frame: { scale, left, top, table_w, table_h, turned },
//     plan: { units: [UnitPlan], fields: [Field], notes: [..], extra,
//             ground: [{ name, points: [{x, y}], line? }] },
//     outlines: { UNIT: [[dx, dy], ...] }, template: "orders file text" }
// What the player drew (`drawn`):
//   { units: { UNIT: { move: {x, y, facing} | null, formation: "" | F,
//                      targets: { KIND: ENEMY }, fields: { NAME: VALUE } } },
//     fields: { NAME: VALUE } }
// Field values are the form's strings; a writer reads them with `value`.
(function (root) {
  'use strict';

  const writers = {};

  function register(ruleset, writer) {
    writers[ruleset] = writer;
  }

  function writerFor(page) {
    const w = writers[page.head.ruleset];
    if (!w) throw new Error('this page has no writer for ruleset ' + page.head.ruleset);
    return w;
  }

  // --- YAML ---------------------------------------------------------------

  const SPECIAL = /^(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N)$/;
  const PLAIN = /^[A-Za-z_][A-Za-z0-9_.\-]*$/;

  function scalar(v) {
    if (v === null || v === undefined) return 'null';
    if (typeof v === 'boolean') return v ? 'true' : 'false';
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new Error('a number in the orders is not finite');
      return String(Math.round(v * 10) / 10);
    }
    const s = String(v);
    if (PLAIN.test(s) && !SPECIAL.test(s)) return s;
    return JSON.stringify(s);
  }

  function isFlat(v) {
    return v === null || typeof v !== 'object';
  }

  // A small value on one line, as the templates write entries.
  function flow(v) {
    if (isFlat(v)) return scalar(v);
    if (Array.isArray(v)) return '[' + v.map(flow).join(', ') + ']';
    return '{' + Object.keys(v).map((k) => scalar(k) + ': ' + flow(v[k])).join(', ') + '}';
  }

  // Block YAML for `tree`, indented by `indent` spaces: maps as blocks,
  // list entries on one line each.
  function yaml(tree, indent) {
    const pad = ' '.repeat(indent || 0);
    if (isFlat(tree) || Array.isArray(tree)) throw new Error('the orders block must be a map');
    const keys = Object.keys(tree);
    if (keys.length === 0) return pad + '{}\n';
    let out = '';
    for (const k of keys) {
      const v = tree[k];
      if (isFlat(v)) out += pad + scalar(k) + ': ' + scalar(v) + '\n';
      else if (Array.isArray(v)) {
        if (v.length === 0) out += pad + scalar(k) + ': []\n';
        else {
          out += pad + scalar(k) + ':\n';
          for (const item of v) out += pad + '  - ' + flow(item) + '\n';
        }
      } else if (Object.keys(v).length === 0) out += pad + scalar(k) + ': {}\n';
      else out += pad + scalar(k) + ':\n' + yaml(v, (indent || 0) + 2);
    }
    return out;
  }

  // --- Geometry -------------------------------------------------------------

  function distance(a, b) {
    return Math.hypot(b.x - a.x, b.y - a.y);
  }

  // Degrees clockwise from table +y, in [0, 360).
  function bearing(a, b) {
    const d = (Math.atan2(b.x - a.x, b.y - a.y) * 180) / Math.PI;
    return (d + 360) % 360;
  }

  // Signed smallest turn from `from` to `to`, in (-180, 180].
  function turn(from, to) {
    let d = (((to - from) % 360) + 360) % 360;
    if (d > 180) d -= 360;
    return d;
  }

  function round1(v) {
    return Math.round(v * 10) / 10;
  }

  // Whether `p` lies inside the closed outline `ps` (even-odd rule).
  function inside(p, ps) {
    let yes = false;
    for (let i = 0, j = ps.length - 1; i < ps.length; j = i++) {
      const a = ps[i], b = ps[j];
      if ((a.y > p.y) !== (b.y > p.y) && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) yes = !yes;
    }
    return yes;
  }

  // Where along a -> b (0 to 1) it crosses the segment c -> d, or null.
  function crossing(a, b, c, d) {
    const rx = b.x - a.x, ry = b.y - a.y, sx = d.x - c.x, sy = d.y - c.y;
    const den = rx * sy - ry * sx;
    if (Math.abs(den) < 1e-12) return null;
    const t = ((c.x - a.x) * sy - (c.y - a.y) * sx) / den;
    const u = ((c.x - a.x) * ry - (c.y - a.y) * rx) / den;
    return t >= 0 && t <= 1 && u >= 0 && u <= 1 ? t : null;
  }

  // The distance from `p` to the segment a -> b.
  function toSegment(p, a, b) {
    const dx = b.x - a.x, dy = b.y - a.y;
    const l2 = dx * dx + dy * dy;
    const t = l2 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / l2)) : 0;
    return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
  }

  // How much of the straight path a -> b lies in the outline `o` (an
  // area, or a line `o.line` wide), or null when the path never enters
  // it. A line counts as crossed where the path comes within half its
  // width, and as its width of the path.
  function lengthIn(a, b, o) {
    const ps = o.points || [];
    if (o.line != null) {
      const half = Math.max(o.line / 2, 0.01);
      for (let i = 0; i + 1 < ps.length; i++) {
        const c = ps[i], d = ps[i + 1];
        if (crossing(a, b, c, d) != null || Math.min(toSegment(c, a, b), toSegment(d, a, b), toSegment(a, c, d), toSegment(b, c, d)) <= half) {
          return Math.min(o.line, distance(a, b));
        }
      }
      return null;
    }
    if (ps.length < 3) return null;
    const ts = [0, 1];
    for (let i = 0; i < ps.length; i++) {
      const t = crossing(a, b, ps[i], ps[(i + 1) % ps.length]);
      if (t != null) ts.push(t);
    }
    ts.sort((x, y) => x - y);
    let within = 0, met = false;
    for (let i = 0; i + 1 < ts.length; i++) {
      const m = (ts[i] + ts[i + 1]) / 2;
      if (inside({ x: a.x + (b.x - a.x) * m, y: a.y + (b.y - a.y) * m }, ps)) {
        within += ts[i + 1] - ts[i];
        met = true;
      }
    }
    if (!met && !inside(a, ps) && !inside(b, ps)) return null;
    return within * distance(a, b);
  }

  // --- What the page checks as drawn ------------------------------------------

  // What the ground in the unit's reach says of the drawn move from `a`
  // to `b`: a move into ground it may not enter, or longer than a move
  // that enters it may go (counting each step inside at its cost). A rule
  // with an exception the page cannot judge is a warning.
  function groundProblems(page, u, a, b) {
    const m = page.head.measure;
    const out = [];
    const dist = distance(a, b);
    if (dist <= 0.05) return out;
    for (const g of (u.reach && u.reach.ground) || []) {
      const o = (page.plan.ground || [])[g.outline];
      if (!o) continue;
      const within = lengthIn(a, b, o);
      if (within == null) continue;
      const who = u.label + ' [' + u.id + ']';
      const soft = g.soft ? '; checked on receipt' : '';
      if (g.most == null) {
        out.push({ unit: u.id, warning: !!g.soft, message: who + ' enters ' + o.name + ' (' + g.why + ')' + soft });
        continue;
      }
      const cost = g.cost == null ? 1 : g.cost;
      const spent = dist + (cost - 1) * within;
      if (spent > g.most + 0.05) {
        const counted = cost !== 1
          ? ', ' + round1(within) + ' ' + m + ' of it inside, counted ' + cost + ' times: ' + round1(spent) + ' ' + m
          : '';
        out.push({
          unit: u.id,
          warning: !!g.soft,
          message: who + ' moves ' + round1(dist) + ' ' + m + ' into ' + o.name + counted + ', more than ' +
            round1(g.most) + ' ' + m + ' (' + g.why + ')' + soft,
        });
      }
    }
    return out;
  }

  function unitPlan(page, id) {
    return page.plan.units.find((u) => u.id === id);
  }

  function value(fields, name, fallback) {
    if (fields && Object.prototype.hasOwnProperty.call(fields, name)) return fields[name];
    return fallback;
  }

  // Whether the unit's drawn orders change its facing or formation.
  function turns(u, d) {
    if (d.formation && d.formation !== u.formation) return true;
    return !!d.move && Math.abs(turn(u.facing, d.move.facing)) > 0.5;
  }

  // Problems every ruleset shares, one { unit, message } each, in the
  // words a refusal mail uses.
  function sharedProblems(page, drawn) {
    const m = page.head.measure;
    const out = [];
    for (const id of Object.keys(drawn.units || {})) {
      const u = unitPlan(page, id);
      const d = drawn.units[id];
      if (!u) {
        out.push({ unit: id, message: id + ' is not one of your units this step' });
        continue;
      }
      if (!d.move) continue;
      const dist = distance(u.at, d.move);
      if (!u.reach) {
        out.push({ unit: id, message: u.label + ' [' + id + '] may not move this step' });
        continue;
      }
      const r = u.reach;
      const limit = turns(u, d) && r.turned != null ? r.turned : r.full;
      const road = r.road != null ? Math.max(r.road, limit) : limit;
      if (dist > road + 0.05) {
        const why = turns(u, d) && r.turned != null ? ' with a change of facing or formation' : '';
        out.push({
          unit: id,
          message: u.label + ' [' + id + '] moves ' + round1(dist) + ' ' + m + ', more than its ' +
            round1(limit) + ' ' + m + why + ' (' + round1(dist - limit) + ' ' + m + ' too far)',
        });
      } else if (dist > limit + 0.05) {
        out.push({
          unit: id,
          warning: true,
          message: u.label + ' [' + id + '] moves ' + round1(dist) + ' ' + m + ': only a move along a road the whole way reaches so far (' +
            round1(road) + ' ' + m + '); checked on receipt',
        });
      }
      out.push(...groundProblems(page, u, u.at, d.move));
      if (dist > 0.05) {
        const off = Math.abs(turn(u.facing, bearing(u.at, d.move)));
        if (r.shape === 'forward45' && off > 45.5) {
          out.push({ unit: id, message: u.label + ' [' + id + '] moves ' + Math.round(off) + ' degrees off its front: a move goes forward within 45 degrees' });
        }
        if (r.shape === 'straight' && Math.min(off, 180 - off) > 1) {
          out.push({ unit: id, message: u.label + ' [' + id + '] moves ' + Math.round(off) + ' degrees off its front: it moves only straight ahead or back' });
        }
      }
    }
    return out;
  }

  function problems(page, drawn) {
    const w = writerFor(page);
    const own = typeof w.check === 'function' ? w.check(page, drawn) : [];
    return sharedProblems(page, drawn).concat(own || []);
  }

  // --- The file ---------------------------------------------------------------

  // The whole orders file: the head as `galloper orders template` writes
  // it (entropy left for the signing to fill) and the writer's block.
  function file(page, drawn) {
    const h = page.head;
    const tree = writerFor(page).write(page, drawn);
    return (
      'galloper: 1\n' +
      'game: ' + scalar(h.game) + '\n' +
      'step: ' + h.step + '\n' +
      'side: ' + scalar(h.side) + '\n' +
      'notice: ' + h.notice + '\n' +
      'revision: ' + h.revision + '\n' +
      'entropy: FILLED-IN-BY-GALLOPER-SIGN\n' +
      'orders:\n' +
      yaml(tree, 2)
    );
  }

  // --- Reading a file back (each writer's `read`) -----------------------------

  // A block as the file says it, for comparing: the numbers as the file
  // writes them, a map's keys in any order (YAML gives them no order),
  // a list's entries in theirs.
  function canon(v) {
    if (Array.isArray(v)) return '[' + v.map(canon).join(',') + ']';
    if (v && typeof v === 'object') {
      return '{' + Object.keys(v).sort().map((k) => JSON.stringify(k) + ':' + canon(v[k])).join(',') + '}';
    }
    return scalar(v);
  }

  // The page keeps only what the player changed: a field at its plan's
  // default is dropped, and a unit left with nothing, wherever the writer
  // writes the same without it (`same`), so what is read is what was drawn.
  function tidy(page, drawn, same) {
    const fallback = (fields, name) => {
      const f = (fields || []).find((x) => x.name === name);
      return f ? f.default : '';
    };
    // Drops `key` from `holder[prop]`, keeping the order of the rest.
    const drop = (holder, prop, key) => {
      const was = holder[prop];
      const now = {};
      for (const k of Object.keys(was)) if (k !== key) now[k] = was[k];
      holder[prop] = now;
      if (!same(drawn)) holder[prop] = was;
    };
    for (const k of Object.keys(drawn.fields)) {
      if (drawn.fields[k] === fallback(page.plan.fields, k)) drop(drawn, 'fields', k);
    }
    for (const id of Object.keys(drawn.units)) {
      const u = unitPlan(page, id);
      const d = drawn.units[id];
      for (const k of Object.keys(d.fields)) if (d.fields[k] === fallback(u && u.fields, k)) drop(d, 'fields', k);
      if (!d.move && !d.formation && !Object.keys(d.targets).length && !Object.keys(d.fields).length) drop(drawn, 'units', id);
    }
    return drawn;
  }

  // Units that are still without orders, for the page to highlight.
  function unordered(page, drawn) {
    return page.plan.units
      .filter((u) => {
        const d = (drawn.units || {})[u.id];
        if (!d) return true;
        return !d.move && !d.formation && Object.keys(d.targets || {}).length === 0 &&
          Object.keys(d.fields || {}).length === 0;
      })
      .map((u) => u.id);
  }

  root.GalloperOrders = {
    register, writerFor, yaml, flow, scalar, distance, bearing, turn, round1,
    unitPlan, value, turns, problems, file, unordered, canon, tidy, inside, lengthIn, groundProblems,
  };
})(typeof globalThis !== 'undefined' ? globalThis : this);
