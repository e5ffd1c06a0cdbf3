//! A cheap, linear look at YAML text before any parser runs on it.
//!
//! The YAML parser's scanner costs, for every token, time in proportion to
//! how many flow collections (`[`, `{`) are open: a file of 100,000 `[`
//! cost a minute of CPU, before the signature was even checked. So text
//! from outside (orders files, command files, orders pasted in a body) is
//! measured here first, in one pass, and refused when it nests deeper than
//! any orders file needs.
//!
//! The scan follows the parser's own tokenizer (libyaml's, which
//! serde_yaml uses) where it matters for depth: brackets count only where
//! a token starts, not inside quoted scalars, plain scalars, block scalars,
//! tags or comments, and block nesting follows the parser's indentation
//! stack. Where it cannot tell, it counts: an error costs a refusal of a
//! strange file, never a parse of a deep one. Tests compare it with the
//! parser on random text.

use std::fmt;

/// Deepest nesting (flow collections plus block levels) taken from outside.
/// Orders files need about ten; the parser itself stops at 128.
pub const MAX_DEPTH: usize = 64;

/// Where text nests too deep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// 1-based, as editors count.
    pub line: usize,
    pub column: usize,
    pub limit: usize,
}

impl fmt::Display for TooDeep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the file nests lists and maps more than {} deep (here, at line {} column {}); orders and commands never need more than a few levels, so it was not read further",
            self.limit, self.line, self.column
        )
    }
}

/// Check that `text` nests no deeper than `limit` levels.
pub fn check(text: &str, limit: usize) -> Result<(), TooDeep> {
    Scan::new(text.as_bytes(), limit).run().map(|_| ())
}

/// The deepest nesting the scan finds in `text` (for tests and figures).
pub fn depth(text: &str) -> usize {
    Scan::new(text.as_bytes(), usize::MAX)
        .run()
        .unwrap_or(usize::MAX)
}

fn blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn brk(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

fn flow_indicator(b: u8) -> bool {
    matches!(b, b',' | b'[' | b']' | b'{' | b'}')
}

struct Scan<'a> {
    t: &'a [u8],
    i: usize,
    line: usize,
    /// Column in characters (the parser counts characters, not bytes).
    col: usize,
    flow: usize,
    /// The block indentation stack, as the parser keeps it.
    indents: Vec<usize>,
    /// Line and column of the last token in block context that could be a
    /// simple key (a `:` after it on the same line makes it one).
    key: Option<(usize, usize)>,
    limit: usize,
    /// The deepest seen so far.
    max: usize,
}

