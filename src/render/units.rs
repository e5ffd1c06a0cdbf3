//! Units: oriented bases in side colours with a dark front edge, a label
//! behind the unit, formation letter, disruption and smoke markers.

use super::RenderError;
use super::colour::{NEUTRAL, Rgb};
use super::frame::{Frame, finite, num, points};
use super::placement::BoxPx;
use super::shapes::{Circle, Label, Line, Rect};
use crate::view::{MapView, UnitView};

/// One base: its outline and its front edge.
#[derive(Debug)]
pub(crate) struct BaseShape {
    pub points: String,
    pub fill: String,
    pub outline: String,
    pub front: Line,
    pub front_colour: String,
    pub front_width: String,
}

/// A unit's name with its formation letter, and an optional note line.
#[derive(Debug)]
pub(crate) struct UnitLabel {
    /// A pale box under the name and note. A white outline around each
    /// glyph (a halo) read as well but was a third of the map's drawing
    /// time at thirty units a side.
    pub backdrop: Rect,
    pub label: Label,
    pub formation: String,
    pub colour: String,
    pub note: Option<Label>,
    /// From the label moved away from its unit to the unit.
    pub leader: Option<Line>,
    /// False when the table had no room left for it ([`super::placement`]).
    pub shown: bool,
    /// Where it stands before placement ([`super::placement`]).
    pub(crate) geom: LabelGeom,
}

/// A label's box and text positions before placement, the places it may
/// go, and the point a leader line would run to.
#[derive(Debug, Clone)]
pub(crate) struct LabelGeom {
    pub bbox: BoxPx,
    pub name_at: (f64, f64),
    pub note_at: Option<(f64, f64)>,
    pub target: (f64, f64),
    /// The unit's own upright box, which no label should cover.
    pub unit_box: BoxPx,
    /// Which side of the unit the label tries first.
    pub side: Side,
    pub candidates: Vec<(f64, f64)>,
    pub name: String,
    pub note: Option<String>,
}

impl UnitLabel {
    /// Move the label by `offset`; with `leader`, draw a line from it to
    /// its unit.
    pub fn moved(&mut self, offset: (f64, f64), leader: bool) {
        let g = &self.geom;
        let (dx, dy) = offset;
        let b = g.bbox.shifted(offset);
        self.backdrop = Rect::new(b.x, b.y, b.w, b.h, "#ffffff");
        self.label = Label::new(
            (g.name_at.0 + dx, g.name_at.1 + dy),
            g.name.clone(),
            "middle",
        );
        self.note = match (&g.note, g.note_at) {
            (Some(n), Some(at)) => Some(Label::new((at.0 + dx, at.1 + dy), n.clone(), "middle")),
            _ => None,
        };
        self.leader = leader.then(|| Line::new(nearest_on(&b, g.target), g.target));
    }

    /// The box of the label's short form, a number of `digits` digits
    /// where its name goes.
    pub fn short_box(&self, digits: usize) -> BoxPx {
        label_backdrop(self.geom.name_at, &"0".repeat(digits), None)
    }

    /// The places the short form may go, as the whole label's.
    pub fn short_candidates(&self, digits: usize) -> Vec<(f64, f64)> {
        around(&self.short_box(digits), &self.geom.unit_box, self.geom.side)
    }

    /// Make the label its short form, `number`, which the legend explains;
    /// then [`UnitLabel::moved`] draws it.
    pub fn shorten(&mut self, number: usize, digits: usize) {
        self.geom.bbox = self.short_box(digits);
        self.geom.name = number.to_string();
        self.geom.note = None;
        self.geom.note_at = None;
        self.formation = String::new();
    }

    /// What the legend says of the label's number: the whole label.
    pub fn whole(&self) -> String {
        match self.formation.as_str() {
            "" => self.geom.name.clone(),
            f => format!("{} {f}", self.geom.name),
        }
    }
}

/// The point of `b`'s edge nearest to `p`, where a leader line starts.
pub(crate) fn nearest_on(b: &BoxPx, p: (f64, f64)) -> (f64, f64) {
    (p.0.clamp(b.x, b.x + b.w), p.1.clamp(b.y, b.y + b.h))
}

/// A numbered disruption counter.
#[derive(Debug)]
pub(crate) struct Counter {
    pub disc: Circle,
    pub text: Label,
}

/// Everything drawn for the units, by layer.
#[derive(Debug, Default)]
pub(crate) struct UnitLayers {
    pub bases: Vec<BaseShape>,
    pub smoke: Vec<Circle>,
    pub counters: Vec<Counter>,
    pub labels: Vec<UnitLabel>,
}

