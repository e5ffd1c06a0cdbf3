//! The map rasterised for mail readers that show no SVG.

use super::RenderError;
use resvg::{tiny_skia, usvg};
use std::sync::OnceLock;

/// Parser options with DejaVu Sans built in: a fresh machine may have no
/// system fonts at all, and usvg silently drops text it cannot shape. Built
/// once because loading and indexing the fonts costs more than a render.
fn options() -> &'static usvg::Options<'static> {
    static OPTIONS: OnceLock<usvg::Options<'static>> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let mut opt = usvg::Options::default();
        let db = opt.fontdb_mut();
        db.load_font_data(dejavu::sans::regular().to_vec());
        db.load_font_data(dejavu::sans::bold().to_vec());
        db.load_font_data(dejavu::sans::oblique().to_vec());
        db.load_font_data(dejavu::sans::bold_oblique().to_vec());
        db.set_sans_serif_family("DejaVu Sans");
        opt.font_family = "DejaVu Sans".into();
        // Our SVG never references files; refuse any that slipped in.
        opt.resources_dir = None;
        opt.image_href_resolver = usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        };
        opt
    })
}

/// Parses an SVG document with the built-in fonts.
pub(crate) fn parse(svg: &str) -> Result<usvg::Tree, RenderError> {
    Ok(usvg::Tree::from_str(svg, options())?)
}

/// Rasterises an SVG document at its own pixel size.
pub(crate) fn rasterise(svg: &str) -> Result<Vec<u8>, RenderError> {
    let tree = parse(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        RenderError::Png(format!(
            "cannot allocate {}x{} pixels",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    encode(pixmap)
}

/// Encodes the pixmap with the `png` crate at deflate level 1 rather than
/// tiny-skia's `encode_png`, whose default level 6 took more time than the
/// drawing. Measured on a Morschauser demo map (1400x1043): level 6 32 ms,
/// 218 KB; level 1 8.5 ms, 282 KB; `Compression::Fast` (fdeflate) 5.9 ms but
/// 386 KB. The pixels are the same; only the deflate stream differs.
fn encode(pixmap: tiny_skia::Pixmap) -> Result<Vec<u8>, RenderError> {
    let (width, height) = (pixmap.width(), pixmap.height());
    // PNG holds straight alpha; tiny-skia keeps premultiplied pixels.
    let rgba = pixmap.take_demultiplied();
    let mut out = Vec::with_capacity(rgba.len() / 8);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(png::DeflateCompression::Level(1));
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder
        .write_header()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .write_image_data(&rgba)
        .map_err(|e| RenderError::Png(e.to_string()))?;
    writer
        .finish()
        .map_err(|e| RenderError::Png(e.to_string()))?;
    Ok(out)
}
