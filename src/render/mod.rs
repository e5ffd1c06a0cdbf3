//! Turning views into HTML, SVG, PNG and plain text.
