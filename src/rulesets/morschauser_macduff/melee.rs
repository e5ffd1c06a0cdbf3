//! One round of melee (B.6) with what terrain (C), walls (C.6), generals
//! (B.6, E.5) and squares (E.6) do to it.
//!
//! Both companies roll a die per strength point at once; a die at or under
//! the company's melee value puts a hit on the other. The one that took
//! more hits retreats a full move; equal hits are a draw.

use super::generals;
use super::retreat::{retreat_from, walk};
use super::scenario::TerrainKind;
use super::shooting::{level, tagged, touching, touching_or_flush};
use super::squares::in_square;
use super::state::{Company, State};
use super::units::TroopType;
use super::words::{self, What};
use crate::dice::Dice;
use crate::event::{Event, Facts};
use crate::geometry::{Point, TerrainTag, line_of_sight};

/// B.6: melee values never leave this range once modified (house rule,
/// after E.7a and E.7b).
pub const MIN_VALUE: u32 = 1;
pub const MAX_VALUE: u32 = 5;

/// How the attack is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    /// It moved into melee range this turn (special troops may have a
    /// charging value).
    pub charging: bool,
    /// It was wholly behind the defender's front before coming within 3"
    /// (B.3): the defender fights with its rear value.
    pub flank: bool,
    /// C.6: engineers at a wall or gate fight its defenders across it.
    pub sapping: bool,
}

impl Attack {
    /// A company that moved into melee range this turn.
    pub fn charge(flank: bool) -> Attack {
        Attack {
            charging: true,
            flank,
            sapping: false,
        }
    }
    /// A company that started within 3" (B.6).
    pub fn standing(flank: bool) -> Attack {
        Attack {
            charging: false,
            flank,
            sapping: false,
        }
    }
}

/// What a round of melee came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No melee was possible (a high wall without ladders or breach).
    Refused,
    Draw,
    /// The company that inflicted more hits; the other retreated or is gone.
    Won {
        winner: String,
        loser: String,
    },
}

/// A melee value with its reasons, for the dice log.
struct Value {
    value: u32,
    notes: Vec<String>,
}

impl Value {
    fn new(base: u32, why: String) -> Value {
        Value {
            value: base,
            notes: vec![why],
        }
    }
    fn add(&mut self, delta: i32, why: String) {
        self.value = self.value.saturating_add_signed(delta);
        self.notes.push(why);
    }
    fn clamped(&self) -> u32 {
        self.value.clamp(MIN_VALUE, MAX_VALUE)
    }
    fn text(&self) -> String {
        let v = self.clamped();
        let mut t = self.notes.join(", ");
        if v != self.value {
            t.push_str(&format!(", held to {v}"));
        }
        t
    }
}

/// A high wall between the two, and whether a breach lets the attack in.
struct Wall {
    id: String,
    name: String,
    breached: bool,
}

