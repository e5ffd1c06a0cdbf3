//! The map's pixels as a palette of at most 256 colours, so that its PNG is
//! written with one byte a pixel (issue 31 item 10: report mails are light).
//! A map is flat fills, lines and text: a few colours cover nearly every
//! pixel, and the rest are the blends of anti-aliased edges. When the image
//! has 256 colours or fewer the palette holds them all and nothing changes;
//! otherwise it holds the 256 most used, and each other colour is drawn as
//! its nearest among them (an edge's blend as a neighbouring blend). On a
//! map of 30 units a side this took the PNG from 111 KB to 38 KB; the
//! side colours, the table's fills and the lines, the most used, stay
//! exact.

/// Most colours a palette holds.
const MAX: usize = 256;

/// Slots of the colour table: an image with more than half as many colours
/// is no map, and keeps its RGBA.
const SLOTS: usize = 1 << 16;

/// An opaque image as palette indices.
pub(super) struct Indexed {
    /// `r, g, b` for each entry, in index order.
    pub palette: Vec<u8>,
    /// One index a pixel, row by row.
    pub pixels: Vec<u8>,
}

/// The colours of an image and how many pixels each has, in a table of
/// its own (open addressing): the general hash maps are many times slower
/// in a debug build, which every test's map goes through.
struct Colours {
    /// The colour in each slot, `EMPTY` when none.
    keys: Vec<u32>,
    counts: Vec<u64>,
    len: usize,
}

const EMPTY: u32 = u32::MAX;

impl Colours {
    fn new() -> Colours {
        Colours {
            keys: vec![EMPTY; SLOTS],
            counts: vec![0; SLOTS],
            len: 0,
        }
    }

    /// The slot of `c`, taken for it if new; `None` when the table is full.
    fn slot(&mut self, c: u32) -> Option<usize> {
        let mut at = (c.wrapping_mul(0x9E37_79B1) >> 16) as usize % SLOTS;
        loop {
            if self.keys[at] == c {
                return Some(at);
            }
            if self.keys[at] == EMPTY {
                if self.len >= SLOTS / 2 {
                    return None;
                }
                self.keys[at] = c;
                self.len += 1;
                return Some(at);
            }
            at = (at + 1) % SLOTS;
        }
    }
}

/// The palette form of straight-alpha RGBA pixels, or `None` when a pixel
/// is not opaque or the image has too many colours (the PNG then keeps its
/// RGBA). The same pixels always give the same palette and indices.
pub(super) fn index(rgba: &[u8]) -> Option<Indexed> {
    // Each pixel as one word, alpha included.
    let word = |i: usize| u32::from_be_bytes([rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3]]);
    let end = rgba.len() - rgba.len() % 4;
    let mut colours = Colours::new();
    // Runs of one colour: a map is mostly long runs, each looked up once.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < end {
        let w = word(i);
        if w & 0xff != 0xff {
            return None;
        }
        let start = i;
        i += 4;
        while i < end && word(i) == w {
            i += 4;
        }
        let at = colours.slot(w >> 8)?;
        colours.counts[at] += ((i - start) / 4) as u64;
        runs.push((i, at));
    }
    // Most used first; equal counts by colour, so the order is fixed.
    let mut by_use: Vec<(u64, u32, usize)> = (0..SLOTS)
        .filter(|&at| colours.keys[at] != EMPTY)
        .map(|at| (colours.counts[at], colours.keys[at], at))
        .collect();
    by_use.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let kept: Vec<u32> = by_use.iter().take(MAX).map(|&(_, c, _)| c).collect();
    // Each slot's palette index, reusing the counts' table.
    let mut index_of = vec![0u8; SLOTS];
    for (n, &(_, c, at)) in by_use.iter().enumerate() {
        // A kept colour is its own entry; only the others are looked for.
        index_of[at] = match u8::try_from(n) {
            Ok(i) if n < MAX => i,
            _ => nearest(c, &kept),
        };
    }
    let mut pixels = vec![0u8; end / 4];
    let mut from = 0;
    for (to, at) in runs {
        pixels[from / 4..to / 4].fill(index_of[at]);
        from = to;
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
    fn an_image_of_too_many_colours_keeps_its_rgba() {
        let many: Vec<[u8; 3]> = (0..40_000u32)
            .map(|n| {
                let [_, r, g, b] = n.to_be_bytes();
                [r, g, b]
            })
            .collect();
        assert!(index(&rgba(&many)).is_none());
        assert!(index(&rgba(&many[..30_000])).is_some());
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
