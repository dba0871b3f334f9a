//! Draws the SVG plots of a benchmark run from its `results.csv` (written
//! by `scripts/bench-suite`).
//!
//! Usage: `plot RUN_DIR`
//!
//! Writes into `RUN_DIR`, for the benchmarks the run has:
//!
//! * `rules.svg`: URLs/s against the number of rules, per engine: lines for
//!   the generated rule sets, points for the real files;
//! * `wildcards.svg`: URLs/s against the share of wildcard rules;
//! * `url-length.svg`: URLs/s against the URL path length;
//! * `sites.svg`: URLs/s per site and engine, both peers included;
//! * `e2e.svg`: lines/s from file to CSV per input and tool, the floors
//!   (`wc -l`, memchr) included;
//! * `threads.svg`: lines/s from file to CSV against worker threads;
//! * `compile-size.svg` and `memory-size.svg`: compile time and heap kept
//!   against the robots.txt's size.
//!
//! Every axis of rates and times is logarithmic: the engines differ by
//! orders of magnitude.

use std::collections::BTreeMap;
use std::error::Error;
use std::path::Path;

use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;

type Row = BTreeMap<String, String>;
/// A named line: (x, y) points.
type Series = (String, Vec<(f64, f64)>);
/// Named points, filled or not.
type Points = (String, Vec<(f64, f64)>, bool);
type Result<T> = std::result::Result<T, Box<dyn Error>>;

const SIZE: (u32, u32) = (900, 560);

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir] = args.as_slice() else {
        return Err("usage: plot RUN_DIR".into());
    };
    let dir = Path::new(dir);
    let rows = read(&dir.join("results.csv"))?;
    let mut drawn = vec![];
    let mut draw = |name: &str, ok: Result<bool>| -> Result<()> {
        if ok? {
            drawn.push(name.to_string());
        }
        Ok(())
    };
    draw("rules.svg", rules(dir, &rows))?;
    draw(
        "wildcards.svg",
        sweep(
            &dir.join("wildcards.svg"),
            &rows,
            "wildcards",
            "Matching vs share of wildcard rules (1,000 generated rules)",
            "rules with `*` (%)",
            false,
            |r| num(r, "param"),
        ),
    )?;
    draw(
        "url-length.svg",
        sweep(
            &dir.join("url-length.svg"),
            &rows,
            "url-length",
            "Matching vs URL path length (ebay.com's rules)",
            "path length (bytes)",
            true,
            |r| num(r, "param"),
        ),
    )?;
    draw("sites.svg", sites(dir, &rows))?;
    draw("e2e.svg", e2e(dir, &rows))?;
    draw("threads.svg", threads(dir, &rows))?;
    draw("compile-size.svg", compile_size(dir, &rows, false))?;
    draw("memory-size.svg", compile_size(dir, &rows, true))?;
    eprintln!("plot: wrote {}", drawn.join(", "));
    Ok(())
}

fn read(path: &Path) -> Result<Vec<Row>> {
    let mut rdr = csv::Reader::from_path(path)
        .map_err(|e| format!("reading {}: {e}", path.display()))?;
    let header = rdr.headers()?.clone();
    let mut rows = vec![];
    for rec in rdr.records() {
        let rec = rec?;
        rows.push(
            header
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect(),
        );
    }
    Ok(rows)
}

fn num(r: &Row, k: &str) -> Option<f64> {
    let v = r.get(k)?;
    // Parameters such as `1000-name` start with the number.
    v.split('-').next()?.parse().ok()
}

fn field<'a>(r: &'a Row, k: &str) -> &'a str {
    r.get(k).map_or("", String::as_str)
}

/// A fixed colour per engine or tool, so that plots read alike (`dfa`
/// is `trie` in the runs from before it was renamed).
fn color(name: &str) -> RGBColor {
    match name {
        "trie" | "dfa" | "robots-batch-j1" => RGBColor(31, 119, 180),
        "dense" | "robots-batch-j2" => RGBColor(44, 160, 44),
        "lazy" => RGBColor(148, 103, 189),
        "naive" => RGBColor(127, 127, 127),
        "trie-google" | "dfa-google" | "robots-batch-google-j1" => {
            RGBColor(23, 190, 207)
        }
        "texting_robots" => RGBColor(255, 127, 14),
        "robotstxt" | "robotstxt-parse" => RGBColor(214, 39, 40),
        "floor-memchr" => RGBColor(0, 0, 0),
        "wc-l" => RGBColor(140, 86, 75),
        _ => RGBColor(188, 189, 34),
    }
}