/// The formations the legend's standard key explains.
const STANDARD: [&str; 8] = [
    "line",
    "column",
    "massed",
    "mass",
    "artillery",
    "battery",
    "limbered",
    "unlimbered",
];

/// The letter a formation shows on the map; the legend explains them. A
/// formation of several words shows their initials (`light cavalry`: `LC`),
/// so that troop types sharing a first letter stay apart.
pub(crate) fn formation_letter(formation: &str) -> String {
    match formation.trim().to_ascii_lowercase().as_str() {
        "line" => "L".into(),
        "column" => "C".into(),
        "massed" | "mass" => "M".into(),
        "artillery" | "battery" | "limbered" | "unlimbered" => "A".into(),
        "" => String::new(),
        other => other
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .flat_map(char::to_uppercase)
            .collect(),
    }
}

/// The letter `formation` shows on `map`: the ruleset's own from its key,
/// else [`formation_letter`].
pub(crate) fn letter_on(map: &MapView, formation: &str) -> String {
    let f = formation.trim();
    map.letters
        .iter()
        .find(|l| l.formation.eq_ignore_ascii_case(f))
        .map(|l| super::clean::line(&l.letter))
        .unwrap_or_else(|| formation_letter(f))
}

/// The legend's key to the letters: the ruleset's whole key when it gives
/// one (formations sharing a letter together: `A limbered or unlimbered`),
/// so that every map of a game explains the same letters; else the
/// standard key when every formation on the map is a standard one, else
/// each formation the map shows, in the map's order.
pub(crate) fn letter_key(map: &MapView) -> String {
    if !map.letters.is_empty() {
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        for l in &map.letters {
            let letter = super::clean::line(&l.letter);
            let formation = super::clean::line(&l.formation);
            match groups.iter_mut().find(|(g, _)| *g == letter) {
                Some((_, fs)) => fs.push(formation),
                None => groups.push((letter, vec![formation])),
            }
        }
        return groups
            .iter()
            .map(|(letter, fs)| format!("{letter} {}", either(fs)))
            .collect::<Vec<_>>()
            .join(" \u{b7} ");
    }
    let mut seen: Vec<String> = Vec::new();
    for u in &map.units {
        let f = super::clean::line(u.formation.trim()).to_ascii_lowercase();
        if !f.is_empty() && !seen.contains(&f) {
            seen.push(f);
        }
    }
    if seen.iter().all(|f| STANDARD.contains(&f.as_str())) {
        return "L line \u{b7} C column \u{b7} M massed \u{b7} A artillery".into();
    }
    seen.iter()
        .map(|f| format!("{} {f}", formation_letter(f)))
        .collect::<Vec<_>>()
        .join(" \u{b7} ")
}

