//! The picture of a history survey: an SVG line chart of the share of
//! sites that block each agent fully, period by period, one line per
//! agent.
//!
//! Drawn with plotters' SVG backend, which writes its labels as `<text>`
//! elements in the viewer's sans-serif font: it needs no font files, and
//! the labels are text a page can search.

use std::fmt;

use plotters::prelude::*;

use super::history::History;
use super::period::Period;

/// The most agents drawn: more lines than this cannot be told apart. With
/// more agents, those that the most sites blocked fully in the last
/// period with any site are drawn, and the title says so.
pub const MAX_PLOTTED_AGENTS: usize = 12;

/// The chart's size in pixels.
const SIZE: (u32, u32) = (800, 450);

/// One colour per line, apart enough to be told apart.
const COLORS: [RGBColor; MAX_PLOTTED_AGENTS] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
    RGBColor(0, 0, 0),
    RGBColor(174, 199, 232),
];

/// Why a chart could not be drawn: what plotters said.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct PlotError(String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot draw the plot: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

fn err<E: fmt::Display>(e: E) -> PlotError {
    PlotError(e.to_string())
}

/// The share of sites (in per cent, of those with a capture in effect)
/// that block `agent` fully in each period: `None` where no site has one.
pub fn full_shares(history: &History, agent: usize) -> Vec<Option<f64>> {
    (0..history.labels.len())
        .map(|k| {
            let c = history.counts(k, agent);
            let sites = c.sites();
            (sites > 0).then(|| 100.0 * c.full as f64 / sites as f64)
        })
        .collect()
}

/// The agents drawn, by index: all of them, or the
/// [`MAX_PLOTTED_AGENTS`] with the highest share in the last period that
/// has any site (in their order).
fn plotted(history: &History) -> Vec<usize> {
    let n = history.agents.len();
    if n <= MAX_PLOTTED_AGENTS {
        return (0..n).collect();
    }
    let last = (0..history.labels.len())
        .rev()
        .find(|&k| history.counts(k, 0).sites() > 0);
    let share = |a: usize| last.map_or(0, |k| history.counts(k, a).full);
    let mut by_share: Vec<usize> = (0..n).collect();
    // Stable: of agents as blocked, the first given.
    by_share.sort_by_key(|&a| std::cmp::Reverse(share(a)));
    let mut chosen = by_share[..MAX_PLOTTED_AGENTS].to_vec();
    chosen.sort_unstable();
    chosen
}

/// The chart of `history`, an SVG document: the share of sites that block
/// each agent fully (`full` of those with a capture in effect), per
/// period, one line per agent (at most [`MAX_PLOTTED_AGENTS`]), with a
/// title, the axes' names and a legend. A period without any site has no
/// point, and breaks the lines.
pub fn plot_svg(history: &History) -> Result<String, PlotError> {
    let agents = plotted(history);
    let n = history.labels.len();
    let shares: Vec<Vec<Option<f64>>> =
        agents.iter().map(|&a| full_shares(history, a)).collect();
    let top = shares.iter().flatten().flatten().fold(0.0f64, |m, &s| m.max(s));
    // Room above the highest line, in steps of 5 %, up to 100 %.
    let y_max = ((top * 1.15 / 5.0).ceil() * 5.0).clamp(5.0, 100.0);
    let unit = match history.period {
        Period::Month => "month",
        Period::Year => "year",
        Period::Crawl => "crawl (day of the captures)",
    };
    let mut title = format!("Sites that block each agent fully, by {unit}");
    if history.period == Period::Crawl {
        title = "Sites that block each agent fully, by crawl".to_string();
    }
    if agents.len() < history.agents.len() {
        title.push_str(&format!(
            " ({} of {} agents)",
            agents.len(),
            history.agents.len()
        ));
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let x_range = -0.5..(n.max(1) as f64 - 0.5);
        let mut chart = ChartBuilder::on(&root)
            .caption(&title, ("sans-serif", 22))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(60)
            .build_cartesian_2d(x_range, 0.0..y_max)
            .map_err(err)?;
        let labels = &history.labels;
        let x_label = |v: &f64| {
            let k = v.round();
            match (k - v).abs() < 1e-6 && k >= 0.0 {
                true => labels.get(k as usize).cloned().unwrap_or_default(),
                false => String::new(),
            }
        };
        chart
            .configure_mesh()
            .x_desc(unit)
            .y_desc("sites blocking the agent fully (%)")
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .x_labels(n.clamp(1, 12))
            .x_label_formatter(&x_label)
            .y_label_formatter(&|v| format!("{v:.0}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(err)?;
        for (i, (&agent, shares)) in agents.iter().zip(&shares).enumerate() {
            let color = COLORS[i % COLORS.len()];
            let style = color.stroke_width(2);
            let mut labelled = false;
            for run in runs(shares) {
                let line = chart
                    .draw_series(LineSeries::new(run.iter().copied(), style))
                    .map_err(err)?;
                if !labelled {
                    line.label(history.agents[agent].as_str()).legend(
                        move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 20, y)], style)
                        },
                    );
                    labelled = true;
                }
                chart
                    .draw_series(
                        run.iter().map(|&p| Circle::new(p, 3, color.filled())),
                    )
                    .map_err(err)?;
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(("sans-serif", 14))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// The points of a line, `(period, share)`, in runs of periods that have
/// a share.
fn runs(shares: &[Option<f64>]) -> Vec<Vec<(f64, f64)>> {
    let mut runs: Vec<Vec<(f64, f64)>> = vec![];
    let mut open = false;
    for (k, share) in shares.iter().enumerate() {
        match share {
            Some(s) if open => runs
                .last_mut()
                .into_iter()
                .for_each(|r| r.push((k as f64, *s))),
            Some(s) => {
                runs.push(vec![(k as f64, *s)]);
                open = true;
            }
            None => open = false,
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_break_where_no_site_counts() {
        let got = runs(&[Some(1.0), Some(2.0), None, Some(4.0)]);
        assert_eq!(got, vec![vec![(0.0, 1.0), (1.0, 2.0)], vec![(3.0, 4.0)]]);
        assert!(runs(&[None, None]).is_empty());
    }
}
