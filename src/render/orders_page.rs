//! The orders page (issue 32): one self-contained HTML file per side and
//! step, the side's own map with what it can do now as data, the ruleset's
//! writer and the signing scripts inline. It loads nothing and sends
//! nothing: its Content-Security-Policy allows only its own inline scripts
//! (by hash) and styles, and `connect-src 'none'`.

use super::RenderError;
use super::frame::{Frame, MARGIN_LEFT, TITLE_BAND};
use crate::geometry::Point;
use crate::view::MapView;
use crate::view::plan::{PagePlan, Plan};
use askama::Template;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// What the page says of itself: the envelope's fields and the side's key.
#[derive(Clone, Debug, Serialize)]
pub struct OrdersHead {
    pub game: String,
    pub step: u32,
    pub side: String,
    pub side_name: String,
    /// The sha256 of the step's notice, as an orders file's `notice:`.
    pub notice: String,
    /// The revision the page's file carries.
    pub revision: u32,
    pub ruleset: String,
    /// The side's key on record, as `ssh-keygen -l` prints it.
    pub fingerprint: String,
    /// The table's measure (`cm`, `BW`, `in`).
    pub measure: String,
    /// The step's heading ("Turn 2, French phasing").
    pub heading: String,
    /// What the step asks of this side.
    pub note: String,
}

/// Where the table is in the map picture, for the page's pointer.
#[derive(Clone, Debug, Serialize)]
struct FramePx {
    scale: f64,
    left: f64,
    top: f64,
    table_w: f64,
    table_h: f64,
    turned: bool,
}

#[derive(Serialize)]
struct PageData<'a> {
    head: &'a OrdersHead,
    frame: FramePx,
    plan: &'a Plan,
    /// Each planned unit's bases, each as its corners around the unit's
    /// `at` in the unit's own frame (x to its right, y ahead), so the page
    /// can draw it anywhere.
    outlines: BTreeMap<&'a str, Vec<Vec<[f64; 2]>>>,
    template: &'a str,
}

#[derive(Template)]
#[template(path = "orders.html")]
struct OrdersHtml<'a> {
    title: String,
    csp: String,
    style: &'a str,
    map: String,
    scripts: Vec<&'a str>,
}

/// The scripts every orders page carries, in load order, before the
/// ruleset's writer and the page itself.
const VENDOR: &str = include_str!("../../site/vendor/orders-vendor.js");
const SIGN: &str = include_str!("../../site/orders/sign.js");
const WRITE: &str = include_str!("../../site/orders/write.js");
const PAGE: &str = include_str!("../../site/orders/page.js");
const STYLE: &str = include_str!("../../site/orders/page.css");
/// The writer of a ruleset that offers no plan: the hand-edited file.
const BY_HAND: &str = include_str!("../../site/orders/by-hand.js");

/// The page for `head`'s side and step over `map` (the side's own view of
/// the state the orders are for) with the ruleset's plan, or the orders
/// template alone to edit by hand when it has none.
pub fn orders_page(
    head: &OrdersHead,
    map: &MapView,
    plan: Option<&PagePlan>,
    template: &str,
) -> Result<String, RenderError> {
    let mut map = map.clone();
    if map.title.is_empty() {
        map.title = format!(
            "{}, step {}: orders of {}",
            head.game, head.step, head.side_name
        );
    }
    let frame = Frame::new(&map)?;
    let empty = Plan::default();
    let (plan_data, writer) = match plan {
        Some(p) => (&p.plan, p.writer),
        None => (&empty, BY_HAND),
    };
    let data = PageData {
        head,
        frame: FramePx {
            scale: frame.scale,
            left: MARGIN_LEFT,
            top: TITLE_BAND,
            table_w: frame.table_w,
            table_h: frame.table_h,
            turned: frame.turned,
        },
        plan: plan_data,
        outlines: outlines(&map, plan_data),
        template,
    };
    let json = serde_json::to_string(&data)
        .map_err(|e| RenderError::InvalidMap(format!("the page's data: {e}")))?;
    let data = format!(
        "window.GalloperPage = {};",
        json.replace("</", "<\\/").replace("<!--", "<\\!--")
    );
    let scripts = vec![VENDOR, SIGN, WRITE, writer, data.as_str(), PAGE];
    let hashes: Vec<String> = scripts.iter().map(|s| script_hash(s)).collect();
    let csp = format!(
        "default-src 'none'; script-src {}; style-src 'unsafe-inline'; img-src data: blob:; connect-src 'none'; form-action 'none'; base-uri 'none'",
        hashes.join(" ")
    );
    let page = OrdersHtml {
        title: super::clean::line(&format!(
            "Orders: {}, step {}, {}",
            head.game, head.step, head.side_name
        )),
        csp,
        style: STYLE,
        map: super::map_svg(&map)?,
        scripts,
    };
    Ok(page.render()?)
}

/// CSP's hash of an inline script: the sha256 of its exact text.
fn script_hash(text: &str) -> String {
    let mut b64 = String::new();
    crate::base64::encode(&Sha256::digest(text.as_bytes()), &mut b64);
    format!("'sha256-{b64}'")
}