impl<'a> Scan<'a> {
    fn new(t: &'a [u8], limit: usize) -> Scan<'a> {
        let mut s = Scan {
            t,
            i: 0,
            line: 1,
            col: 0,
            flow: 0,
            indents: Vec::new(),
            key: None,
            limit,
            max: 0,
        };
        if t.starts_with("\u{FEFF}".as_bytes()) {
            s.i = 3;
        }
        s
    }

    fn at(&self, k: usize) -> Option<u8> {
        self.t.get(self.i + k).copied()
    }

    /// Whether the byte `k` ahead is blank, a line break or the end.
    fn blankz(&self, k: usize) -> bool {
        self.at(k).is_none_or(|b| blank(b) || brk(b))
    }

    fn bump(&mut self) {
        let Some(b) = self.at(0) else { return };
        self.i += 1;
        if b == b'\n' || (b == b'\r' && self.at(0) != Some(b'\n')) {
            self.line += 1;
            self.col = 0;
        } else if b & 0xC0 != 0x80 {
            self.col += 1;
        }
    }

    fn depth(&self) -> usize {
        self.flow + self.indents.len()
    }

    fn guard(&mut self) -> Result<(), TooDeep> {
        self.max = self.max.max(self.depth());
        if self.depth() > self.limit {
            Err(TooDeep {
                line: self.line,
                column: self.col + 1,
                limit: self.limit,
            })
        } else {
            Ok(())
        }
    }

    fn roll(&mut self, col: usize) -> Result<(), TooDeep> {
        if self.flow == 0 && self.indents.last().is_none_or(|&top| top < col) {
            self.indents.push(col);
        }
        self.guard()
    }

    fn run(mut self) -> Result<usize, TooDeep> {
        loop {
            // To the next token: blanks, line breaks and comments.
            while let Some(b) = self.at(0) {
                if blank(b) || brk(b) {
                    self.bump();
                } else if b == b'#' {
                    while self.at(0).is_some_and(|b| !brk(b)) {
                        self.bump();
                    }
                } else {
                    break;
                }
            }
            let Some(b) = self.at(0) else {
                return Ok(self.max);
            };
            let col = self.col;
            if self.flow == 0 {
                while self.indents.last().is_some_and(|&top| top > col) {
                    self.indents.pop();
                }
            }
            let marker = col == 0
                && (self.t[self.i..].starts_with(b"---") || self.t[self.i..].starts_with(b"..."))
                && self.blankz(3);
            if marker {
                self.indents.clear();
                self.flow = 0;
                self.key = None;
                for _ in 0..3 {
                    self.bump();
                }
                continue;
            }
            match b {
                b'[' | b'{' => {
                    self.simple_key(col);
                    self.flow += 1;
                    self.guard()?;
                    self.bump();
                }
                b']' | b'}' => {
                    self.flow = self.flow.saturating_sub(1);
                    self.bump();
                }
                b',' => self.bump(),
                b'-' if self.blankz(1) => {
                    self.roll(col)?;
                    self.bump();
                }
                b'?' if self.flow > 0 || self.blankz(1) => {
                    self.roll(col)?;
                    self.bump();
                }
                b':' if self.flow > 0 || self.blankz(1) => {
                    let at = match self.key.take() {
                        Some((line, kcol)) if line == self.line => kcol,
                        _ => col,
                    };
                    self.roll(at)?;
                    self.bump();
                }
                b'*' | b'&' | b'!' => {
                    self.simple_key(col);
                    while !self.blankz(0) {
                        if self.flow > 0 && b != b'!' && self.at(0).is_some_and(flow_indicator) {
                            break;
                        }
                        self.bump();
                    }
                }
                b'|' | b'>' if self.flow == 0 => self.block_scalar(),
                b'\'' => {
                    self.simple_key(col);
                    self.single_quoted();
                }
                b'"' => {
                    self.simple_key(col);
                    self.double_quoted();
                }
                b'%' if col == 0 && self.flow == 0 => {
                    while self.at(0).is_some_and(|b| !brk(b)) {
                        self.bump();
                    }
                }
                // The parser stops at characters that cannot start a token.
                b'@' | b'`' => return Ok(self.max),
                _ => {
                    self.simple_key(col);
                    self.plain();
                }
            }
        }
    }

    fn simple_key(&mut self, col: usize) {
        if self.flow == 0 {
            self.key = Some((self.line, col));
        }
    }

    fn single_quoted(&mut self) {
        self.bump();
        while let Some(b) = self.at(0) {
            if b == b'\'' {
                if self.at(1) == Some(b'\'') {
                    self.bump();
                    self.bump();
                    continue;
                }
                self.bump();
                return;
            }
            self.bump();
        }
    }

    fn double_quoted(&mut self) {
        self.bump();
        while let Some(b) = self.at(0) {
            match b {
                b'\\' => {
                    self.bump();
                    self.bump();
                }
                b'"' => {
                    self.bump();
                    return;
                }
                _ => self.bump(),
            }
        }
    }

    /// A plain scalar, over as many lines as the parser takes it.
    fn plain(&mut self) {
        // The lowest column a continuation line may start at.
        let floor = self.indents.last().map_or(0, |&top| top + 1);
        loop {
            while let Some(b) = self.at(0) {
                if blank(b) || brk(b) {
                    break;
                }
                if b == b':' {
                    let next = self.at(1);
                    if next.is_none_or(|n| blank(n) || brk(n)) {
                        return;
                    }
                    if self.flow > 0 && next.is_some_and(|n| n == b'?' || flow_indicator(n)) {
                        return;
                    }
                }
                if self.flow > 0 && flow_indicator(b) {
                    return;
                }
                self.bump();
            }
            // Blanks and line breaks: the scalar may go on after them.
            let mark = (self.i, self.line, self.col);
            let mut lines = false;
            while let Some(b) = self.at(0) {
                if blank(b) {
                    self.bump();
                } else if brk(b) {
                    lines = true;
                    self.bump();
                } else {
                    break;
                }
            }
            let ends = match self.at(0) {
                None | Some(b'#') => true,
                Some(_) if lines && self.col == 0 => {
                    let rest = &self.t[self.i..];
                    (rest.starts_with(b"---") || rest.starts_with(b"...")) && self.blankz(3)
                        || (self.flow == 0 && self.col < floor)
                }
                Some(_) => lines && self.flow == 0 && self.col < floor,
            };
            if ends {
                // Leave the blanks for the token loop (it skips them).
                (self.i, self.line, self.col) = mark;
                return;
            }
        }
    }

    /// A literal or folded block scalar: its header line, then every line
    /// indented past its parent, as the parser reads them.
    fn block_scalar(&mut self) {
        let parent: isize = self.indents.last().map_or(-1, |&t| t as isize);
        self.bump();
        let mut explicit: Option<usize> = None;
        while let Some(b) = self.at(0) {
            match b {
                b'+' | b'-' => self.bump(),
                b'1'..=b'9' if explicit.is_none() => {
                    explicit = Some(usize::from(b - b'0'));
                    self.bump();
                }
                _ => break,
            }
        }
        // The rest of the header line (blanks and a comment); anything else
        // is an error the parser stops at, and is counted here as content.
        while self.at(0).is_some_and(|b| !brk(b)) {
            self.bump();
        }
        let indent = match explicit {
            Some(d) => (parent.max(0) as usize) + d,
            None => {
                // The first line with text sets it (blank lines before it
                // may raise it); never at or left of the parent.
                let mut max = 0usize;
                let mut k = self.i;
                let mut col = 0usize;
                while k < self.t.len() {
                    match self.t[k] {
                        b'\n' | b'\r' => {
                            col = 0;
                        }
                        b' ' => {
                            col += 1;
                            max = max.max(col);
                        }
                        _ => break,
                    }
                    k += 1;
                }
                max.max((parent + 1).max(1) as usize)
            }
        };
        // Content lines: blank, or indented at least `indent`.
        loop {
            let Some(b) = self.at(0) else { return };
            if brk(b) {
                self.bump();
            }
            let start = (self.i, self.line, self.col);
            let mut spaces = 0;
            while self.at(0) == Some(b' ') {
                spaces += 1;
                self.bump();
            }
            match self.at(0) {
                None => return,
                Some(b) if brk(b) => continue,
                Some(_) if spaces >= indent => {
                    while self.at(0).is_some_and(|b| !brk(b)) {
                        self.bump();
                    }
                }
                Some(_) => {
                    (self.i, self.line, self.col) = start;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth_ok(text: &str, limit: usize) -> bool {
        check(text, limit).is_ok()
    }

    #[test]
    fn orders_pass_and_deep_flow_is_refused_in_linear_time() {
        let orders = "galloper: 1\ngame: g1\nstep: 2\nside: french\norders:\n  round:\n    command:\n      march:\n        force: [a, b]\n        moves:\n          - unit: b\n            steps: [{forward: 9}, {wheel: {left: 30}}]\n";
        assert!(depth_ok(orders, 12));
        assert!(!depth_ok(orders, 5));
        let deep = "[".repeat(100_000);
        let t = std::time::Instant::now();
        let e = check(&deep, MAX_DEPTH).unwrap_err();
        assert_eq!((e.line, e.column), (1, MAX_DEPTH + 1));
        assert!(t.elapsed().as_millis() < 50);
    }

    #[test]
    fn brackets_in_scalars_and_comments_do_not_count() {
        let mut t = String::new();
        for _ in 0..100 {
            t.push_str("- note: 'a [ { \" it''s'\n  text: \"]] \\\" [[\"\n  plain: x[y{z # [[[\n");
        }
        t.push_str("- |\n  [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\n  'x\n- done\n");
        assert!(depth_ok(&t, 4), "{:?}", check(&t, 4));
    }

    #[test]
    fn closers_hidden_in_strings_cannot_hide_depth() {
        // Each level closes a bracket only inside a quoted string, in each
        // of the places a string may start in flow context.
        for unit in [
            "[ \"]\", ",
            "[']', ",
            "[!t \"]\", ",
            "[&a ']', ",
            "{k: ']', v: ",
            "[? ']' : ",
        ] {
            let deep = unit.repeat(200);
            assert!(!depth_ok(&deep, MAX_DEPTH), "{unit}");
        }
        // A quote inside a plain scalar starts no string: the `]` after it
        // closes, and the parser's depth stays one.
        assert!(depth_ok(&"[it's], ".repeat(200), 2));
    }

    fn value_depth(v: &serde_yaml::Value) -> usize {
        use serde_yaml::Value;
        match v {
            Value::Sequence(s) => 1 + s.iter().map(value_depth).max().unwrap_or(0),
            Value::Mapping(m) => {
                1 + m
                    .iter()
                    .map(|(k, v)| value_depth(k).max(value_depth(v)))
                    .max()
                    .unwrap_or(0)
            }
            Value::Tagged(t) => value_depth(&t.value),
            _ => 0,
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Whatever the parser reads, the scan saw at least as deep: on one
        /// line exactly its levels; over several, an indentless sequence
        /// under a key adds a level the parser's indentation stack has not.
        #[test]
        fn the_scan_never_sees_less_than_the_parser(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "[", "]", "{", "}", ", ", ",", " ", "\n", "\n  ", "'", "\"", "a", "it's", ": ", ":", "#",
                "- ", "? ", "|\n", ">2\n", "!t ", "&a ", "*a", "\\", "''", "k: ", "\n- ",
            ]), 0..40)
        ) {
            let text: String = parts.concat();
            if let Ok(v) = serde_yaml::from_str::<serde_yaml::Value>(&text) {
                let real = value_depth(&v);
                let seen = depth(&text);
                if text.contains('\n') {
                    proptest::prop_assert!(real <= 2 * seen + 1, "{text:?}: parser {real}, scan {seen}");
                } else {
                    proptest::prop_assert!(real <= seen + 1, "{text:?}: parser {real}, scan {seen}");
                }
            }
        }
    }

    #[test]
    fn block_nesting_counts_its_indentation() {
        let mut t = String::new();
        for i in 0..100 {
            t.push_str(&" ".repeat(i));
            t.push_str("k:\n");
        }
        assert!(!depth_ok(&t, MAX_DEPTH));
        let seq: String = (0..100).map(|i| format!("{}-\n", " ".repeat(i))).collect();
        assert!(!depth_ok(&seq, MAX_DEPTH));
        assert!(depth_ok(&"k: v\n".repeat(10_000), 1));
    }
}
