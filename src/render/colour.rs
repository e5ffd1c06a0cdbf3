//! Side colours: parsed once so that only colours we format ourselves ever
//! reach the markup, whatever a scenario wrote.

/// An opaque sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rgb {
    pub r: u8,
    pub g: u8,
    pub b: u8,
}

/// Colours for sides whose own colour cannot be read, by side index.
const FALLBACK: [Rgb; 6] = [
    Rgb {
        r: 0x1f,
        g: 0x4e,
        b: 0x9c,
    },
    Rgb {
        r: 0xb2,
        g: 0x22,
        b: 0x22,
    },
    Rgb {
        r: 0x2e,
        g: 0x7d,
        b: 0x32,
    },
    Rgb {
        r: 0x6a,
        g: 0x1b,
        b: 0x9a,
    },
    Rgb {
        r: 0xe6,
        g: 0x8a,
        b: 0x00,
    },
    Rgb {
        r: 0x00,
        g: 0x83,
        b: 0x8f,
    },
];

/// A few CSS names that scenarios are likely to use; anything else must be hex.
const NAMED: [(&str, Rgb); 12] = [
    ("black", Rgb { r: 0, g: 0, b: 0 }),
    (
        "blue",
        Rgb {
            r: 0,
            g: 0,
            b: 0xff,
        },
    ),
    (
        "brown",
        Rgb {
            r: 0xa5,
            g: 0x2a,
            b: 0x2a,
        },
    ),
    (
        "darkblue",
        Rgb {
            r: 0,
            g: 0,
            b: 0x8b,
        },
    ),
    (
        "darkred",
        Rgb {
            r: 0x8b,
            g: 0,
            b: 0,
        },
    ),
    (
        "gray",
        Rgb {
            r: 0x80,
            g: 0x80,
            b: 0x80,
        },
    ),
    (
        "green",
        Rgb {
            r: 0,
            g: 0x80,
            b: 0,
        },
    ),
    (
        "grey",
        Rgb {
            r: 0x80,
            g: 0x80,
            b: 0x80,
        },
    ),
    (
        "navy",
        Rgb {
            r: 0,
            g: 0,
            b: 0x80,
        },
    ),
    (
        "orange",
        Rgb {
            r: 0xff,
            g: 0xa5,
            b: 0,
        },
    ),
    (
        "red",
        Rgb {
            r: 0xff,
            g: 0,
            b: 0,
        },
    ),
    (
        "white",
        Rgb {
            r: 0xff,
            g: 0xff,
            b: 0xff,
        },
    ),
];

/// Neutral grey for things that belong to no known side.
pub(crate) const NEUTRAL: Rgb = Rgb {
    r: 0x70,
    g: 0x70,
    b: 0x70,
};

impl Rgb {
    /// Reads `#rgb`, `#rrggbb` or one of a few CSS names.
    pub fn parse(text: &str) -> Option<Rgb> {
        let text = text.trim();
        if let Some(hex) = text.strip_prefix('#') {
            let digits: Vec<u8> = hex
                .chars()
                .map(|c| c.to_digit(16).and_then(|d| u8::try_from(d).ok()))
                .collect::<Option<Vec<u8>>>()?;
            return match digits.as_slice() {
                [r, g, b] => Some(Rgb {
                    r: r * 17,
                    g: g * 17,
                    b: b * 17,
                }),
                [r1, r2, g1, g2, b1, b2] => Some(Rgb {
                    r: r1 * 16 + r2,
                    g: g1 * 16 + g2,
                    b: b1 * 16 + b2,
                }),
                _ => None,
            };
        }
        let lower = text.to_ascii_lowercase();
        NAMED
            .iter()
            .find(|(name, _)| *name == lower)
            .map(|(_, rgb)| *rgb)
    }

    /// The side's colour, or a stable fallback for its index.
    pub fn for_side(text: &str, index: usize) -> Rgb {
        Rgb::parse(text).unwrap_or(FALLBACK[index % FALLBACK.len()])
    }

    /// The same hue scaled toward black (`k` below 1) for outlines and front edges.
    pub fn darken(self, k: f64) -> Rgb {
        let f = |c: u8| (f64::from(c) * k.clamp(0.0, 1.0)).round() as u8;
        Rgb {
            r: f(self.r),
            g: f(self.g),
            b: f(self.b),
        }
    }

    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.r, self.g, self.b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_and_names() {
        assert_eq!(
            Rgb::parse("#1f4e9c"),
            Some(Rgb {
                r: 0x1f,
                g: 0x4e,
                b: 0x9c
            })
        );
        assert_eq!(
            Rgb::parse("#fff"),
            Some(Rgb {
                r: 255,
                g: 255,
                b: 255
            })
        );
        assert_eq!(
            Rgb::parse("Navy"),
            Some(Rgb {
                r: 0,
                g: 0,
                b: 0x80
            })
        );
        assert_eq!(Rgb::parse("#12345"), None);
        assert_eq!(Rgb::parse("red\" onload=\"x"), None);
    }

    #[test]
    fn unreadable_colour_falls_back_by_index() {
        assert_eq!(Rgb::for_side("nonsense", 1), FALLBACK[1]);
        assert_eq!(Rgb::for_side("#000000", 1).hex(), "#000000");
    }

    #[test]
    fn darken_scales_channels() {
        assert_eq!(
            Rgb {
                r: 200,
                g: 100,
                b: 0
            }
            .darken(0.5)
            .hex(),
            "#643200"
        );
    }
}
