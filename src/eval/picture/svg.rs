//! Pictures and charts as SVG text. Sticker polygons carry cubing.js's ids
//! (`ORBIT-lLOCATION-oORIENTATION`) and a `sticker` class, so a stylesheet can restyle them.

use super::{Picture, Pt};
use std::fmt::Write;

/// Escapes text for XML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

pub fn picture(pic: &Picture, title: &str) -> String {
    let margin = 12.0;
    let (x0, y0, x1, y1) = pic.bounds();
    // Nets about 480 pixels wide; diagram cells 44 pixels.
    let scale = if pic.net {
        (480.0 / (x1 - x0).max(1e-9)).min(160.0)
    } else {
        44.0
    };
    let (w, h) = (
        (x1 - x0) * scale + 2.0 * margin,
        (y1 - y0) * scale + 2.0 * margin,
    );
    // The plane has y upwards; SVG has it downwards.
    let at = |p: &Pt| ((p.0 - x0) * scale + margin, (y1 - p.1) * scale + margin);
    let points = |poly: &[Pt]| {
        poly.iter()
            .map(|p| {
                let (x, y) = at(p);
                format!("{x:.2},{y:.2}")
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.2} {h:.2}\">"
    );
    let _ = writeln!(s, "  <title>{}</title>", escape(title));
    for o in &pic.outlines {
        let _ = writeln!(
            s,
            "  <polygon class=\"face\" points=\"{}\" fill=\"#000000\" stroke=\"#000000\" stroke-width=\"3\" stroke-linejoin=\"round\"/>",
            points(o)
        );
    }
    for sh in &pic.shapes {
        let poly = if pic.net {
            super::shrink(&sh.poly, 0.08)
        } else {
            sh.poly.clone()
        };
        let _ = writeln!(
            s,
            "  <polygon id=\"{}\" class=\"sticker\" points=\"{}\" fill=\"{}\" stroke=\"#000000\" stroke-width=\"1\"><title>{}</title></polygon>",
            escape(&sh.id),
            points(&poly),
            escape(&sh.fill),
            escape(&sh.name)
        );
        if let Some(t) = &sh.text {
            let k = sh.poly.len() as f64;
            let c = sh
                .poly
                .iter()
                .fold((0.0, 0.0), |a, p| (a.0 + p.0 / k, a.1 + p.1 / k));
            let (x, y) = at(&c);
            let size = (scale * 0.9 / (t.chars().count().max(2) as f64)).min(scale * 0.4);
            let (r, g, b) = super::rgb(&sh.fill);
            let ink = if r as u32 * 3 + g as u32 * 6 + b as u32 > 1200 {
                "#000000"
            } else {
                "#ffffff"
            };
            let _ = writeln!(
                s,
                "  <text x=\"{x:.2}\" y=\"{:.2}\" font-family=\"monospace\" font-size=\"{size:.1}\" text-anchor=\"middle\" fill=\"{ink}\">{}</text>",
                y + size * 0.35,
                escape(t)
            );
        }
    }
    for (p, t) in &pic.captions {
        let (x, y) = at(p);
        let _ = writeln!(
            s,
            "  <text x=\"{x:.2}\" y=\"{y:.2}\" font-family=\"sans-serif\" font-size=\"14\">{}</text>",
            escape(t)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// A bar chart: one bar per label with its count written above it.
pub fn bars(title: &str, x_label: &str, bars: &[(String, u128)]) -> String {
    let (bw, gap, plot_h, left, top, bottom) = (36.0, 10.0, 240.0, 60.0, 50.0, 50.0);
    let max = bars.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let w = left + bars.len() as f64 * (bw + gap) + 20.0;
    let h = top + plot_h + bottom;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\">"
    );
    let _ = writeln!(s, "  <title>{}</title>", escape(title));
    let _ = writeln!(
        s,
        "  <text x=\"{left}\" y=\"22\" font-family=\"sans-serif\" font-size=\"15\">{}</text>",
        escape(title)
    );
    let base = top + plot_h;
    let _ = writeln!(
        s,
        "  <line x1=\"{left}\" y1=\"{base}\" x2=\"{:.0}\" y2=\"{base}\" stroke=\"#000000\"/>",
        w - 10.0
    );
    for (i, (label, count)) in bars.iter().enumerate() {
        let x = left + i as f64 * (bw + gap) + gap / 2.0;
        let bh = *count as f64 / max * plot_h;
        let _ = writeln!(
            s,
            "  <rect id=\"bar-{i}\" x=\"{x:.1}\" y=\"{:.1}\" width=\"{bw}\" height=\"{bh:.1}\" fill=\"#4a7bd0\"><title>{}: {count}</title></rect>",
            base - bh,
            escape(label)
        );
        let _ = writeln!(
            s,
            "  <text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"9\" text-anchor=\"middle\">{count}</text>",
            x + bw / 2.0,
            base - bh - 4.0
        );
        let _ = writeln!(
            s,
            "  <text x=\"{:.1}\" y=\"{:.1}\" font-family=\"sans-serif\" font-size=\"12\" text-anchor=\"middle\">{}</text>",
            x + bw / 2.0,
            base + 16.0,
            escape(label)
        );
    }
    let _ = writeln!(
        s,
        "  <text x=\"{:.0}\" y=\"{:.0}\" font-family=\"sans-serif\" font-size=\"13\" text-anchor=\"middle\">{}</text>",
        left + (w - left) / 2.0,
        h - 12.0,
        escape(x_label)
    );
    s.push_str("</svg>\n");
    s
}