/// The engines in a stable order: ours first, then the peers.
fn order(name: &str) -> usize {
    const ORDER: &[&str] = &[
        "floor-memchr",
        "wc-l",
        "trie",
        "dfa",
        "robots-batch-j1",
        "robots-batch-j2",
        "dense",
        "lazy",
        "naive",
        "trie-google",
        "dfa-google",
        "robots-batch-google-j1",
        "texting_robots",
        "robotstxt",
        "robotstxt-parse",
    ];
    ORDER.iter().position(|&o| o == name).unwrap_or(ORDER.len())
}

/// Series of (x, y) per engine, sorted by x.
fn series(
    rows: &[&Row],
    x: impl Fn(&Row) -> Option<f64>,
    y: impl Fn(&Row) -> Option<f64>,
) -> Vec<Series> {
    let mut by: BTreeMap<(usize, String), Vec<(f64, f64)>> = BTreeMap::new();
    for r in rows {
        let (Some(x), Some(y)) = (x(r), y(r)) else { continue };
        let e = field(r, "engine").to_string();
        by.entry((order(&e), e)).or_default().push((x, y));
    }
    by.into_iter()
        .map(|((_, e), mut v)| {
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            (e, v)
        })
        .collect()
}

fn bounds(points: impl Iterator<Item = (f64, f64)>) -> Option<[f64; 4]> {
    let mut b = [f64::MAX, f64::MIN, f64::MAX, f64::MIN];
    let mut any = false;
    for (x, y) in points {
        any = true;
        b[0] = b[0].min(x);
        b[1] = b[1].max(x);
        b[2] = b[2].min(y);
        b[3] = b[3].max(y);
    }
    any.then_some(b)
}

fn fmt_si(v: f64) -> String {
    let a = v.abs();
    if a >= 1e9 {
        format!("{:.0}G", v / 1e9)
    } else if a >= 1e6 {
        format!("{:.0}M", v / 1e6)
    } else if a >= 1e3 {
        format!("{:.0}K", v / 1e3)
    } else if a >= 1.0 || a == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.2}")
    }
}

/// A chart of lines (and points) with a logarithmic y axis, and a
/// logarithmic x axis when `xlog`.
#[allow(clippy::too_many_arguments)]
fn line_chart(
    path: &Path,
    title: &str,
    xdesc: &str,
    ydesc: &str,
    lines: &[Series],
    points: &[Points],
    xlog: bool,
    yfmt: &dyn Fn(&f64) -> String,
    legend: SeriesLabelPosition,
) -> Result<bool> {
    let all = lines
        .iter()
        .flat_map(|s| s.1.iter().copied())
        .chain(points.iter().flat_map(|s| s.1.iter().copied()));
    let Some([x0, x1, y0, y1]) = bounds(all) else { return Ok(false) };
    let root = SVGBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let (ylo, yhi) = (y0 / 2.0, y1 * 2.0);
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80);
    macro_rules! finish {
        ($chart:expr) => {{
            let chart = &mut $chart;
            chart
                .configure_mesh()
                .x_desc(xdesc)
                .y_desc(ydesc)
                .y_label_formatter(yfmt)
                .x_label_formatter(&|v| fmt_si(*v))
                .light_line_style(WHITE.mix(0.0))
                .draw()?;
            for (name, pts) in lines {
                let c = color(name);
                chart
                    .draw_series(LineSeries::new(
                        pts.iter().copied(),
                        c.stroke_width(2),
                    ))?
                    .label(name.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(
                            vec![(x, y), (x + 20, y)],
                            c.stroke_width(2),
                        )
                    });
                chart.draw_series(
                    pts.iter().map(|&p| Circle::new(p, 3, c.filled())),
                )?;
            }
            for (name, pts, filled) in points {
                let c = color(name);
                let style =
                    if *filled { c.filled() } else { c.stroke_width(2) };
                let s = chart.draw_series(
                    pts.iter().map(move |&p| Circle::new(p, 5, style)),
                )?;
                if lines.iter().all(|l| &l.0 != name) {
                    s.label(name.as_str()).legend(move |(x, y)| {
                        Circle::new((x + 10, y), 4, c.filled())
                    });
                }
            }
            chart
                .configure_series_labels()
                .position(legend.clone())
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
        }};
    }
    if xlog {
        let mut chart = builder.build_cartesian_2d(
            (x0 / 1.5..x1 * 1.5).log_scale(),
            (ylo..yhi).log_scale(),
        )?;
        finish!(chart);
    } else {
        let pad = (x1 - x0).max(1.0) * 0.05;
        let mut chart = builder
            .build_cartesian_2d(x0 - pad..x1 + pad, (ylo..yhi).log_scale())?;
        finish!(chart);
    }
    root.present()?;
    Ok(true)
}

