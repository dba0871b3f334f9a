//! `Crawl`: URLs of many hosts, each judged by its own origin's robots.txt
//! fetch: the newest capture, the one in effect as of a date, or the one
//! in effect at each URL's own fetch time.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::builder::{Int32Builder, StringBuilder};
use arrow_array::ArrayRef;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use robots_batch::crawl::{
    Assume, BeforeFirst, Capture, CrawlJudge, CrawlReason, CrawlVerdict,
    FetchPolicy, FetchSet, GroupedScratch, MatcherCache, MAX_REDIRECTS,
};
use robots_batch::{MatcherBuilder, Reason, Timestamp};

use crate::args::{
    agent_index, lossy, parse_agents, parse_dialect, parse_engine, py_urls,
};
use crate::arrow::{column_name, columns, import_array, per_agent, ArrowUrls};
use crate::fetches::add_fetches;
use crate::times::{required_time, url_times};

/// The least bytes of a `Crawl`'s matchers' cache when none is given, and
/// of the process-wide cache.
const DEFAULT_CACHE_BYTES: usize = 256 << 20;

/// A `Crawl`'s matchers' cache when none is given: 256 MiB, or room for
/// the rules and matchers of every body held if that is more (as
/// allocated, about 2.7 times a body's bytes while its rules are scanned
/// and 5.3 times once compiled, on average over the corpus). Batches of a
/// log in random host order meet most origins again and again, and a
/// cache too small for them builds their matchers each time.
fn default_cache_bytes(set: &FetchSet) -> usize {
    set.body_bytes().saturating_mul(6).max(DEFAULT_CACHE_BYTES)
}

/// The matchers compiled by every `Crawl` of this process (per executor
/// under Spark), shared so that a robots.txt seen again is not compiled
/// again.
fn shared_cache(bytes: Option<usize>) -> Arc<MatcherCache> {
    static CACHE: OnceLock<Arc<MatcherCache>> = OnceLock::new();
    Arc::clone(CACHE.get_or_init(|| {
        Arc::new(MatcherCache::new(bytes.unwrap_or(DEFAULT_CACHE_BYTES)))
    }))
}

/// How many compiled sets of matchers the process-wide cache holds, and
/// the bytes it accounts for.
#[pyfunction]
pub(crate) fn cache_info() -> (usize, usize) {
    let cache = shared_cache(None);
    (cache.len(), cache.memory_usage())
}

fn parse_assume(what: &str, value: &str) -> PyResult<Assume> {
    match value {
        "allow" => Ok(Assume::Allow),
        "disallow" => Ok(Assume::Disallow),
        _ => Err(PyValueError::new_err(format!(
            "{what} must be \"allow\" or \"disallow\", not {value:?}"
        ))),
    }
}

fn parse_before_first(value: &str) -> PyResult<BeforeFirst> {
    match value {
        "earliest" => Ok(BeforeFirst::Earliest),
        "unknown" => Ok(BeforeFirst::Unknown),
        _ => Err(PyValueError::new_err(format!(
            "before_first must be \"earliest\" or \"unknown\", not {value:?}"
        ))),
    }
}

/// Which capture judges, from `as_of` (a time, a day standing for its
/// end) and `at_fetch_time`, which exclude each other as the command's
/// flags do.
fn parse_capture(
    as_of: Option<&Bound<'_, PyAny>>,
    at_fetch_time: bool,
) -> PyResult<Capture> {
    let as_of = match as_of {
        Some(value) => required_time(value, true, "as_of")?,
        None => None,
    };
    match (as_of, at_fetch_time) {
        (Some(_), true) => Err(PyValueError::new_err(
            "give as_of= (every URL as of one date) or at_fetch_time=True \
             (each URL at its own time), not both",
        )),
        (Some(t), false) => Ok(Capture::AsOf(t)),
        (None, true) => Ok(Capture::AtFetchTime),
        (None, false) => Ok(Capture::Newest),
    }
}

/// What one URL came to.
enum Judged<'v> {
    /// No URL (a null): not judged.
    Nothing,
    /// Its fetch time could not be read: `unknown`, `no-time`, for every
    /// agent.
    NoTime,
    /// One verdict per agent, for a URL fetched at the time given
    /// (`None`: judged without one).
    Verdicts(&'v [CrawlVerdict], Option<Timestamp>),
}

