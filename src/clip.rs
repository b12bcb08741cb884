//! Long lines cut for a diagnostic: a 200 KB line is shown as the parts around the
//! places it points at, with `…` for what is left out; line and column numbers stay those
//! of the source.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};
use std::sync::Arc;

/// Lines longer than this (in bytes) are cut.
const LONG: usize = 160;
/// How much of a long line is kept on either side of a place pointed at.
const AROUND: usize = 60;
const CUT: &str = "…";

/// The source as a diagnostic shows it.
pub struct Clipped {
    name: String,
    original: Arc<String>,
    text: String,
    /// Every kept piece, in order: its offset in the original, its offset in `text`, its
    /// length.
    pieces: Vec<(usize, usize, usize)>,
}

impl Clipped {
    /// Cuts the long lines of `original`, keeping the surroundings of `points` (offsets in
    /// the original: where labels start and end).
    pub fn new(name: &str, original: Arc<String>, points: &[usize]) -> Clipped {
        let src = original.as_str();
        let mut text = String::with_capacity(src.len().min(1 << 16));
        let mut pieces = Vec::new();
        let mut keep = |from: usize, to: usize, text: &mut String| {
            pieces.push((from, text.len(), to - from));
            text.push_str(&src[from..to]);
        };
        let mut start = 0;
        for line in src.split_inclusive('\n') {
            let end = start + line.len();
            let content = end - usize::from(line.ends_with('\n'));
            if line.len() <= LONG {
                keep(start, end, &mut text);
            } else {
                let mut last = start;
                for (from, to) in windows(src, start, content, points) {
                    if from > last {
                        text.push_str(CUT);
                    }
                    keep(from, to, &mut text);
                    last = to;
                }
                if last < content {
                    text.push_str(CUT);
                }
                keep(content, end, &mut text);
            }
            start = end;
        }
        Clipped {
            name: name.to_string(),
            original,
            text,
            pieces,
        }
    }

    /// Where an offset of the original is in the shown text.
    /// (An offset in a cut maps to the end of the piece before it.)
    pub fn offset(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.0 <= at).saturating_sub(1);
        self.pieces
            .get(i)
            .map_or(0, |&(o, c, len)| c + (at - o).min(len))
    }

    /// The original offset of an offset of the shown text.
    fn original_offset(&self, at: usize) -> usize {
        let i = self.pieces.partition_point(|p| p.1 <= at).saturating_sub(1);
        self.pieces
            .get(i)
            .map_or(0, |&(o, c, len)| o + (at - c).min(len))
    }
}

/// The kept parts of the long line `start..end` (without its newline): `AROUND` bytes on
/// either side of every point on it (the line's start when none is), merged, on
/// character boundaries.
fn windows(src: &str, start: usize, end: usize, points: &[usize]) -> Vec<(usize, usize)> {
    let mut on_line: Vec<usize> = points
        .iter()
        .copied()
        .filter(|&p| p >= start && p <= end)
        .collect();
    if on_line.is_empty() {
        on_line.push(start);
    }
    on_line.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for p in on_line {
        let from = floor_char(src, p.saturating_sub(AROUND).max(start));
        let to = ceil_char(src, (p + AROUND).min(end));
        match out.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

impl SourceCode for Clipped {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let c = self.text.read_span(span, before, after)?;
        // Lines are kept whole (newlines are never cut), so line numbers are right; a
        // column is counted in the original.
        let column = if before == 0 {
            let at = self.original_offset(span.offset());
            let line_start = self.original[..at].rfind('\n').map_or(0, |i| i + 1);
            at - line_start
        } else {
            c.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            c.data(),
            *c.span(),
            c.line(),
            column,
            c.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_are_kept() {
        let src = Arc::new("use cube3\norder(R)\n".to_string());
        let c = Clipped::new("x", src.clone(), &[10, 15]);
        assert_eq!(c.text, *src);
        assert_eq!(c.offset(12), 12);
    }

    #[test]
    fn a_long_line_keeps_the_places_pointed_at() {
        let line = format!("let x = {}Q", "R U ".repeat(50_000));
        let src = Arc::new(format!("use cube3\n{line}\norder(x)\n"));
        let q = src.find('Q').unwrap();
        let c = Clipped::new("x", src.clone(), &[q, q + 1]);
        assert!(c.text.len() < 400, "{}", c.text.len());
        assert!(c.text.starts_with("use cube3\n…"));
        assert!(c.text.ends_with("Q\norder(x)\n"));
        assert_eq!(&c.text[c.offset(q)..c.offset(q + 1)], "Q");
        assert_eq!(c.original_offset(c.offset(q)), q);
        // The line after keeps its place.
        let o = src.find("order").unwrap();
        assert_eq!(&c.text[c.offset(o)..c.offset(o) + 5], "order");
    }
}