/// Each planned unit's base corners in its own frame around its `at`.
fn outlines<'a>(map: &MapView, plan: &'a Plan) -> BTreeMap<&'a str, Vec<Vec<[f64; 2]>>> {
    let mut out = BTreeMap::new();
    for u in &plan.units {
        let Some(view) = map.units.iter().find(|v| v.id == u.id) else {
            continue;
        };
        let (s, c) = u.facing.to_radians().sin_cos();
        let local = |p: Point| {
            let (dx, dy) = (p.x - u.at.x, p.y - u.at.y);
            // Right is (cos, -sin), ahead is (sin, cos) for a facing
            // clockwise from +y.
            let r = |v: f64| (v * 100.0).round() / 100.0;
            [r(dx * c - dy * s), r(dx * s + dy * c)]
        };
        let corners = view
            .bases
            .iter()
            .map(|b| b.corners.iter().copied().map(local).collect())
            .collect();
        out.insert(u.id.as_str(), corners);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::plan::{MoveShape, Reach, UnitPlan};
    use crate::view::{BaseView, UnitView};

    fn unit_at(x: f64, y: f64, facing: f64) -> UnitView {
        // A 4 by 2 base whose front centre is (x, y), facing `facing`.
        let (s, c) = facing.to_radians().sin_cos();
        let at = |lx: f64, ly: f64| Point {
            x: x + lx * c + ly * s,
            y: y - lx * s + ly * c,
        };
        UnitView {
            id: "u1".into(),
            label: "First".into(),
            side: 0,
            bases: vec![BaseView {
                corners: [at(-2.0, 0.0), at(2.0, 0.0), at(2.0, -2.0), at(-2.0, -2.0)],
                side: 0,
            }],
            anchor: Point { x, y },
            facing,
            formation: "line".into(),
            disruption: 0,
            smoke: false,
            note: None,
            status: Vec::new(),
        }
    }

    fn map() -> MapView {
        MapView {
            title: String::new(),
            width: 100.0,
            height: 60.0,
            unit: "cm".into(),
            sides: vec![crate::view::SideStyle {
                side: crate::side::SideId::new("french"),
                name: "French".into(),
                colour: "#1d4f9e".into(),
            }],
            terrain: Vec::new(),
            units: vec![unit_at(30.0, 20.0, 90.0)],
            markers: Vec::new(),
            arrows: Vec::new(),
            zones: Vec::new(),
            deployment: Vec::new(),
            turned: false,
            counter: None,
            letters: Vec::new(),
        }
    }

    fn plan() -> Plan {
        Plan {
            units: vec![UnitPlan {
                id: "u1".into(),
                label: "First </script><b>".into(),
                at: Point { x: 30.0, y: 20.0 },
                facing: 90.0,
                formation: "line".into(),
                reach: Some(Reach {
                    full: 12.0,
                    turned: Some(6.0),
                    road: None,
                    shape: MoveShape::Free,
                    shortened_by: Vec::new(),
                    ground: Vec::new(),
                }),
                formations: Vec::new(),
                targets: Vec::new(),
                fields: Vec::new(),
                notes: Vec::new(),
            }],
            ..Plan::default()
        }
    }

    fn head() -> OrdersHead {
        OrdersHead {
            game: "g1".into(),
            step: 2,
            side: "french".into(),
            side_name: "French".into(),
            notice: "ab".repeat(32),
            revision: 1,
            ruleset: "napoleonic-corps".into(),
            fingerprint: "SHA256:x".into(),
            measure: "cm".into(),
            heading: "Turn 1".into(),
            note: "orders".into(),
        }
    }

    #[test]
    fn an_outline_is_its_bases_in_the_units_own_frame() {
        let p = plan();
        let o = outlines(&map(), &p);
        // Facing 90 (towards +x): the base's front-left corner is 2 to the
        // unit's left of its front centre, on its front line.
        assert_eq!(
            o["u1"],
            vec![vec![[-2.0, 0.0], [2.0, 0.0], [2.0, -2.0], [-2.0, -2.0]]]
        );
    }

    #[test]
    fn the_page_allows_only_its_own_scripts_and_no_connection() {
        let p = PagePlan {
            plan: plan(),
            writer: "/* writer */",
        };
        let html = orders_page(&head(), &map(), Some(&p), "orders: {}\n").unwrap();
        let csp_line = html
            .lines()
            .find(|l| l.contains("Content-Security-Policy"))
            .expect("a CSP meta line")
            .replace("&#39;", "'")
            .replace("&#x27;", "'");
        assert!(csp_line.contains("connect-src 'none'"));
        assert!(!csp_line.contains("script-src 'unsafe-inline'"));
        // Every inline script is allowed by its hash, and only those.
        let scripts: Vec<&str> = html.split("<script>").skip(1).collect();
        assert_eq!(scripts.len(), 6);
        for s in scripts {
            let body = s.split("</script>").next().unwrap();
            assert!(
                csp_line.contains(&script_hash(body)),
                "a script without its hash"
            );
        }
        // A unit's name cannot close the data's script.
        assert!(!html.contains("First </script>"));
        assert!(!html.contains("src=\"http"));
    }
}