/// The end of the authority of `url` (`scheme://host:port`), or all of it
/// when it has no `://`: URLs with the same one share an origin.
fn authority(url: &[u8]) -> &[u8] {
    let Some(start) = url.windows(3).position(|w| w == b"://") else {
        return url;
    };
    let rest = &url[start + 3..];
    let end = rest.iter().position(|b| matches!(b, b'/' | b'?' | b'#'));
    &url[..start + 3 + end.unwrap_or(rest.len())]
}

/// URLs of many hosts, each judged by its own origin's robots.txt fetch.
#[pyclass(module = "robots_batch._robots_batch", frozen)]
pub(crate) struct Crawl {
    judge: CrawlJudge,
    /// Grouped-judging state reused between calls: the origins located
    /// by earlier batches stay located, and its buffers stay allocated.
    grouped: Mutex<Vec<GroupedScratch>>,
    /// How many origins and hosts have a robots.txt fetch.
    sites: usize,
    /// How many captures of their robots.txt those hold, together.
    captures: usize,
}

impl Crawl {
    fn take_grouped(&self) -> GroupedScratch {
        let mut pool = self.grouped.lock().unwrap_or_else(|e| e.into_inner());
        pool.pop().unwrap_or_else(|| GroupedScratch::new(&self.judge))
    }

    fn give_grouped(&self, grouped: GroupedScratch) {
        let mut pool = self.grouped.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < 8 {
            pool.push(grouped);
        }
    }

    /// Runs `f` over what each URL came to, in order, without the GIL:
    /// by the policy's capture, or with `times` at each URL's own time.
    fn each<U: Sync>(
        &self,
        py: Python<'_>,
        urls: &U,
        len: usize,
        get: impl Fn(&U, usize) -> Option<&[u8]> + Send + Sync,
        times: Option<&[Option<Timestamp>]>,
        mut f: impl FnMut(Judged<'_>) + Send,
    ) {
        py.detach(|| {
            let n = self.judge.agents().len();
            let url = |i: usize| get(urls, i);
            let verdicts = match times {
                None => self.judge_grouped(len, url),
                Some(times) => self.judge_timed(len, url, times),
            };
            let mut one = Vec::with_capacity(n);
            for i in 0..len {
                one.clear();
                one.extend(verdicts[i * n..(i + 1) * n].iter().flatten());
                let at = times.map(|t| t[i]);
                // A URL that is not there (a null) was not judged.
                f(match (url(i), at) {
                    (None, _) => Judged::Nothing,
                    (Some(_), Some(None)) => Judged::NoTime,
                    (Some(_), at) if one.len() == n => {
                        Judged::Verdicts(&one, at.flatten())
                    }
                    (Some(_), _) => Judged::Nothing,
                });
            }
        });
    }

    /// The verdicts of URLs `0..len` (each agent's of a URL side by side;
    /// `None` for a null URL), judged grouped by origin, as the command
    /// judges a chunk of a crawl log.
    fn judge_grouped<'u>(
        &self,
        len: usize,
        url: impl Fn(usize) -> Option<&'u [u8]>,
    ) -> Vec<Option<CrawlVerdict>> {
        let n = self.judge.agents().len();
        let mut verdicts = vec![None; len * n];
        let mut grouped = self.take_grouped();
        grouped.judge(&self.judge, len, url, |i, one, _| {
            for (slot, &v) in verdicts[i * n..(i + 1) * n].iter_mut().zip(one)
            {
                *slot = Some(v);
            }
        });
        self.give_grouped(grouped);
        verdicts
    }