fn rate(r: &Row) -> Option<f64> {
    r.get("urls_per_s")?.parse().ok()
}

fn rate_fmt(v: &f64) -> String {
    format!("{}/s", fmt_si(*v))
}

fn rules(dir: &Path, rows: &[Row]) -> Result<bool> {
    let generated: Vec<&Row> =
        rows.iter().filter(|r| field(r, "group") == "rules").collect();
    let real: Vec<&Row> =
        rows.iter().filter(|r| field(r, "group") == "rules-real").collect();
    let lines = series(&generated, |r| num(r, "rules"), rate);
    // Real files: filled points when at least a quarter of the rules have
    // a `*`, hollow otherwise.
    let mut points = vec![];
    for wild in [false, true] {
        let pick: Vec<&Row> = real
            .iter()
            .copied()
            .filter(|r| {
                (num(r, "wildcard_share").unwrap_or(0.0) >= 0.25) == wild
            })
            .collect();
        for (e, pts) in series(&pick, |r| num(r, "rules"), rate) {
            points.push((e, pts, wild));
        }
    }
    line_chart(
        &dir.join("rules.svg"),
        "Matching vs number of rules: generated (lines), real files \
         (points; filled: >= 25% wildcards)",
        "rules for the agent",
        "URLs per second",
        &lines,
        &points,
        true,
        &rate_fmt,
        SeriesLabelPosition::LowerLeft,
    )
}

fn sweep(
    path: &Path,
    rows: &[Row],
    group: &str,
    title: &str,
    xdesc: &str,
    xlog: bool,
    x: impl Fn(&Row) -> Option<f64>,
) -> Result<bool> {
    let rs: Vec<&Row> =
        rows.iter().filter(|r| field(r, "group") == group).collect();
    let lines = series(&rs, x, rate);
    line_chart(
        path,
        title,
        xdesc,
        "URLs per second",
        &lines,
        &[],
        xlog,
        &rate_fmt,
        SeriesLabelPosition::LowerLeft,
    )
}

fn threads(dir: &Path, rows: &[Row]) -> Result<bool> {
    let rs: Vec<&Row> = rows
        .iter()
        .filter(|r| {
            field(r, "kind") == "e2e" && field(r, "sweep") == "threads"
        })
        .filter(|r| field(r, "dialect") == "rfc9309")
        .collect();
    // One line per input rather than per engine.
    let mut by: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for r in rs {
        if let (Some(t), Some(y)) = (num(r, "threads"), rate(r)) {
            let input = field(r, "group").trim_start_matches("e2e/");
            by.entry(input.to_string()).or_default().push((t, y));
        }
    }
    let palette = [
        RGBColor(31, 119, 180),
        RGBColor(255, 127, 14),
        RGBColor(44, 160, 44),
        RGBColor(214, 39, 40),
    ];
    let Some([x0, x1, _, y1]) =
        bounds(by.values().flat_map(|v| v.iter().copied()))
    else {
        return Ok(false);
    };
    let path = dir.join("threads.svg");
    let root = SVGBackend::new(&path, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "File to CSV through Batch vs worker threads (robots-batch, trie)",
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(80)
        // A linear axis from 0: the rates are close, a log axis would
        // show no tick.
        .build_cartesian_2d(x0 - 0.25..x1 + 0.25, 0.0..y1 * 1.15)?;
    chart
        .configure_mesh()
        .x_desc("worker threads")
        .y_desc("lines per second")
        .x_labels((x1 - x0) as usize + 1)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&rate_fmt)
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for (i, (input, mut pts)) in by.into_iter().enumerate() {
        pts.sort_by(|a, b| a.0.total_cmp(&b.0));
        let c = palette[i % palette.len()];
        chart
            .draw_series(LineSeries::new(pts.clone(), c.stroke_width(2)))?
            .label(input)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 4, c.filled())))?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(true)
}

