//! `Matchers`: one robots.txt compiled for one or more agents, judging
//! lists and Arrow arrays of URLs.

use std::sync::{Arc, Mutex};

use arrow_array::builder::{Int32Builder, StringBuilder};
use arrow_array::ArrayRef;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyList, PyString};

use robots_batch::{
    usage::Category, Dialect, Matcher, MatcherBuilder, Robots, Scratch, Usage,
    UsagePrefs, Verdict,
};

use crate::args::{
    agent_index, lossy, parse_agents, parse_dialect, parse_engine, py_urls,
};
use crate::arrow::{column_name, columns, import_array, per_agent, ArrowUrls};

/// A robots.txt compiled for one or more agents in one dialect.
#[pyclass(module = "robots_batch._robots_batch", frozen)]
pub(crate) struct Matchers {
    agents: Vec<String>,
    dialect: Dialect,
    matchers: Vec<Matcher>,
    /// Each agent's AI usage preferences (few lines: selected always).
    usages: Vec<Usage>,
    /// Scratch for each matcher, reused between calls.
    scratch: Mutex<Vec<Vec<Scratch>>>,
}

/// A preference's name, `None` when the URL may not be fetched.
fn pref_name(prefs: Option<&UsagePrefs>, c: Category) -> Option<&'static str> {
    prefs.map(|p| p.get(c).name())
}

impl Matchers {
    fn take_scratch(&self) -> Vec<Scratch> {
        let mut pool = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        pool.pop().unwrap_or_else(|| {
            self.matchers.iter().map(Matcher::scratch).collect()
        })
    }

    fn give_scratch(&self, scratch: Vec<Scratch>) {
        let mut pool = self.scratch.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < 8 {
            pool.push(scratch);
        }
    }

    /// Runs `f` over each URL's verdict by the matcher at `m`, with the
    /// URL's path, without the GIL.
    fn each<U: Sync>(
        &self,
        py: Python<'_>,
        agents: std::ops::Range<usize>,
        urls: &U,
        len: usize,
        get: impl Fn(&U, usize) -> Option<&[u8]> + Send + Sync,
        mut f: impl FnMut(usize, Option<(Verdict, &[u8])>) + Send,
    ) {
        let mut scratch = self.take_scratch();
        py.detach(|| {
            // The agents share the dialect, so each URL's path is
            // extracted once for all of them.
            let mut buf = vec![];
            for i in 0..len {
                let Some(url) = get(urls, i) else {
                    agents.clone().for_each(|m| f(m, None));
                    continue;
                };
                let path = self.dialect.path(url, &mut buf);
                for m in agents.clone() {
                    let v =
                        self.matchers[m].verdict_path(path, &mut scratch[m]);
                    f(m, Some((v, path)));
                }
            }
        });
        self.give_scratch(scratch);
    }

    /// One agent's verdicts on a Python sequence of URLs, and the agent's
    /// index.
    fn list_verdicts(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<(usize, Vec<Option<Verdict>>)> {
        let m = agent_index(&self.agents, agent)?;
        let urls = py_urls(urls)?;
        let mut out = Vec::with_capacity(urls.len());
        self.each(
            py,
            m..m + 1,
            &urls,
            urls.len(),
            |u, i| u[i].bytes(),
            |_, v| out.push(v.map(|(v, _)| v)),
        );
        Ok((m, out))
    }

    /// The usage preferences of the agent at `m` for a path it was given
    /// `v` for: `None` when it may not fetch it.
    fn prefs(&self, m: usize, v: Verdict, path: &[u8]) -> Option<UsagePrefs> {
        v.is_allowed().then(|| self.usages[m].prefs(path))
    }
}

#[pymethods]
impl Matchers {
    #[new]
    #[pyo3(signature = (robots, agents, dialect, engine, max_robots_bytes))]
    fn new(
        py: Python<'_>,
        robots: &Bound<'_, PyAny>,
        agents: &Bound<'_, PyAny>,
        dialect: &str,
        engine: &str,
        max_robots_bytes: usize,
    ) -> PyResult<Matchers> {
        let body: Vec<u8> = if let Ok(s) = robots.extract::<PyBackedStr>() {
            s.as_bytes().to_vec()
        } else if let Ok(b) = robots.extract::<PyBackedBytes>() {
            b.to_vec()
        } else {
            return Err(PyTypeError::new_err(
                "robots must be the robots.txt as bytes or str",
            ));
        };
        let dialect = parse_dialect(dialect)?;
        let agents = parse_agents(agents, dialect)?;
        let mut builder = MatcherBuilder::new();
        builder.engine(parse_engine(engine)?);
        let (matchers, usages) = py.detach(|| {
            let robots = Robots::parse_with_limit(&body, max_robots_bytes);
            let matchers =
                agents.iter().map(|a| builder.build(&robots, a, dialect));
            let usages =
                agents.iter().map(|a| Usage::select(&robots, a, dialect));
            (matchers.collect(), usages.collect())
        });
        Ok(Matchers {
            agents,
            dialect,
            matchers,
            usages,
            scratch: Mutex::new(vec![]),
        })
    }

    #[getter]
    fn agents(&self) -> Vec<String> {
        self.agents.clone()
    }

    #[getter]
    fn dialect(&self) -> &'static str {
        self.dialect.name()
    }