    /// [`Crawl::judge_grouped`] of URLs fetched at `times`, each by the
    /// capture in effect then (`None` for a URL without a time, too).
    fn judge_timed<'u>(
        &self,
        len: usize,
        url: impl Fn(usize) -> Option<&'u [u8]>,
        times: &[Option<Timestamp>],
    ) -> Vec<Option<CrawlVerdict>> {
        let n = self.judge.agents().len();
        let mut verdicts = vec![None; len * n];
        // An origin's URLs one after the other, oldest first, so that the
        // scratch keeps each capture's matchers for a run of URLs rather
        // than changing them at nearly every URL of a mixed batch.
        let mut order: Vec<(&[u8], Timestamp, usize, &[u8])> = (0..len)
            .filter_map(|i| {
                let u = url(i)?;
                Some((authority(u), times[i]?, i, u))
            })
            .collect();
        order.sort_unstable_by_key(|&(host, at, i, _)| (host, at, i));
        let mut scratch = self.judge.scratch();
        let mut out = Vec::with_capacity(n);
        for (_, at, i, u) in order {
            self.judge.verdicts_at(u, at, &mut scratch, &mut out);
            for (slot, &v) in verdicts[i * n..(i + 1) * n].iter_mut().zip(&out)
            {
                *slot = Some(v);
            }
        }
        verdicts
    }

    /// Each URL's time from `times`, if the crawl judges at fetch time,
    /// as it must then (and only then) be given.
    fn times(
        &self,
        times: Option<&Bound<'_, PyAny>>,
        n: usize,
    ) -> PyResult<Option<Vec<Option<Timestamp>>>> {
        let timed = self.judge.policy().capture == Capture::AtFetchTime;
        match (times, timed) {
            (Some(times), true) => Ok(Some(url_times(times, n)?)),
            (None, false) => Ok(None),
            (Some(_), false) => Err(PyValueError::new_err(
                "times= judges each URL at its own fetch time, which needs \
                 Crawl(at_fetch_time=True) (it keeps every capture of an \
                 origin)",
            )),
            (None, true) => Err(PyValueError::new_err(
                "this Crawl judges each URL at its own fetch time \
                 (at_fetch_time=True): give them with times=",
            )),
        }
    }

    /// Agent `m`'s verdict and reason names, and the verdict if a fetch
    /// or the lack of one gave it; `None` for no URL.
    fn named(
        &self,
        judged: &Judged<'_>,
        m: usize,
    ) -> Option<(&'static str, &'static str, Option<CrawlVerdict>)> {
        match *judged {
            Judged::Nothing => None,
            Judged::NoTime => {
                Some(("unknown", CrawlReason::NoTime.name(), None))
            }
            Judged::Verdicts(v, at) => {
                let v = v[m];
                Some((v.name(), self.judge.reason_name(v, at), Some(v)))
            }
        }
    }

    fn robots_name(&self, v: CrawlVerdict) -> Option<String> {
        self.judge.robots_of(v).map(str::to_string)
    }

    /// When the capture that decided `v` was made, in RFC 3339.
    fn capture(&self, v: CrawlVerdict) -> Option<String> {
        self.judge.capture_time(v).map(|t| t.to_string())
    }

    /// One agent's verdicts on a Python sequence of URLs (at `times`, if
    /// given), and the agent's index; each as [`Crawl::named`] gives it,
    /// with the fetch, capture and rule that decided.
    #[allow(clippy::type_complexity)]
    fn list_verdicts(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
        agent: Option<&str>,
        times: Option<&Bound<'_, PyAny>>,
        explain: bool,
    ) -> PyResult<
        Vec<
            Option<(
                &'static str,
                &'static str,
                Option<String>,
                Option<String>,
                Option<u32>,
                Option<String>,
            )>,
        >,
    > {
        let m = agent_index(self.judge.agents(), agent)?;
        let urls = py_urls(urls)?;
        let times = self.times(times, urls.len())?;
        let mut out = Vec::with_capacity(urls.len());
        self.each(
            py,
            &urls,
            urls.len(),
            |u, i| u[i].bytes(),
            times.as_deref(),
            |judged| {
                out.push(self.named(&judged, m).map(|(verdict, reason, v)| {
                    let v = v.filter(|_| explain);
                    let robots = v.and_then(|v| self.robots_name(v));
                    let capture = v.and_then(|v| self.capture(v));
                    let (line, rule) =
                        v.and_then(|v| self.rule_of(v, m)).unzip();
                    (verdict, reason, robots, capture, line, rule)
                }))
            },
        );
        Ok(out)
    }

    /// The deciding rule's line and text, when a rule of the agent at `m`
    /// decided.
    fn rule_of(&self, v: CrawlVerdict, m: usize) -> Option<(u32, String)> {
        let CrawlReason::Robots(reason @ Reason::Rule(_)) = v.reason() else {
            return None;
        };
        let rules = self.judge.rules(v.fetch()?);
        let rule = reason.rule(rules.get(m)?)?;
        Some((rule.line(), lossy(rule.text())))
    }
}

