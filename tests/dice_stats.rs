//! Are the dice fair? 10^6 each of d6, d10, the average die and 2D6, drawn
//! through the real protocol: 1,000 steps, each with its own secrets, two
//! orders files with their own entropy, their hashes mixed and the seeds
//! made as `src/dice/protocol.rs` makes them, then 1,000 of each die from
//! `Dice::from_seeds`.
//!
//! - Goodness of fit: Pearson's chi-square against the exact distribution,
//!   at significance alpha = 0.001. The critical values are the 0.999
//!   quantiles of the chi-square distribution (NIST/SEMATECH e-Handbook of
//!   Statistical Methods, table 1.3.6.7.4, "Critical values of the
//!   chi-square distribution"); the test recomputes each from the
//!   incomplete gamma function as a check on the table.
//! - Independence: the lag-1 serial correlation r of consecutive dice of the
//!   same kind. For independent dice r is about normal with mean 0 and
//!   standard deviation 1/sqrt(n); the bound |r| < 4/sqrt(n) is four
//!   standard deviations (a fair stream exceeds it with probability 6e-5).
//!
//! The secrets are derived from the step number, so the run is reproducible:
//! the same figures every time, on every machine. The table goes to the test
//! output and to `$CARGO_TARGET_TMPDIR/dice-stats.txt`, which `scripts/test`
//! prints.

use galloper::dice::protocol::{commit, mix, order_hash, seed};
use galloper::dice::{Dice, StreamKind};
use sha2::{Digest, Sha256};

const STEPS: u32 = 1000;
const DRAWS_PER_STEP: usize = 1000;
const ALPHA: f64 = 0.001;

/// One kind of die: its name, the faces' probabilities, the critical value
/// of chi-square at ALPHA for its degrees of freedom (faces - 1).
struct Kind {
    name: &'static str,
    /// (face value, probability), every face that can come up.
    faces: Vec<(u32, f64)>,
    critical: f64,
}

fn kinds() -> Vec<Kind> {
    let uniform = |n: u32| (1..=n).map(|v| (v, 1.0 / f64::from(n))).collect();
    vec![
        Kind {
            name: "d6",
            faces: uniform(6),
            critical: 20.515, // df 5
        },
        Kind {
            name: "d10",
            faces: uniform(10),
            critical: 27.877, // df 9
        },
        Kind {
            name: "average die",
            faces: vec![
                (2, 1.0 / 6.0),
                (3, 2.0 / 6.0),
                (4, 2.0 / 6.0),
                (5, 1.0 / 6.0),
            ],
            critical: 16.266, // df 3
        },
        Kind {
            name: "2D6",
            faces: (2..=12)
                .map(|s: u32| (s, f64::from(6 - s.abs_diff(7)) / 36.0))
                .collect(),
            critical: 29.588, // df 10
        },
    ]
}

/// The four sequences of dice, 10^6 each, from STEPS steps of the protocol.
fn draw_all() -> [Vec<u32>; 4] {
    let n = STEPS as usize * DRAWS_PER_STEP;
    let mut out: [Vec<u32>; 4] = std::array::from_fn(|_| Vec::with_capacity(n));
    let game = "dice-stats";
    for step in 1..=STEPS {
        let secret = |kind: &str| -> [u8; 32] {
            Sha256::digest(format!("dice stats {kind} secret {step}")).into()
        };
        let (public, hidden) = (secret("public"), secret("hidden"));
        // What the notice would publish; the seeds below must come from the
        // same secrets, so they are computed even though nothing checks them here.
        let _ = (
            commit(StreamKind::Public, game, step, &public),
            commit(StreamKind::Hidden, game, step, &hidden),
        );
        // Two sides' orders files, each with its own entropy, as the
        // players would send them; the mix is their hashes in side order.
        let files: Vec<String> = ["french", "british"]
            .iter()
            .map(|side| {
                let entropy = hex::encode(&Sha256::digest(format!("{side} {step}"))[..16]);
                format!(
                    "galloper: 1\ngame: {game}\nstep: {step}\nside: {side}\nentropy: {entropy}\norders:\n  round: {{command: pass}}\n"
                )
            })
            .collect();
        let hashes: Vec<_> = files.iter().map(|f| order_hash(f.as_bytes())).collect();
        let mixed = mix(&hashes);
        let mut dice = Dice::from_seeds(
            seed(StreamKind::Public, &public, &mixed),
            seed(StreamKind::Hidden, &hidden, &mixed),
        );
        for _ in 0..DRAWS_PER_STEP {
            out[0].push(dice.d6("stats"));
            out[1].push(dice.d10("stats"));
            out[2].push(dice.average_die("stats"));
            out[3].push(dice.two_d6("stats"));
        }
    }
    out
}