/// Horizontal bars on a logarithmic axis, one per (group, engine).
fn bars(
    path: &Path,
    title: &str,
    xdesc: &str,
    bars: &[(String, String, f64)],
    fmt: &dyn Fn(&f64) -> String,
) -> Result<bool> {
    if bars.is_empty() {
        return Ok(false);
    }
    let (lo, hi) = bars
        .iter()
        .fold((f64::MAX, f64::MIN), |(lo, hi), b| (lo.min(b.2), hi.max(b.2)));
    let (lo, hi) = (lo / 3.0, hi * 3.0);
    let n = bars.len();
    let height = (60 + 22 * n as u32).max(300);
    let root = SVGBackend::new(path, (SIZE.0, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let labels: Vec<String> =
        bars.iter().map(|(g, e, _)| format!("{g}  {e}")).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(300)
        .build_cartesian_2d((lo..hi).log_scale(), (0..n).into_segmented())?;
    chart
        .configure_mesh()
        .x_desc(xdesc)
        .x_label_formatter(fmt)
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => {
                labels.get(*i).cloned().unwrap_or_default()
            }
            _ => String::new(),
        })
        .disable_y_mesh()
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    chart.draw_series(bars.iter().enumerate().map(|(i, (_, e, v))| {
        let c = color(e);
        let mut r = Rectangle::new(
            [(lo, SegmentValue::Exact(i)), (*v, SegmentValue::Exact(i + 1))],
            c.filled(),
        );
        r.set_margin(3, 3, 0, 0);
        r
    }))?;
    root.present()?;
    Ok(true)
}

fn sites(dir: &Path, rows: &[Row]) -> Result<bool> {
    let mut v: Vec<(String, String, f64)> = rows
        .iter()
        .filter(|r| {
            let g = field(r, "group");
            field(r, "kind") == "match"
                && (g.starts_with("match/")
                    || g.starts_with("google/")
                    || g.starts_with("real-urls/"))
        })
        .filter_map(|r| {
            Some((
                field(r, "group").to_string(),
                field(r, "engine").to_string(),
                rate(r)?,
            ))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0).then(order(&a.1).cmp(&order(&b.1))));
    // The first bar is drawn at the bottom: reverse, so that the list reads
    // from the top.
    v.reverse();
    bars(
        &dir.join("sites.svg"),
        "Matching URLs in memory, per site and engine",
        "URLs per second (log)",
        &v,
        &rate_fmt,
    )
}

fn e2e(dir: &Path, rows: &[Row]) -> Result<bool> {
    let mut v: Vec<(String, String, f64)> = rows
        .iter()
        .filter(|r| field(r, "kind") == "e2e")
        .filter_map(|r| {
            Some((
                field(r, "group").trim_start_matches("e2e/").to_string(),
                field(r, "engine").to_string(),
                rate(r)?,
            ))
        })
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0).then(order(&a.1).cmp(&order(&b.1))));
    v.reverse();
    bars(
        &dir.join("e2e.svg"),
        "File to CSV: robots-batch's Batch vs the floor and the peers",
        "lines per second (log)",
        &v,
        &rate_fmt,
    )
}

fn compile_size(dir: &Path, rows: &[Row], memory: bool) -> Result<bool> {
    let rs: Vec<&Row> =
        rows.iter().filter(|r| field(r, "group") == "compile-size").collect();
    let y = |r: &Row| -> Option<f64> {
        let v: f64 = if memory {
            r.get("heap_bytes")?.parse().ok()?
        } else {
            r.get("ns")?.parse().ok()?
        };
        (v > 0.0).then_some(v)
    };
    let mut lines = series(&rs, |r| num(r, "robots_bytes"), y);
    if memory {
        // robotstxt keeps nothing: it parses again for every URL.
        lines.retain(|l| l.0 != "robotstxt-parse");
    }
    let (name, title, ydesc): (&str, &str, &str) = if memory {
        (
            "memory-size.svg",
            "Heap kept by the compiled matcher vs robots.txt size",
            "heap bytes kept",
        )
    } else {
        (
            "compile-size.svg",
            "Compile time vs robots.txt size (real files)",
            "time per compile",
        )
    };
    let fmt_time = |v: &f64| {
        if *v >= 1e9 {
            format!("{:.0} s", v / 1e9)
        } else if *v >= 1e6 {
            format!("{:.0} ms", v / 1e6)
        } else if *v >= 1e3 {
            format!("{:.0} µs", v / 1e3)
        } else {
            format!("{v:.0} ns")
        }
    };
    let fmt_mem = |v: &f64| format!("{}B", fmt_si(*v));
    line_chart(
        &dir.join(name),
        title,
        "robots.txt bytes",
        ydesc,
        &lines,
        &[],
        true,
        if memory { &fmt_mem } else { &fmt_time },
        SeriesLabelPosition::UpperLeft,
    )
}