#[pymethods]
impl Crawl {
    #[new]
    #[pyo3(signature = (
        agents, dialect, engine, robots_dir, dated_dirs, robots_index,
        robots_warc, fetches, fetch_array, on_4xx, on_401_403, on_5xx, on_missing, max_redirects,
        max_robots_bytes, cache_bytes, shared_cache, as_of, at_fetch_time,
        before_first
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        agents: &Bound<'_, PyAny>,
        dialect: &str,
        engine: &str,
        robots_dir: Option<PathBuf>,
        dated_dirs: Vec<(Bound<'_, PyAny>, PathBuf)>,
        robots_index: Vec<PathBuf>,
        robots_warc: Vec<PathBuf>,
        fetches: Option<&Bound<'_, PyAny>>,
        fetch_array: Option<Vec<Bound<'_, PyAny>>>,
        on_4xx: &str,
        on_401_403: &str,
        on_5xx: &str,
        on_missing: Option<&str>,
        max_redirects: usize,
        max_robots_bytes: usize,
        cache_bytes: Option<usize>,
        shared_cache: bool,
        as_of: Option<&Bound<'_, PyAny>>,
        at_fetch_time: bool,
        before_first: &str,
    ) -> PyResult<Crawl> {
        let dialect = parse_dialect(dialect)?;
        let agents = parse_agents(agents, dialect)?;
        let mut builder = MatcherBuilder::new();
        builder.engine(parse_engine(engine)?);
        if max_redirects > MAX_REDIRECTS {
            return Err(PyValueError::new_err(format!(
                "max_redirects is at most {MAX_REDIRECTS}, not {max_redirects}"
            )));
        }
        let policy = FetchPolicy {
            on_4xx: parse_assume("on_4xx", on_4xx)?,
            on_401_403: parse_assume("on_401_403", on_401_403)?,
            on_5xx: parse_assume("on_5xx", on_5xx)?,
            on_missing: on_missing
                .map(|m| parse_assume("on_missing", m))
                .transpose()?,
            max_redirects,
            max_robots_bytes,
            // Set once the bodies are read (`default_cache_bytes`).
            cache_bytes: 0,
            capture: parse_capture(as_of, at_fetch_time)?,
            before_first: parse_before_first(before_first)?,
        };
        let mut set = FetchSet::new();
        set.parse_limit(max_robots_bytes);
        add_fetches(py, &mut set, fetches, fetch_array)?;
        let dated_dirs = dated_dirs
            .into_iter()
            .map(|(date, dir)| {
                let what = format!("the date of robots_dir {dir:?}");
                match required_time(&date, false, &what)? {
                    Some(t) => Ok((t, dir)),
                    None => {
                        Err(PyValueError::new_err(format!("{what} is None")))
                    }
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        let read = |set: &mut FetchSet| -> std::io::Result<()> {
            if let Some(dir) = &robots_dir {
                set.read_dir(dir)?;
            }
            // Each file a capture of its host made at the directory's
            // date; entries that are no `<host>.txt` file are passed over,
            // as in an undated directory.
            let mut skipped = vec![];
            for (date, dir) in &dated_dirs {
                set.read_dated_dir(dir, *date, &mut skipped)?;
            }
            for index in &robots_index {
                set.read_index(index)?;
            }
            for warc in &robots_warc {
                set.read_warc(warc)?;
            }
            Ok(())
        };
        // A file that is there but no index or WARC file (a line that is
        // no fetch, a date that is no date) is bad input, not a failure of
        // the system.
        py.detach(|| read(&mut set)).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidData => {
                PyValueError::new_err(e.to_string())
            }
            _ => PyOSError::new_err(e.to_string()),
        })?;
        let cache_bytes =
            cache_bytes.unwrap_or_else(|| default_cache_bytes(&set));
        let policy = FetchPolicy { cache_bytes, ..policy };
        let mut judge =
            CrawlJudge::new(set, policy, builder, &agents, dialect);
        if shared_cache {
            judge =
                judge.with_shared_cache(self::shared_cache(Some(cache_bytes)));
        }
        let sites: Vec<usize> = judge.sites().collect();
        let fetches = judge.fetches();
        let captures =
            sites.iter().map(|&s| fetches.captures_of(s).count()).sum();
        Ok(Crawl {
            sites: sites.len(),
            captures,
            judge,
            grouped: Mutex::new(vec![]),
        })
    }

    #[getter]
    fn agents(&self) -> Vec<String> {
        self.judge.agents().to_vec()
    }

    /// The bytes of compiled matchers its cache keeps at most.
    #[getter]
    fn cache_bytes(&self) -> usize {
        self.judge.policy().cache_bytes
    }

    /// The instant every URL is judged as of, in RFC 3339, if one is.
    #[getter]
    fn as_of(&self) -> Option<String> {
        self.judge.as_of().map(|t| t.to_string())
    }

    /// Whether each URL is judged at its own fetch time.
    #[getter]
    fn at_fetch_time(&self) -> bool {
        self.judge.policy().capture == Capture::AtFetchTime
    }

    /// `earliest` or `unknown`: what a URL older than every capture gets.
    #[getter]
    fn before_first(&self) -> &'static str {
        self.judge.policy().before_first.name()
    }

