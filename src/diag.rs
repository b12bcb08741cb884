//! Diagnostics: an error with a span, a label and a hint, rendered by miette against
//! the source it came from.

use crate::clip::Clipped;
use crate::span::Span;
use miette::{Diagnostic, LabeledSpan, NamedSource, SourceCode};
use std::fmt;
use std::sync::Arc;

/// An error found in some source text: what went wrong, where, and what to do about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Diag {
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Extra labelled places (e.g. the first use of a name defined twice).
    pub related: Vec<(Span, String)>,
    /// The source this error belongs to, once known (set by the interpreter).
    pub source: Option<Box<Source>>,
}

/// The result of evaluating anything: a value or a diagnostic.
pub type EvalResult<T> = Result<T, Diag>;

/// A named source text (a file, the REPL line, a stdlib module).
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub name: String,
    pub text: Arc<String>,
}

impl Diag {
    pub fn new(span: Span, message: impl Into<String>) -> Diag {
        Diag {
            message: message.into(),
            span,
            label: "here".into(),
            help: None,
            related: vec![],
            source: None,
        }
    }

    pub fn with_label(mut self, label: impl Into<String>) -> Diag {
        self.label = label.into();
        self
    }

    pub fn with_help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(help.into());
        self
    }

    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diag {
        self.related.push((span, label.into()));
        self
    }

    /// Attaches the source, unless one is already attached (errors from a `use`d file
    /// keep that file).
    /// Moves every place by `offset` bytes (a statement's diagnostic into its file).
    pub fn shift(&mut self, offset: usize) {
        self.span = Span::new(self.span.start + offset, self.span.end + offset);
        for (s, _) in &mut self.related {
            *s = Span::new(s.start + offset, s.end + offset);
        }
    }

    pub fn in_source(mut self, src: &Source) -> Diag {
        if self.source.is_none() {
            self.source = Some(Box::new(src.clone()));
        }
        self
    }

    /// Renders the diagnostic as text (no colours when `color` is false).
    pub fn render(&self, color: bool) -> String {
        self.render_as(color, false)
    }

    /// Renders it as a warning (reported, and the script goes on).
    pub fn render_warning(&self, color: bool) -> String {
        self.render_as(color, true)
    }

    fn render_as(&self, color: bool, warning: bool) -> String {
        let handler = if color {
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode())
        } else {
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
        }
        .with_width(100)
        .with_links(false);
        let mut out = String::new();
        let clipped = self.source.as_deref().map(|src| {
            let spans = std::iter::once(&self.span).chain(self.related.iter().map(|(s, _)| s));
            let points: Vec<usize> = spans.flat_map(|s| [s.start, s.end]).collect();
            Clipped::new(&src.name, src.text.clone(), &points)
        });
        let report = Rendered(self, clipped, warning);
        if handler.render_report(&mut out, &report).is_err() {
            return format!("error: {}", self.message);
        }
        out
    }
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for Diag {}

/// A diagnostic with its source as shown (long lines cut).
struct Rendered<'a>(&'a Diag, Option<Clipped>, bool);

impl fmt::Debug for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.message)
    }
}

impl fmt::Display for Rendered<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.message)
    }
}

impl std::error::Error for Rendered<'_> {}

impl Diagnostic for Rendered<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        self.2.then_some(miette::Severity::Warning)
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0
            .help
            .as_ref()
            .map(|h| Box::new(h.clone()) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.1.as_ref().map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let src = self.0.source.as_ref()?;
        let shown = self.1.as_ref()?;
        let clamp = |s: Span| {
            let start = shown.offset(s.start.min(src.text.len()));
            let end = shown.offset(s.end.min(src.text.len())).max(start);
            (start, end - start)
        };
        let mut v = vec![LabeledSpan::new_primary_with_span(
            Some(self.0.label.clone()),
            clamp(self.0.span),
        )];
        for (s, l) in &self.0.related {
            v.push(LabeledSpan::new_with_span(Some(l.clone()), clamp(*s)));
        }
        Some(Box::new(v.into_iter()))
    }

    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        None
    }
}

/// A NamedSource for callers that want miette's own types.
pub fn named(src: &Source) -> NamedSource<Arc<String>> {
    NamedSource::new(src.name.clone(), src.text.clone())
}