    /// The engine strategy of each agent's matcher.
    #[getter]
    fn strategies(&self) -> Vec<&'static str> {
        self.matchers.iter().map(Matcher::strategy).collect()
    }

    #[pyo3(signature = (urls, agent=None))]
    fn verdicts<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (_, out) = self.list_verdicts(py, urls, agent)?;
        let allowed = PyString::intern(py, "allowed");
        let disallowed = PyString::intern(py, "disallowed");
        PyList::new(
            py,
            out.into_iter().map(|v| match v.map(Verdict::is_allowed) {
                Some(true) => Some(allowed.clone()),
                Some(false) => Some(disallowed.clone()),
                None => None,
            }),
        )
    }

    #[pyo3(signature = (urls, agent=None))]
    fn explain<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (m, out) = self.list_verdicts(py, urls, agent)?;
        let items = out
            .into_iter()
            .map(|v| {
                v.map(|v| {
                    let why = self.matchers[m].explain(v.reason());
                    let rule = why.rule();
                    (
                        v.name(),
                        why.reason().name(),
                        rule.map(|r| r.line()),
                        rule.map(|r| lossy(r.text())),
                        why.group().map(lossy),
                    )
                })
            })
            .collect::<Vec<_>>();
        PyList::new(py, items)
    }

    /// Each URL's verdict and AI usage preferences (train-ai, search,
    /// ai-input, then the line that decided each), the preferences `None`
    /// when the URL may not be fetched; `None` for a `None` URL.
    #[pyo3(signature = (urls, agent=None))]
    fn usage<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let m = agent_index(&self.agents, agent)?;
        let urls = py_urls(urls)?;
        let mut out = Vec::with_capacity(urls.len());
        self.each(
            py,
            m..m + 1,
            &urls,
            urls.len(),
            |u, i| u[i].bytes(),
            |_, v| {
                out.push(v.map(|(v, path)| {
                    let p = self.prefs(m, v, path);
                    let [t, s, a] = Category::ALL;
                    let line = |c| p.and_then(|p| p.line(c));
                    (
                        v.name(),
                        pref_name(p.as_ref(), t),
                        pref_name(p.as_ref(), s),
                        pref_name(p.as_ref(), a),
                        line(t),
                        line(s),
                        line(a),
                    )
                }))
            },
        );
        PyList::new(py, out)
    }

    /// The Arrow form: verdict columns (and the explanations, and the
    /// usage preferences) for an Arrow array of URLs.
    #[pyo3(signature = (urls, explain=false, usage=false))]
    fn evaluate_arrow<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        explain: bool,
        usage: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let array = import_array(urls)?;
        let urls = ArrowUrls::new(&*array)?;
        let n = urls.len();
        let k = self.matchers.len();
        let mut verdict =
            per_agent(k, || StringBuilder::with_capacity(n, n * 10));
        let mut line = per_agent(k, Int32Builder::new);
        let mut rule = per_agent(k, StringBuilder::new);
        let mut group = per_agent(k, StringBuilder::new);
        let mut reason = per_agent(k, StringBuilder::new);
        // Per agent, per category: the preference and its deciding line.
        let mut pref = per_agent(k, || {
            Category::ALL.map(|_| StringBuilder::with_capacity(n, n * 8))
        });
        let mut pref_line =
            per_agent(k, || Category::ALL.map(|_| Int32Builder::new()));
        self.each(
            py,
            0..k,
            &urls,
            n,
            |u, i| u.get(i),
            |m, v| {
                let Some((v, path)) = v else {
                    verdict[m].append_null();
                    if explain {
                        line[m].append_null();
                        rule[m].append_null();
                        group[m].append_null();
                        reason[m].append_null();
                    }
                    if usage {
                        pref[m].iter_mut().for_each(|b| b.append_null());
                        if explain {
                            let lines = pref_line[m].iter_mut();
                            lines.for_each(|b| b.append_null());
                        }
                    }
                    return;
                };
                if usage {
                    let p = self.prefs(m, v, path);
                    for (i, c) in Category::ALL.into_iter().enumerate() {
                        pref[m][i].append_option(pref_name(p.as_ref(), c));
                        if explain {
                            let l = p.and_then(|p| p.line(c));
                            pref_line[m][i].append_option(l.map(|l| l as i32));
                        }
                    }
                }
                verdict[m].append_value(v.name());
                if explain {
                    let why = self.matchers[m].explain(v.reason());
                    let r = why.rule();
                    line[m].append_option(r.map(|r| r.line() as i32));
                    rule[m].append_option(
                        r.map(|r| String::from_utf8_lossy(r.text())),
                    );
                    group[m].append_option(
                        why.group().map(String::from_utf8_lossy),
                    );
                    reason[m].append_value(why.reason().name());
                }
            },
        );
        let mut cols = vec![];
        for m in 0..k {
            cols.push((
                column_name(&self.agents, m, "verdict"),
                Arc::new(verdict[m].finish()) as ArrayRef,
            ));
            if explain {
                let extra: [(&str, ArrayRef); 4] = [
                    ("line", Arc::new(line[m].finish())),
                    ("rule", Arc::new(rule[m].finish())),
                    ("group", Arc::new(group[m].finish())),
                    ("reason", Arc::new(reason[m].finish())),
                ];
                for (name, col) in extra {
                    cols.push((column_name(&self.agents, m, name), col));
                }
            }
            if usage {
                let names = ["train_ai", "search", "ai_input"];
                for (i, name) in names.into_iter().enumerate() {
                    let col = Arc::new(pref[m][i].finish()) as ArrayRef;
                    cols.push((column_name(&self.agents, m, name), col));
                }
                if explain {
                    let names =
                        ["train_ai_line", "search_line", "ai_input_line"];
                    for (i, name) in names.into_iter().enumerate() {
                        let col =
                            Arc::new(pref_line[m][i].finish()) as ArrayRef;
                        cols.push((column_name(&self.agents, m, name), col));
                    }
                }
            }
        }
        columns(py, cols)
    }
}
