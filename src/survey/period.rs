//! The periods of a history survey: calendar months or years, or one per
//! crawl (each distinct day on which captures were made), and the months
//! a capture is carried forward by.

use chrono::{DateTime, Datelike, Months, NaiveDate};

use crate::time::Timestamp;

/// How a history survey cuts time into periods.
#[derive(Clone, Copy, Debug, Default, Eq, PartialEq)]
pub enum Period {
    /// Calendar months (UTC), labelled `2024-06`.
    #[default]
    Month,
    /// Calendar years (UTC), labelled `2024`.
    Year,
    /// One period per day (UTC) on which some capture was made, labelled
    /// `2024-06-01`: a dated directory, or one crawl's captures when they
    /// carry the crawl's date. Days without captures are no period.
    Crawl,
}

impl Period {
    /// `month`, `year` or `crawl`.
    pub fn name(self) -> &'static str {
        match self {
            Period::Month => "month",
            Period::Year => "year",
            Period::Crawl => "crawl",
        }
    }
}

/// The most periods a history holds: a month for each of 1,000 years. A
/// capture dated centuries away (a clock gone wrong, or a hostile index)
/// would otherwise make millions of rows for every agent.
pub const MAX_PERIODS: usize = 12_000;

/// The periods of a history, in order: each begins where the one before
/// ends (months and years), or on its own day (crawls).
#[derive(Clone, Debug, Eq, PartialEq)]
pub(super) struct Periods {
    /// Each period's first second.
    pub(super) starts: Vec<Timestamp>,
    /// Each period's end: the first second after it.
    pub(super) ends: Vec<Timestamp>,
    /// Each period's label.
    pub(super) labels: Vec<String>,
}

impl Periods {
    /// The periods of `kind` that span `times` (the instants of every
    /// dated capture, in any order): from the one holding the earliest to
    /// the one holding the latest, every month or year between them, or
    /// every day that has a capture. `Err` with their number when there
    /// would be more than [`MAX_PERIODS`].
    pub(super) fn spanning(
        kind: Period,
        times: impl Iterator<Item = Timestamp>,
    ) -> Result<Periods, usize> {
        let mut periods =
            Periods { starts: vec![], ends: vec![], labels: vec![] };
        match kind {
            Period::Crawl => {
                let mut days: Vec<NaiveDate> = times.map(day_of).collect();
                days.sort_unstable();
                days.dedup();
                if days.len() > MAX_PERIODS {
                    return Err(days.len());
                }
                for day in days {
                    let start = at_midnight(day);
                    let end = day.succ_opt().map_or(forever(), at_midnight);
                    periods.push(
                        start,
                        end,
                        day.format("%Y-%m-%d").to_string(),
                    );
                }
            }
            Period::Month | Period::Year => {
                let (mut low, mut high) =
                    (None::<Timestamp>, None::<Timestamp>);
                for t in times {
                    low = Some(low.map_or(t, |l| l.min(t)));
                    high = Some(high.map_or(t, |h| h.max(t)));
                }
                let (Some(low), Some(high)) = (low, high) else {
                    return Ok(periods);
                };
                let step = if kind == Period::Year { 12 } else { 1 };
                let first = first_of(kind, day_of(low));
                let last = first_of(kind, day_of(high));
                let count = months_between(first, last) / step + 1;
                if count > MAX_PERIODS as i64 {
                    return Err(usize::try_from(count).unwrap_or(usize::MAX));
                }
                let mut day = first;
                loop {
                    let next =
                        day.checked_add_months(Months::new(step as u32));
                    let end = next.map_or(forever(), at_midnight);
                    let label = match kind {
                        Period::Year => format!("{}", day.year()),
                        _ => day.format("%Y-%m").to_string(),
                    };
                    periods.push(at_midnight(day), end, label);
                    match next {
                        Some(next) if next <= last => day = next,
                        _ => break,
                    }
                }
            }
        }
        Ok(periods)
    }

    fn push(&mut self, start: Timestamp, end: Timestamp, label: String) {
        self.starts.push(start);
        self.ends.push(end);
        self.labels.push(label);
    }

    /// How many periods there are.
    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The last period that begins at or before `t`, if one does.
    pub(super) fn index_of(&self, t: Timestamp) -> Option<usize> {
        self.starts.partition_point(|&s| s <= t).checked_sub(1)
    }
}