/// `a`, `a or b`, `a, b or c`.
fn either(words: &[String]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// A side's colour by index; out-of-range indices draw neutral grey.
pub(crate) fn side_rgb(map: &MapView, side: usize) -> Rgb {
    map.sides
        .get(side)
        .map(|s| Rgb::for_side(&s.colour, side))
        .unwrap_or(NEUTRAL)
}

/// Facing as picture vectors (forward, right); picture `y` points down.
fn picture_axes(facing: f64) -> ((f64, f64), (f64, f64)) {
    let r = facing.to_radians();
    ((r.sin(), -r.cos()), (r.cos(), r.sin()))
}

/// Smoke puffs in front of a unit's front edge, sized to the table scale.
fn smoke_puffs(front_mid: (f64, f64), facing: f64, scale: f64) -> Vec<Circle> {
    let ((fx, fy), (rx, ry)) = picture_axes(facing);
    let r = (0.32 * scale).clamp(6.0, 22.0);
    let offsets = [
        (0.9, 0.0, 1.0),
        (1.5, -0.8, 0.8),
        (1.6, 0.8, 0.85),
        (2.3, 0.1, 0.7),
        (0.8, -1.1, 0.6),
    ];
    offsets
        .iter()
        .map(|(f, s, k)| {
            Circle::new(
                (
                    front_mid.0 + (fx * f + rx * s) * r,
                    front_mid.1 + (fy * f + ry * s) * r,
                ),
                r * k,
            )
        })
        .collect()
}

fn unit(
    frame: &Frame,
    map: &MapView,
    u: &UnitView,
    out: &mut UnitLayers,
) -> Result<(), RenderError> {
    let what = format!("unit {:?}", u.id);
    let anchor = frame.px(finite(u.anchor, &what)?);
    let facing = frame.facing(if u.facing.is_finite() { u.facing } else { 0.0 });
    let (mut min_x, mut min_y, mut max_x, mut max_y) = (anchor.0, anchor.1, anchor.0, anchor.1);
    let mut fronts = Vec::new();
    for (i, b) in u.bases.iter().enumerate() {
        let mut c = [(0.0, 0.0); 4];
        for (slot, p) in c.iter_mut().zip(b.corners.iter()) {
            *slot = frame.px(finite(*p, &what)?);
        }
        if i == 0 {
            (min_x, min_y, max_x, max_y) = (c[0].0, c[0].1, c[0].0, c[0].1);
        }
        for (x, y) in c {
            (min_x, min_y, max_x, max_y) = (min_x.min(x), min_y.min(y), max_x.max(x), max_y.max(y));
        }
        let rgb = side_rgb(map, b.side);
        out.bases.push(BaseShape {
            points: points(&c),
            fill: rgb.hex(),
            outline: rgb.darken(0.55).hex(),
            front: Line::new(c[0], c[1]),
            front_colour: rgb.darken(0.3).hex(),
            front_width: num((0.09 * frame.scale).clamp(2.5, 6.0)),
        });
        fronts.push(((c[0].0 + c[1].0) / 2.0, (c[0].1 + c[1].1) / 2.0));
    }
    let rgb = side_rgb(map, u.side);

    if u.smoke {
        let n = fronts.len().max(1) as f64;
        let mid = if fronts.is_empty() {
            anchor
        } else {
            let (sx, sy) = fronts
                .iter()
                .fold((0.0, 0.0), |(ax, ay), (x, y)| (ax + x, ay + y));
            (sx / n, sy / n)
        };
        out.smoke.extend(smoke_puffs(mid, facing, frame.scale));
    }
    if u.disruption > 0 {
        let at = (max_x + 10.0, (min_y + max_y) / 2.0);
        out.counters.push(Counter {
            disc: Circle::new(at, 8.5),
            text: Label::new((at.0, at.1 + 4.0), u.disruption.to_string(), "middle"),
        });
    }

    // The label goes behind the unit, away from the enemy it faces.
    let forward_y = picture_axes(facing).0.1;
    let note = u
        .note
        .as_deref()
        .map(super::clean::line)
        .filter(|n| !n.trim().is_empty());
    let (label_y, note_y) = if forward_y <= 1e-9 {
        (max_y + 15.0, max_y + 28.0)
    } else if note.is_some() {
        (min_y - 18.0, min_y - 5.0)
    } else {
        (min_y - 6.0, min_y - 6.0)
    };
    let name = super::clean::line(&u.label);
    let formation = letter_on(map, &super::clean::line(&u.formation));
    let bbox = label_backdrop(
        (anchor.0, label_y),
        &format!("{name} {formation}"),
        note.as_deref().map(|n| (note_y, n)),
    );
    let unit_box = BoxPx {
        x: min_x,
        y: min_y,
        w: max_x - min_x,
        h: max_y - min_y,
    };
    let side = Side {
        counter: if u.disruption > 0 { 22.0 } else { 0.0 },
        behind_first: forward_y <= 1e-9,
    };
    let candidates = around(&bbox, &unit_box, side);
    let mut label = UnitLabel {
        backdrop: Rect::new(bbox.x, bbox.y, bbox.w, bbox.h, "#ffffff"),
        label: Label::new((anchor.0, label_y), name.clone(), "middle"),
        formation,
        colour: rgb.darken(0.6).hex(),
        note: None,
        leader: None,
        shown: true,
        geom: LabelGeom {
            bbox,
            name_at: (anchor.0, label_y),
            note_at: note.as_ref().map(|_| (anchor.0, note_y)),
            target: anchor,
            unit_box,
            side,
            candidates,
            name,
            note,
        },
    };
    label.moved((0.0, 0.0), false);
    out.labels.push(label);
    Ok(())
}

/// Which side of its unit a label goes first, and the room its
/// disruption counter takes on the right.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side {
    pub counter: f64,
    /// The label's first place is below the unit (behind it, for a unit
    /// facing up the picture), not above.
    pub behind_first: bool,
}

/// The offsets a label's box `b` may take round its unit's box `unit`:
/// where it stands (behind the unit), then behind it clear of the unit, in
/// front, beside it, and further back.
fn around(b: &BoxPx, unit: &BoxPx, side: Side) -> Vec<(f64, f64)> {
    let (top, bottom) = (b.y, b.y + b.h);
    let above = unit.y - 3.0 - bottom;
    let below = unit.y + unit.h + 3.0 - top;
    let mid = unit.y + unit.h / 2.0 - (top + b.h / 2.0);
    let (back, front, sign) = if side.behind_first {
        (below, above, 1.0)
    } else {
        (above, below, -1.0)
    };
    let mut candidates = vec![(0.0, 0.0), (0.0, back), (0.0, front)];
    candidates.push((unit.x - 4.0 - (b.x + b.w), mid));
    candidates.push((unit.x + unit.w + 4.0 + side.counter - b.x, mid));
    for k in 1..=2 {
        candidates.push((0.0, back + sign * f64::from(k) * (b.h + 1.0)));
    }
    candidates
}

