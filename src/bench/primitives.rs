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