/// Fight one round: `attacker` initiates against `defender`.
pub fn fight(
    s: &mut State,
    attacker: &str,
    defender: &str,
    attack: Attack,
    dice: &mut Dice,
    events: &mut Vec<Event>,
) -> Verdict {
    let (Some(a), Some(d)) = (s.company(attacker).cloned(), s.company(defender).cloned()) else {
        return Verdict::Refused;
    };
    let wall = if attack.sapping {
        None
    } else {
        wall_between(s, &a, &d)
    };
    if let Some(w) = &wall
        && !w.breached
        && !a.ladders
    {
        events.push(words::event(
            What::NoLadders,
            Facts {
                place: Some(w.name.clone()),
                ..words::at(s, &a, &d)
            },
        ));
        return Verdict::Refused;
    }
    // C.2, C.5, C.6: only a company that may enter the ground the defender
    // stands in may attack into it. Engineers at a wall fight across it.
    if !attack.sapping
        && let Some((place, reason)) = barred(s, &a, &d)
    {
        events.push(words::event(
            What::CannotAttackInto,
            Facts {
                place: Some(place),
                reason: Some(reason),
                ..words::at(s, &a, &d)
            },
        ));
        return Verdict::Refused;
    }
    let square = in_square(s, &d);
    let flank = attack.flank && !square;
    let mut av = attacker_value(s, &a, &d, attack, square, wall.as_ref());
    let mut dv = if flank {
        Value::new(d.profile.rear, format!("rear {}", d.profile.rear))
    } else {
        Value::new(d.profile.front, format!("front {}", d.profile.front))
    };
    if let Some(note) = generals::melee_bonus(s, &a.id, dice, events) {
        av.add(1, note);
    }
    if let Some(note) = generals::melee_bonus(s, &d.id, dice, events) {
        dv.add(1, note);
    }
    let how = match (flank, square, attack.flank) {
        (true, _, _) => " in the flank",
        (false, true, true) => " (a square has no flank, E.6)",
        _ => "",
    };
    let from = dice.log().len();
    let a_scored = roll(
        dice,
        &format!(
            "{}, {} SP, attacks {}{how}: hits on 1-{} ({})",
            a.short(),
            a.strength(),
            d.short(),
            av.clamped(),
            av.text()
        ),
        a.strength(),
        av.clamped(),
    );
    let mid = dice.log().len();
    let d_scored = roll(
        dice,
        &format!(
            "{}, {} SP, fights back against {}: hits on 1-{} ({})",
            d.short(),
            d.strength(),
            a.short(),
            dv.clamped(),
            dv.text()
        ),
        d.strength(),
        dv.clamped(),
    );
    events.push(
        words::event(
            What::Melee,
            Facts {
                mode: (!how.is_empty()).then(|| how.to_string()),
                count: Some(a.strength()),
                needed: Some(av.clamped()),
                hits: Some(a_scored),
                attacker_total: Some(i64::from(a_scored)),
                defender_total: Some(i64::from(d_scored)),
                losses: vec![words::hits(&d.id, a_scored)],
                rolls: dice.log()[from..mid].iter().map(|r| r.value).collect(),
                ..words::at(s, &a, &d)
            },
        )
        .with_dice(from..mid),
    );
    events.push(
        words::event(
            What::FightsBack,
            Facts {
                count: Some(d.strength()),
                needed: Some(dv.clamped()),
                hits: Some(d_scored),
                attacker_total: Some(i64::from(a_scored)),
                defender_total: Some(i64::from(d_scored)),
                losses: vec![words::hits(&a.id, d_scored)],
                rolls: dice.log()[mid..].iter().map(|r| r.value).collect(),
                ..words::at(s, &d, &a)
            },
        )
        .with_dice(mid..dice.log().len()),
    );
    take(s, &d, a_scored, events);
    take(s, &a, d_scored, events);
    if s.scenario.options.risk_to_generals {
        risk(s, &a, &d, dice, events);
        risk(s, &d, &a, dice, events);
    }
    if a_scored == d_scored {
        events.push(words::event(What::MeleeDrawn, words::at(s, &a, &d)));
        return Verdict::Draw;
    }
    let (winner, loser) = if a_scored > d_scored {
        (&a, &d)
    } else {
        (&d, &a)
    };
    if s.company(&loser.id).is_some_and(|c| c.on_table()) {
        retreat_from(s, &loser.id, &winner.id, events);
    }
    if let Some(w) = wall.as_ref().filter(|w| !w.breached)
        && winner.id == a.id
    {
        climb(s, &a, w, events);
    }
    Verdict::Won {
        winner: winner.id.clone(),
        loser: loser.id.clone(),
    }
}

/// C.6: a storming party that wins on its ladders moves onto the wall,
/// going over it unless another defender is within 3".
fn climb(s: &mut State, a: &Company, w: &Wall, events: &mut Vec<Event>) {
    let Some(c) = s.company(&a.id).cloned().filter(|c| c.on_table()) else {
        return;
    };
    let Some(feature) = s.scenario.terrain(&w.id).map(|t| t.feature()) else {
        return;
    };
    let depth = s.scenario.base.depth.get();
    let walked = walk(s, &c.id, c.facing.unit_vector(), depth * 2.0, |_, b| {
        !feature.touches_bases(std::slice::from_ref(b))
    });
    let what = if walked.stopped.is_some() {
        What::StaysAtFoot
    } else {
        What::ClimbsOver
    };
    events.push(words::event(
        what,
        Facts {
            place: Some(w.name.clone()),
            distance: Some(walked.travelled),
            reason: walked.stopped.clone(),
            ..words::of(s, &c)
        },
    ));
}

/// One die per strength point; a die at or under `value` hits.
fn roll(dice: &mut Dice, purpose: &str, sp: u32, value: u32) -> u32 {
    (0..sp)
        .filter(|_| dice.d6(purpose.to_string()) <= value)
        .count() as u32
}

fn take(s: &mut State, c: &Company, hits: u32, events: &mut Vec<Event>) {
    if hits == 0 {
        return;
    }
    let left = s.hit(&c.id, hits);
    let facts = Facts {
        losses: vec![words::hits(&c.id, hits)],
        after: Some(left as i64),
        ..words::of(s, c)
    };
    if left == 0 {
        events.push(words::event(What::Destroyed, facts));
    } else {
        events.push(words::event(What::SpLeft, facts));
    }
}

/// E.5: one enemy die against a general attached to a company in melee;
/// house rule: a 6 kills him.
fn risk(s: &mut State, c: &Company, enemy: &Company, dice: &mut Dice, events: &mut Vec<Event>) {
    let Some(g) = s.attached_general(&c.id).cloned() else {
        return;
    };
    let d = dice.d6(format!(
        "{} rolls against General {} in the melee: 6 kills him (E.5)",
        enemy.short(),
        g.name
    ));
    let di = dice.last_index();
    if d != 6 {
        events.push(
            words::event(
                What::Unharmed,
                Facts {
                    target: Some(words::general(&g)),
                    rolls: vec![d],
                    ..words::of(s, c)
                },
            )
            .with_dice(di),
        );
    }
    if d == 6
        && let Some(x) = s.generals.iter_mut().find(|x| x.id == g.id)
    {
        x.killed = true;
        x.attached = None;
        events.push(
            words::event(
                What::GeneralFalls,
                Facts {
                    target: Some(words::general(&g)),
                    rolls: vec![d],
                    ..words::of(s, c)
                },
            )
            .with_dice(di),
        );
    }
}