/// The box under a unit's name (bold, 13 px, baseline at `at`, centred)
/// and its note line (11 px) if any.
fn label_backdrop(at: (f64, f64), name: &str, note: Option<(f64, &str)>) -> BoxPx {
    const PAD: f64 = 3.0;
    // Bold glyphs run wider than the legend's estimate.
    let mut width = super::legend::text_width(name, 13.0) * 1.12;
    let (top, mut bottom) = (at.1 - 13.0 * 0.78, at.1 + 13.0 * 0.22);
    if let Some((y, text)) = note {
        width = width.max(super::legend::text_width(text, 11.0));
        bottom = bottom.max(y + 11.0 * 0.22);
    }
    BoxPx {
        x: at.0 - width / 2.0 - PAD,
        y: top - 1.0,
        w: width + 2.0 * PAD,
        h: bottom - top + 2.0,
    }
}

/// Layers for every unit on the map, in the view's order.
pub(crate) fn layers(frame: &Frame, map: &MapView) -> Result<UnitLayers, RenderError> {
    let mut out = UnitLayers::default();
    for u in &map.units {
        unit(frame, map, u, &mut out)?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formation_letters() {
        assert_eq!(formation_letter("line"), "L");
        assert_eq!(formation_letter("Column"), "C");
        assert_eq!(formation_letter("massed"), "M");
        assert_eq!(formation_letter("artillery"), "A");
        assert_eq!(formation_letter("skirmish"), "S");
        assert_eq!(formation_letter(""), "");
        assert_eq!(formation_letter("light cavalry"), "LC");
        assert_eq!(formation_letter("heavy  cavalry"), "HC");
    }

    fn map_of(formations: &[&str]) -> MapView {
        MapView {
            title: String::new(),
            width: 10.0,
            height: 10.0,
            unit: "in".into(),
            sides: Vec::new(),
            terrain: Vec::new(),
            units: formations
                .iter()
                .map(|f| UnitView {
                    id: (*f).into(),
                    label: (*f).into(),
                    side: 0,
                    bases: Vec::new(),
                    anchor: crate::geometry::Point { x: 1.0, y: 1.0 },
                    facing: 0.0,
                    formation: (*f).into(),
                    disruption: 0,
                    smoke: false,
                    note: None,
                    status: Vec::new(),
                })
                .collect(),
            markers: Vec::new(),
            arrows: Vec::new(),
            zones: Vec::new(),
            deployment: Vec::new(),
            turned: false,
            counter: None,
            letters: Vec::new(),
        }
    }

    #[test]
    fn a_rulesets_own_key_is_the_same_whatever_stands_on_the_table() {
        let mut a = map_of(&["line"]);
        let mut b = map_of(&["square", "limbered", "line"]);
        for m in [&mut a, &mut b] {
            m.letters = crate::view::Letter::key(&[
                ("line", "L"),
                ("square", "Sq"),
                ("unlimbered", "A"),
                ("limbered", "A"),
            ]);
        }
        let key = "L line \u{b7} Sq square \u{b7} A unlimbered or limbered";
        assert_eq!(letter_key(&a), key);
        assert_eq!(letter_key(&b), key);
        assert_eq!(letter_on(&b, "Square"), "Sq");
        assert_eq!(letter_on(&b, "mounted"), "M", "a formation the key lacks");
    }

    #[test]
    fn the_key_is_standard_unless_the_map_has_other_formations() {
        let standard = "L line \u{b7} C column \u{b7} M massed \u{b7} A artillery";
        assert_eq!(letter_key(&map_of(&["line", "battery"])), standard);
        assert_eq!(letter_key(&map_of(&[])), standard);
        assert_eq!(
            letter_key(&map_of(&[
                "infantry",
                "light cavalry",
                "infantry",
                "artillery"
            ])),
            "I infantry \u{b7} LC light cavalry \u{b7} A artillery"
        );
    }

    #[test]
    fn facing_up_the_table_points_up_the_picture() {
        let ((fx, fy), (rx, ry)) = picture_axes(0.0);
        assert!(fx.abs() < 1e-12 && fy < 0.0);
        assert!(rx > 0.0 && ry.abs() < 1e-12);
    }
}