fn chi_square(values: &[u32], faces: &[(u32, f64)]) -> f64 {
    let n = values.len() as f64;
    let mut counts = vec![0u64; faces.len()];
    for v in values {
        let i = faces
            .iter()
            .position(|(f, _)| f == v)
            .unwrap_or_else(|| panic!("impossible face {v}"));
        counts[i] += 1;
    }
    faces
        .iter()
        .zip(&counts)
        .map(|((_, p), &c)| {
            let expected = n * p;
            (c as f64 - expected).powi(2) / expected
        })
        .sum()
}

/// Lag-1 serial correlation (Pearson's r of x[i] against x[i+1]).
fn lag1(values: &[u32]) -> f64 {
    let x: Vec<f64> = values.iter().map(|&v| f64::from(v)).collect();
    let n = x.len();
    let (a, b) = (&x[..n - 1], &x[1..]);
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    let (ma, mb) = (mean(a), mean(b));
    let mut sab = 0.0;
    let mut saa = 0.0;
    let mut sbb = 0.0;
    for (p, q) in a.iter().zip(b) {
        sab += (p - ma) * (q - mb);
        saa += (p - ma).powi(2);
        sbb += (q - mb).powi(2);
    }
    sab / (saa * sbb).sqrt()
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7, nine terms; ample for a p-value).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let s = C[0] + (1..9).map(|i| C[i] / (x + i as f64)).sum::<f64>();
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + s.ln()
}

/// P(chi-square with `df` degrees of freedom > x): the regularised upper
/// incomplete gamma Q(df/2, x/2), by its series below a + 1 and its
/// continued fraction above.
fn p_value(x: f64, df: usize) -> f64 {
    let a = df as f64 / 2.0;
    let x = x / 2.0;
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        let (mut term, mut sum, mut n) = (1.0 / a, 1.0 / a, a);
        while term.abs() > sum.abs() * 1e-15 {
            n += 1.0;
            term *= x / n;
            sum += term;
        }
        1.0 - sum * front
    } else {
        // Lentz's method for the continued fraction.
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..500 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            d = if d.abs() < tiny { tiny } else { d };
            c = b + an / c;
            c = if c.abs() < tiny { tiny } else { c };
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

#[test]
fn the_table_critical_values_are_the_0_999_quantiles() {
    for k in kinds() {
        let df = k.faces.len() - 1;
        let p = p_value(k.critical, df);
        assert!(
            (p - ALPHA).abs() < 2e-6,
            "{}: P(chi2_{df} > {}) = {p}, not {ALPHA}",
            k.name,
            k.critical
        );
    }
}

#[test]
fn a_million_of_each_die_fit_their_distribution_and_are_uncorrelated() {
    let draws = draw_all();
    let mut table = format!(
        "Dice statistics: {STEPS} steps x {DRAWS_PER_STEP} draws of each die through the commit-reveal protocol\n\
         chi-square at alpha = {ALPHA} (critical values: NIST/SEMATECH table 1.3.6.7.4); lag-1 correlation bound 4/sqrt(n)\n\
         {:<12} {:>9} {:>3} {:>9} {:>9} {:>8} {:>10} {:>9}  {}\n",
        "die", "n", "df", "chi2", "critical", "p", "lag-1 r", "bound", "verdict"
    );
    let mut failures = Vec::new();
    for (k, values) in kinds().iter().zip(&draws) {
        let n = values.len();
        assert!(n >= 1_000_000);
        let df = k.faces.len() - 1;
        let chi2 = chi_square(values, &k.faces);
        let p = p_value(chi2, df);
        let r = lag1(values);
        let bound = 4.0 / (n as f64).sqrt();
        let ok = chi2 < k.critical && r.abs() < bound;
        table.push_str(&format!(
            "{:<12} {n:>9} {df:>3} {chi2:>9.3} {:>9.3} {p:>8.4} {r:>10.6} {bound:>9.6}  {}\n",
            k.name,
            k.critical,
            if ok { "pass" } else { "FAIL" }
        ));
        if !ok {
            failures.push(k.name);
        }
    }
    print!("{table}");
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("dice-stats.txt"),
        &table,
    )
    .unwrap();
    assert!(failures.is_empty(), "out of bounds: {failures:?}\n{table}");
}