/// The attacker's value: front (or the special charging value), rear when
/// cavalry attack a square (E.6) or a storming party is on its ladders
/// (C.6), less each terrain penalty of section C.
fn attacker_value(
    s: &State,
    a: &Company,
    d: &Company,
    attack: Attack,
    square: bool,
    wall: Option<&Wall>,
) -> Value {
    let p = &a.profile;
    let mut v = match (attack.charging, p.charging_front) {
        (true, Some(f)) => Value::new(f, format!("charging {f} (E.7j)")),
        _ => Value::new(p.front, format!("front {}", p.front)),
    };
    if square && p.troop.is_cavalry() {
        v = Value::new(
            p.rear,
            format!("rear {}: cavalry against a square (E.6)", p.rear),
        );
    }
    if let Some(w) = wall {
        if w.breached {
            v.add(-1, format!("-1 attacking the breach in {} (C.6)", w.name));
        } else {
            v = Value::new(
                p.rear,
                format!("rear {}: on ladders against {} (C.6)", p.rear, w.name),
            );
        }
    }
    let sc = &s.scenario;
    let (ab, db) = (a.base(sc), d.base(sc));
    if touching(s, &db, |k| matches!(k, TerrainKind::Woods)) {
        v.add(-1, "-1 attacking into woods (C.2)".into());
    }
    if touching(s, &db, |k| matches!(k, TerrainKind::Town)) {
        v.add(-1, "-1 attacking into a town (C.5)".into());
    } else if touching(s, &db, |k| matches!(k, TerrainKind::Earthwork)) {
        v.add(-1, "-1 attacking into an earthwork (C.6)".into());
    }
    if level(s, &db) > level(s, &ab) {
        v.add(-1, "-1 attacking uphill (C.3)".into());
    }
    let wet = |b| {
        touching(s, b, |k| matches!(k, TerrainKind::Water { fordable: true }))
            && !touching(s, b, |k| matches!(k, TerrainKind::Bridge))
    };
    if wet(&ab) && !wet(&db) {
        v.add(-1, "-1 from the water against the bank (C.4)".into());
    }
    let cover = touching_or_flush(s, &db, |k| match k {
        TerrainKind::LowWall { cover } => *cover,
        TerrainKind::Other(o) => o.cover,
        _ => false,
    });
    if cover {
        v.add(-1, "-1 against a wall giving cover (C.7)".into());
    }
    if touching_or_flush(s, &db, |k| matches!(k, TerrainKind::Abatis)) {
        v.add(-1, "-1 against an abatis (C.7)".into());
    }
    v
}

/// C.2, C.5, C.6: the ground `defender` stands in that `attacker` may not
/// enter, so may not attack into, with the rule that bars it. Only a unit
/// that can enter a wood may melee a unit in it (C.2); only line and light
/// infantry enter a town off the road (C.5); earthworks are treated like
/// towns, but guns may be placed in them (C.6). A defender on a town's road
/// is still in the town: the road lets troops pass through, not fight there.
pub fn barred(s: &State, attacker: &Company, defender: &Company) -> Option<(String, String)> {
    let troop = attacker.profile.troop;
    let db = defender.base(&s.scenario);
    let label = troop.label();
    s.scenario
        .terrain
        .iter()
        .filter(|t| t.feature().touches_bases(std::slice::from_ref(&db)))
        .find_map(|t| {
            let why = match t.kind {
                TerrainKind::Woods
                    if troop.is_cavalry()
                        || matches!(troop, TroopType::Artillery | TroopType::Wagons) =>
                {
                    format!("{label} may not enter woods (C.2)")
                }
                TerrainKind::Town if !troop.is_infantry() => {
                    format!("{label} may not enter a town off the road (C.5)")
                }
                TerrainKind::Earthwork
                    if !(troop.is_infantry() || troop == TroopType::Artillery) =>
                {
                    format!("{label} may not enter an earthwork (C.6)")
                }
                _ => return None,
            };
            Some((t.name.clone(), why))
        })
}

/// C.6: a high wall or gate that the line between the two crosses.
fn wall_between(s: &State, a: &Company, d: &Company) -> Option<Wall> {
    let sc = &s.scenario;
    let (from, to) = (a.base(sc).center, d.base(sc).center);
    let w = sc
        .terrain
        .iter()
        .filter(|t| matches!(t.kind, TerrainKind::HighWall | TerrainKind::Gate { .. }))
        .find(|t| !line_of_sight(from, to, &[tagged(t.feature())], &[TerrainTag::Obstruction]))?;
    let reach = sc.base.width.get();
    let breached = s
        .breaches
        .iter()
        .any(|b| s.breached_near(&w.id, b.at, 0.0) && to_segment(b.at, from, to) <= reach);
    Some(Wall {
        id: w.id.clone(),
        name: w.name.clone(),
        breached,
    })
}

fn to_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let len2 = ab.dot(ab);
    let t = if len2 < 1e-12 {
        0.0
    } else {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    };
    (p - (a + ab.scale(t))).length()
}
