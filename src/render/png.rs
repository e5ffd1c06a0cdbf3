//! The map rasterised for mail readers that show no SVG.

use super::RenderError;
use resvg::{tiny_skia, usvg};
use std::sync::OnceLock;

/// Parser options with DejaVu Sans built in: a fresh machine may have no
/// system fonts at all, and usvg silently drops text it cannot shape. Built
/// once because loading and indexing the fonts costs more than a render.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| options_with(without_legacy_kern))
}

fn options_with(font: fn(Vec<u8>) -> Vec<u8>) -> usvg::Options<'static> {
    let mut opt = usvg::Options::default();
    let db = opt.fontdb_mut();
    for face in [
        dejavu::sans::regular(),
        dejavu::sans::bold(),
        dejavu::sans::oblique(),
        dejavu::sans::bold_oblique(),
    ] {
        db.load_font_data(font(face.to_vec()));
    }
    db.set_sans_serif_family("DejaVu Sans");
    opt.font_family = "DejaVu Sans".into();
    // Our SVG never references files; refuse any that slipped in.
    opt.resources_dir = None;
    opt.image_href_resolver = usvg::ImageHrefResolver {
        resolve_data: Box::new(|_, _, _| None),
        resolve_string: Box::new(|_, _| None),
    };
    opt
}

/// The font with its legacy `kern` table hidden. The shaper builds a cache
/// of that table's 2,727 pairs for every text element it lays out (a fifth
/// of the map's drawing), yet never applies it: DejaVu Sans kerns through
/// its `GPOS` table, which the shaper prefers. The table's record is renamed
/// `kerN`, which keeps the table directory sorted; the glyphs, their places
/// and so the pixels are unchanged (a render test compares them).
fn without_legacy_kern(mut font: Vec<u8>) -> Vec<u8> {
    let tables = font
        .get(4..6)
        .map(|n| u16::from_be_bytes([n[0], n[1]]) as usize)
        .unwrap_or(0);
    for i in 0..tables {
        let at = 12 + 16 * i;
        if font.get(at..at + 4) == Some(b"kern") {
            font[at + 3] = b'N';
        }
    }
    font
}

/// Parses an SVG document with the built-in fonts.
pub(crate) fn parse(svg: &str) -> Result<usvg::Tree, RenderError> {
    Ok(usvg::Tree::from_str(svg, options())?)
}

/// Rasterises an SVG document at its own pixel size.
pub(crate) fn rasterise(svg: &str) -> Result<Vec<u8>, RenderError> {
    encode(draw(&parse(svg)?)?)
}

pub(super) fn draw(tree: &usvg::Tree) -> Result<tiny_skia::Pixmap, RenderError> {
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        RenderError::Png(format!(
            "cannot allocate {}x{} pixels",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(tree, tiny_skia::Transform::identity(), &mut pixmap.as_mut());
    Ok(pixmap)
}

/// Encodes the pixmap with the `png` crate rather than tiny-skia's
/// `encode_png`, whose default level 6 took more time than the drawing. An
/// opaque map, which every map is, is written with a palette of at most 256
/// colours ([`super::palette`]), one byte a pixel, unfiltered at deflate
/// level 3 (flat colours in long runs compress best unfiltered): a third
/// of the bytes for a few milliseconds more, since the map is most of a
/// report mail (issue 31 item 10). Measured in one release process on the
/// bench's two maps of 30 units a side (1400x406 and 1400x411 pixels),
/// against RGBA at level 1: 38 KB in 7.2 ms against 111 KB in 3.5 ms, and
/// 67 KB in 11.7 ms against 186 KB in 8.7 ms. An image with
/// alpha, or too many colours, is written RGBA at level 1 (on a demo map of
/// 1400x1043 pixels: level 6 32 ms, 218 KB; level 1 8.5 ms, 282 KB).
pub(super) fn encode(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let (width, height) = (pixmap.width(), pixmap.height());
    // PNG holds straight alpha; tiny-skia keeps premultiplied pixels.
    let rgba = pixmap.take_demultiplied();
    let mut out = Vec::with_capacity(rgba.len() / 16);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_depth(png::BitDepth::Eight);
    let indexed = super::palette::index(&rgba);
    let data = match indexed {
        Some(ix) => {
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(ix.palette);
            encoder.set_deflate_compression(png::DeflateCompression::Level(3));
            encoder.set_filter(png::Filter::NoFilter);
            ix.pixels
        }
        None => {
            encoder.set_color(png::ColorType::Rgba);
            encoder.set_deflate_compression(png::DeflateCompression::Level(1));
            encoder.set_filter(png::Filter::Adaptive);
            rgba
        }
    };
    let mut writer = encoder
        .write_header()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .write_image_data(&data)
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pairs that kern in DejaVu Sans, in each face the maps use.
    const KERNED: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="420" height="120">
<text x="5" y="25" font-size="18">AVATAR Wave To LT Yo P. F. 7th Foot</text>
<text x="5" y="55" font-size="18" font-weight="bold">AVATAR Wave To LT Yo</text>
<text x="5" y="85" font-size="18" font-style="italic">AVATAR Wave To LT Yo</text>
<text x="5" y="112" font-size="11" font-weight="bold" font-style="italic">Tw Ty Av Ay Fo Vo We Ya</text>
</svg>"#;

    fn pixels(opt: &usvg::Options) -> Vec<u8> {
        let tree = usvg::Tree::from_str(KERNED, opt).expect("the test SVG parses");
        draw(&tree).expect("it draws").data().to_vec()
    }

    #[test]
    fn hiding_the_legacy_kern_table_changes_no_pixel() {
        let hidden = pixels(options());
        assert_eq!(hidden, pixels(&options_with(|f| f)));
        // The test's text is kerned: with GPOS hidden too, nothing kerns.
        let unkerned = options_with(|f| {
            let mut f = without_legacy_kern(f);
            let at = (0..u16::from_be_bytes([f[4], f[5]]) as usize)
                .map(|i| 12 + 16 * i)
                .find(|&at| &f[at..at + 4] == b"GPOS")
                .expect("DejaVu Sans has a GPOS table");
            f[at + 3] = b's';
            f
        });
        assert_ne!(hidden, pixels(&unkerned));
    }

    #[test]
    fn the_kern_record_is_renamed_in_every_face_and_the_directory_stays_sorted() {
        for face in [dejavu::sans::regular(), dejavu::sans::bold_oblique()] {
            let font = without_legacy_kern(face.to_vec());
            let n = u16::from_be_bytes([font[4], font[5]]) as usize;
            let tags: Vec<&[u8]> = (0..n).map(|i| &font[12 + 16 * i..16 + 16 * i]).collect();
            assert!(tags.contains(&&b"kerN"[..]));
            assert!(!tags.contains(&&b"kern"[..]));
            assert!(tags.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