/// The UTC day of `t` (the nearest chrono can hold, beyond its years).
fn day_of(t: Timestamp) -> NaiveDate {
    match DateTime::from_timestamp(t.seconds(), 0) {
        Some(d) => d.date_naive(),
        None if t.seconds() > 0 => NaiveDate::MAX,
        None => NaiveDate::MIN,
    }
}

/// An instant after every capture: the end of time, as far as a history
/// goes.
pub(super) fn forever() -> Timestamp {
    Timestamp::from_seconds(i64::MAX)
}

/// The first second of `day`.
fn at_midnight(day: NaiveDate) -> Timestamp {
    let t = day.and_hms_opt(0, 0, 0).map_or(0, |d| d.and_utc().timestamp());
    Timestamp::from_seconds(t)
}

/// The first day of the month or year of `day`.
fn first_of(kind: Period, day: NaiveDate) -> NaiveDate {
    let month = if kind == Period::Year { 1 } else { day.month() };
    NaiveDate::from_ymd_opt(day.year(), month, 1).unwrap_or(day)
}

fn months_between(a: NaiveDate, b: NaiveDate) -> i64 {
    let index =
        |d: NaiveDate| i64::from(d.year()) * 12 + i64::from(d.month0());
    index(b) - index(a)
}

/// The instant `months` calendar months after `t` (the same day of the
/// month, or the month's last when it is shorter: January 31st and one
/// month is the end of February); [`forever`] past chrono's years.
pub(super) fn add_months(t: Timestamp, months: u32) -> Timestamp {
    let Some(d) = DateTime::from_timestamp(t.seconds(), 0) else {
        return forever();
    };
    match d.naive_utc().checked_add_months(Months::new(months)) {
        Some(later) => Timestamp::from_seconds(later.and_utc().timestamp()),
        None => forever(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Timestamp {
        Timestamp::parse(text).unwrap()
    }

    fn labels(kind: Period, times: &[&str]) -> Vec<String> {
        let times = times.iter().map(|t| at(t));
        Periods::spanning(kind, times).unwrap().labels
    }

    #[test]
    fn months_span_the_captures() {
        assert_eq!(
            labels(Period::Month, &["2024-03-31T23:59:59Z", "2023-12-01"]),
            ["2023-12", "2024-01", "2024-02", "2024-03"]
        );
        assert_eq!(labels(Period::Month, &[]), Vec::<String>::new());
        let p =
            Periods::spanning(Period::Month, [at("2024-02-10")].into_iter())
                .unwrap();
        assert_eq!(p.starts, [at("2024-02-01")]);
        assert_eq!(p.ends, [at("2024-03-01")]);
    }

    #[test]
    fn years_and_crawls() {
        assert_eq!(
            labels(Period::Year, &["2022-06-01", "2024-01-01"]),
            ["2022", "2023", "2024"]
        );
        assert_eq!(
            labels(
                Period::Crawl,
                &["2024-06-01T10:00:00Z", "2024-01-05", "2024-06-01"]
            ),
            ["2024-01-05", "2024-06-01"]
        );
    }

    #[test]
    fn index_of_a_time() {
        let p = Periods::spanning(
            Period::Crawl,
            [at("2024-01-05"), at("2024-06-01")].into_iter(),
        )
        .unwrap();
        assert_eq!(p.index_of(at("2024-01-04T23:59:59Z")), None);
        assert_eq!(p.index_of(at("2024-01-05T12:00:00Z")), Some(0));
        assert_eq!(p.index_of(at("2024-05-31")), Some(0));
        assert_eq!(p.index_of(at("2025-01-01")), Some(1));
    }

    #[test]
    fn too_many_periods() {
        let far = [at("1970-01-01"), Timestamp::from_seconds(i64::MAX)];
        assert!(Periods::spanning(Period::Month, far.into_iter()).is_err());
        let ok = [at("1970-01-01"), at("2969-12-31")];
        assert_eq!(
            Periods::spanning(Period::Month, ok.into_iter()).unwrap().len(),
            MAX_PERIODS
        );
    }

    #[test]
    fn months_later() {
        assert_eq!(add_months(at("2024-01-31"), 1), at("2024-02-29"));
        assert_eq!(add_months(at("2024-01-15"), 12), at("2025-01-15"));
        assert_eq!(add_months(at("2024-01-15"), 0), at("2024-01-15"));
        let far = Timestamp::from_seconds(i64::MAX);
        assert_eq!(add_months(far, 1), forever());
    }
}
