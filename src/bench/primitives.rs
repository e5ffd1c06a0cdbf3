//! The unavoidable work of a step, measured alone: SHA-256 of its inputs,
//! one ed25519 verification per signature, the ChaCha20 words of its dice,
//! and rasterising its map (resvg, without parsing or PNG encoding).

use super::stats::{Samples, repeat};
use crate::render;
use ed25519_dalek::{Signer, SigningKey, Verifier};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use resvg::tiny_skia;
use sha2::{Digest, Sha256};

/// Each primitive's median, in seconds, with what it covered.
pub struct Primitives {
    pub rows: Vec<(String, Samples)>,
}

impl Primitives {
    /// The sum of the medians, with `rasters` rasterisations.
    pub fn sum(&self) -> f64 {
        self.rows.iter().map(|(_, s)| s.median()).sum()
    }
}

/// Measure the primitives of a step with `input_bytes` of input,
/// `signatures` signatures, `dice` dice and `rasters` rasterisations of `svg`.
pub fn measure(
    input_bytes: &[u8],
    signatures: usize,
    dice: usize,
    svg: &str,
    rasters: usize,
    reps: usize,
) -> anyhow::Result<Primitives> {
    let mut rows = Vec::new();
    let (t, _) = repeat(reps, || Ok(Sha256::digest(input_bytes)))?;
    rows.push((
        format!("SHA-256 of the inputs ({} bytes)", input_bytes.len()),
        t,
    ));
    let key = SigningKey::from_bytes(&[7u8; 32]);
    let public = key.verifying_key();
    // SSHSIG signs a 32-byte-hash blob of about 100 bytes.
    let blob = [42u8; 100];
    let signature = key.sign(&blob);
    let (t, _) = repeat(reps, || {
        for _ in 0..signatures {
            public
                .verify(&blob, &signature)
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        Ok(())
    })?;
    rows.push((format!("ed25519 verify x {signatures}"), t));
    let (t, _) = repeat(reps, || {
        // Both streams of the step are keyed, then one word per die.
        let mut public = ChaCha20Rng::from_seed([1u8; 32]);
        let mut hidden = ChaCha20Rng::from_seed([2u8; 32]);
        let mut acc = hidden.next_u32();
        for _ in 0..dice {
            acc ^= public.next_u32();
        }
        Ok(acc)
    })?;
    rows.push((format!("ChaCha20 for {dice} dice"), t));
    let tree = render::parse_svg(svg)?;
    let size = tree.size().to_int_size();
    let (t, _) = repeat(reps, || {
        for _ in 0..rasters {
            let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
                .ok_or_else(|| anyhow::anyhow!("cannot allocate the pixmap"))?;
            resvg::render(
                &tree,
                tiny_skia::Transform::identity(),
                &mut pixmap.as_mut(),
            );
            std::hint::black_box(&pixmap);
        }
        Ok(())
    })?;
    rows.push((
        format!(
            "rasterise the map x {rasters} ({}x{} px)",
            size.width(),
            size.height()
        ),
        t,
    ));
    Ok(Primitives { rows })
}

/// The sum of the primitives of one played step, measured once each right
/// after the step, so that a step and its primitives run under the same
/// load: SHA-256 of its orders mails and the state it started from, one
/// ed25519 verification per orders file, the ChaCha20 words of its dice,
/// and drawing and encoding as PNG each distinct map of the step (every
/// reader's and the archive's) once. Parsing the SVG and laying out its
/// text are the step's own work, not primitives.
pub fn of_step(p: &super::play::Played, step: u32, mails: &[Vec<u8>]) -> anyhow::Result<f64> {
    use crate::server::report::{StepReading, archive_sight};
    use anyhow::Context;
    let steps = p.server.store().steps(&p.game)?;
    let i = steps
        .iter()
        .position(|s| s.step == step)
        .context("the played step is stored")?;
    let row = &steps[i];
    let res = row.result.as_ref().context("the played step is resolved")?;
    let next = steps.get(i + 1);
    let orders = p.server.store().latest_orders(&p.game, step)?;
    let g = p.server.store().game(&p.game)?.context("the game exists")?;
    let sides = p.rules.sides(&g.scenario)?;
    let inputs = crate::server::dice_inputs_for(row, &orders, &sides);
    let dice: Vec<crate::dice::DieRecord> = crate::yaml::from_str(&res.dice)?;
    // The maps, as the step drew them: each reader's and the archive's.
    let heading = p.rules.due(&row.state_before)?.heading;
    let reading = StepReading::new(p.rules, &p.game, row, res, &inputs, next)?;
    let mut maps = super::phases::reader_maps(&reading, &sides)?;
    let after = p.rules.load(&res.state_after)?;
    maps.insert(render::map_svg(
        &archive_sight(&*after, &p.game, step, &heading).map,
    )?);
    let trees = maps
        .iter()
        .map(|svg| render::parse_svg(svg))
        .collect::<Result<Vec<_>, _>>()?;
    let mut bytes = mails.concat();
    bytes.extend_from_slice(row.state_before.as_bytes());

    let key = SigningKey::from_bytes(&[7u8; 32]);
    let public = key.verifying_key();
    let blob = [42u8; 100];
    let signature = key.sign(&blob);
    let t = std::time::Instant::now();
    std::hint::black_box(Sha256::digest(&bytes));
    for _ in 0..orders.len() {
        public
            .verify(&blob, &signature)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let mut public_stream = ChaCha20Rng::from_seed(inputs.public_seed);
    let mut hidden_stream = ChaCha20Rng::from_seed(inputs.hidden_seed);
    let mut acc = hidden_stream.next_u32();
    for _ in 0..dice.len() {
        acc ^= public_stream.next_u32();
    }
    std::hint::black_box(acc);
    let mut sum = t.elapsed();
    for tree in &trees {
        let (drawn, encoded, png) = render::draw_and_encode(tree)?;
        std::hint::black_box(png);
        sum += drawn + encoded;
    }
    Ok(sum.as_secs_f64())
}