    /// How many captures of their robots.txt the sites hold together.
    #[getter]
    fn captures(&self) -> usize {
        self.captures
    }

    /// How many sites (origins and hosts) have a robots.txt fetch, each
    /// counted once however many captures it has.
    fn __len__(&self) -> usize {
        self.sites
    }

    #[pyo3(signature = (urls, agent=None, times=None))]
    fn verdicts<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
        times: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let out = self.list_verdicts(py, urls, agent, times, false)?;
        let items = out
            .into_iter()
            .map(|v| v.map(|(verdict, reason, ..)| (verdict, reason)))
            .collect::<Vec<_>>();
        PyList::new(py, items)
    }

    #[pyo3(signature = (urls, agent=None, times=None))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
        times: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let out = self.list_verdicts(py, urls, agent, times, true)?;
        PyList::new(py, out)
    }

    /// The Arrow form: verdict and reason columns (and with `explain`, the
    /// deciding fetch, its capture's date, line and rule) for an Arrow
    /// array of URLs, fetched at `times` (an Arrow array or a list) when
    /// the crawl judges at fetch time.
    #[pyo3(signature = (urls, explain=false, times=None))]
    fn evaluate_arrow<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        explain: bool,
        times: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyList>> {
        let array = import_array(urls)?;
        let urls = ArrowUrls::new(&*array)?;
        let n = urls.len();
        let times = self.times(times, n)?;
        let agents = self.judge.agents().to_vec();
        let k = agents.len();
        let mut verdict =
            per_agent(k, || StringBuilder::with_capacity(n, n * 10));
        let mut reason =
            per_agent(k, || StringBuilder::with_capacity(n, n * 8));
        let mut robots = per_agent(k, StringBuilder::new);
        let mut capture = per_agent(k, StringBuilder::new);
        let mut line = per_agent(k, Int32Builder::new);
        let mut rule = per_agent(k, StringBuilder::new);
        self.each(
            py,
            &urls,
            n,
            |u, i| u.get(i),
            times.as_deref(),
            |judged| {
                for m in 0..k {
                    let Some((name, why, v)) = self.named(&judged, m) else {
                        verdict[m].append_null();
                        reason[m].append_null();
                        if explain {
                            robots[m].append_null();
                            capture[m].append_null();
                            line[m].append_null();
                            rule[m].append_null();
                        }
                        continue;
                    };
                    verdict[m].append_value(name);
                    reason[m].append_value(why);
                    if explain {
                        robots[m].append_option(
                            v.and_then(|v| self.robots_name(v)),
                        );
                        capture[m]
                            .append_option(v.and_then(|v| self.capture(v)));
                        let (l, r) =
                            v.and_then(|v| self.rule_of(v, m)).unzip();
                        line[m].append_option(l.map(|l| l as i32));
                        rule[m].append_option(r);
                    }
                }
            },
        );
        let mut cols = vec![];
        for m in 0..k {
            let mut named: Vec<(&str, ArrayRef)> = vec![
                ("verdict", Arc::new(verdict[m].finish())),
                ("reason", Arc::new(reason[m].finish())),
            ];
            if explain {
                named.push(("robots", Arc::new(robots[m].finish())));
                named.push(("capture", Arc::new(capture[m].finish())));
                named.push(("line", Arc::new(line[m].finish())));
                named.push(("rule", Arc::new(rule[m].finish())));
            }
            for (name, col) in named {
                cols.push((column_name(&agents, m, name), col));
            }
        }
        columns(py, cols)
    }
}
