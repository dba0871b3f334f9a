//! The `robots_batch._robots_batch` extension module: the robots-batch
//! library for Python. The Python package (`python/robots_batch/`) wraps it
//! with pyarrow conveniences and the Spark integration; everything that
//! decides a verdict lives in the library.
//!
//! URLs come in as Python lists (str, bytes or None) or as Arrow arrays
//! through the Arrow C data interface (the `__arrow_c_array__` PyCapsule
//! protocol), and go out the same way. Matching runs with the GIL
//! released.

use std::ffi::CString;
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::builder::{Int32Builder, LargeBinaryBuilder, StringBuilder};
use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyOSError, PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::{PyCapsule, PyList, PyString, PyTuple};

use robots_batch::crawl::{
    Assume, CrawlJudge, CrawlReason, CrawlVerdict, Fetch, FetchPolicy,
    FetchSet, GroupedScratch, MatcherCache, Origin, SharedBody, MAX_REDIRECTS,
};
use robots_batch::{
    agent_warning, usage::Category, Dialect, EngineKind, Matcher,
    MatcherBuilder, Reason, Robots, Scratch, Usage, UsagePrefs, Verdict,
    DEFAULT_MAX_ROBOTS_BYTES,
};

/// One URL of a Python list: str, bytes (or bytearray, memoryview) or None.
enum PyUrl {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
    Null,
}

impl PyUrl {
    fn bytes(&self) -> Option<&[u8]> {
        match self {
            PyUrl::Str(s) => Some(s.as_bytes()),
            PyUrl::Bytes(b) => Some(b),
            PyUrl::Null => None,
        }
    }
}

/// Reads a sequence of URLs, holding the GIL; the result can be read
/// without it.
fn py_urls(urls: &Bound<'_, PyAny>) -> PyResult<Vec<PyUrl>> {
    if urls.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "urls must be a sequence of URLs, not one str",
        ));
    }
    let mut out = Vec::with_capacity(urls.len().unwrap_or(0));
    for (i, item) in urls.try_iter()?.enumerate() {
        let item = item?;
        if item.is_none() {
            out.push(PyUrl::Null);
        } else if item.is_instance_of::<PyString>() {
            // Only a str with a lone surrogate has no UTF-8 form.
            let s = item.extract::<PyBackedStr>().map_err(|e| {
                PyValueError::new_err(format!(
                    "URL {i} is a str with no UTF-8 form ({e}); pass it \
                     as bytes, e.g. url.encode(\"utf-8\", \
                     \"surrogateescape\")"
                ))
            })?;
            out.push(PyUrl::Str(s));
        } else if let Ok(b) = item.extract::<PyBackedBytes>() {
            out.push(PyUrl::Bytes(b));
        } else if let Some(b) = buffer_bytes(&item) {
            out.push(PyUrl::Bytes(b));
        } else {
            return Err(PyTypeError::new_err(format!(
                "a URL must be str, bytes or None, not {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}

/// The bytes of an object with the buffer protocol (a memoryview, an
/// array of bytes), through `memoryview(obj).tobytes()`: the stable ABI
/// has no buffer API before Python 3.11.
fn buffer_bytes(item: &Bound<'_, PyAny>) -> Option<PyBackedBytes> {
    let py = item.py();
    let view =
        py.get_type::<pyo3::types::PyMemoryView>().call1((item,)).ok()?;
    view.call_method0("tobytes").ok()?.extract().ok()
}

/// A column of URLs from Arrow: any string or binary layout.
enum ArrowUrls<'a> {
    Utf8(&'a arrow_array::StringArray),
    LargeUtf8(&'a arrow_array::LargeStringArray),
    Utf8View(&'a arrow_array::StringViewArray),
    Binary(&'a arrow_array::BinaryArray),
    LargeBinary(&'a arrow_array::LargeBinaryArray),
    BinaryView(&'a arrow_array::BinaryViewArray),
}

impl<'a> ArrowUrls<'a> {
    fn new(array: &'a dyn Array) -> PyResult<ArrowUrls<'a>> {
        Ok(match array.data_type() {
            DataType::Utf8 => ArrowUrls::Utf8(array.as_string::<i32>()),
            DataType::LargeUtf8 => {
                ArrowUrls::LargeUtf8(array.as_string::<i64>())
            }
            DataType::Utf8View => ArrowUrls::Utf8View(array.as_string_view()),
            DataType::Binary => ArrowUrls::Binary(array.as_binary::<i32>()),
            DataType::LargeBinary => {
                ArrowUrls::LargeBinary(array.as_binary::<i64>())
            }
            DataType::BinaryView => {
                ArrowUrls::BinaryView(array.as_binary_view())
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "URLs must be an Arrow string or binary array, not {other}"
                )))
            }
        })
    }

    fn len(&self) -> usize {
        match self {
            ArrowUrls::Utf8(a) => a.len(),
            ArrowUrls::LargeUtf8(a) => a.len(),
            ArrowUrls::Utf8View(a) => a.len(),
            ArrowUrls::Binary(a) => a.len(),
            ArrowUrls::LargeBinary(a) => a.len(),
            ArrowUrls::BinaryView(a) => a.len(),
        }
    }

    fn get(&self, i: usize) -> Option<&'a [u8]> {
        macro_rules! get {
            ($a:expr, $v:expr) => {
                if $a.is_null(i) {
                    None
                } else {
                    Some($v)
                }
            };
        }
        match *self {
            ArrowUrls::Utf8(a) => get!(a, a.value(i).as_bytes()),
            ArrowUrls::LargeUtf8(a) => get!(a, a.value(i).as_bytes()),
            ArrowUrls::Utf8View(a) => get!(a, a.value(i).as_bytes()),
            ArrowUrls::Binary(a) => get!(a, a.value(i)),
            ArrowUrls::LargeBinary(a) => get!(a, a.value(i)),
            ArrowUrls::BinaryView(a) => get!(a, a.value(i)),
        }
    }
}

/// Imports an array from an object that speaks the Arrow PyCapsule
/// array protocol (`__arrow_c_array__`: a pyarrow Array); streams (a
/// Polars Series) are read into chunks by the Python layer first.
fn import_array(obj: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
    if !obj.hasattr("__arrow_c_array__")? {
        return Err(PyTypeError::new_err(format!(
            "expected an Arrow array (an object with __arrow_c_array__), \
             not {}",
            obj.get_type().name()?
        )));
    }
    let pair = obj.call_method0("__arrow_c_array__")?;
    let pair = pair.cast::<PyTuple>()?;
    let schema = pair.get_item(0)?;
    let array = pair.get_item(1)?;
    let schema = schema.cast::<PyCapsule>()?;
    let array = array.cast::<PyCapsule>()?;
    let schema_ptr = schema.pointer_checked(Some(c"arrow_schema"))?;
    let array_ptr = array.pointer_checked(Some(c"arrow_array"))?;
    // SAFETY: the protocol guarantees that the capsules named
    // `arrow_schema` and `arrow_array` point to a valid FFI_ArrowSchema and
    // FFI_ArrowArray. The array is moved out (the capsule keeps a released
    // empty one, as the protocol asks of consumers); the schema is only
    // read.
    let data = unsafe {
        let array = std::ptr::replace(
            array_ptr.as_ptr().cast::<FFI_ArrowArray>(),
            FFI_ArrowArray::empty(),
        );
        let schema = &*schema_ptr.as_ptr().cast::<FFI_ArrowSchema>();
        from_ffi(array, schema)
    }
    .map_err(|e| PyValueError::new_err(format!("bad Arrow array: {e}")))?;
    Ok(make_array(data))
}

/// An Arrow array on its way to Python: hands itself over once through
/// `__arrow_c_array__`, so that `pyarrow.array(column)` imports it without
/// a copy.
#[pyclass(module = "robots_batch._robots_batch")]
struct ArrowColumn {
    array: Option<ArrayRef>,
}

#[pymethods]
impl ArrowColumn {
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // The requested schema is a hint a producer may ignore.
        let _ = requested_schema;
        let array = self.array.take().ok_or_else(|| {
            PyValueError::new_err("this column was already exported")
        })?;
        let (array, schema) = to_ffi(&array.to_data())
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let schema = PyCapsule::new(py, schema, Some(name("arrow_schema")))?;
        let array = PyCapsule::new(py, array, Some(name("arrow_array")))?;
        PyTuple::new(py, [schema.into_any(), array.into_any()])
    }
}

fn name(s: &str) -> CString {
    CString::new(s).expect("capsule names have no NUL")
}

/// The columns of a result, named, ready for `pyarrow.RecordBatch`.
fn columns<'py>(
    py: Python<'py>,
    cols: Vec<(String, ArrayRef)>,
) -> PyResult<Bound<'py, PyList>> {
    let items = cols
        .into_iter()
        .map(|(n, a)| (n, ArrowColumn { array: Some(a) }))
        .collect::<Vec<_>>();
    PyList::new(py, items)
}

fn parse_dialect(dialect: &str) -> PyResult<Dialect> {
    dialect.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

fn parse_engine(engine: &str) -> PyResult<EngineKind> {
    engine.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

/// Agents from a str (one agent) or a sequence of str, with a
/// `UserWarning` for each agent the command would warn about (an empty
/// one, one that is not a product token).
fn parse_agents(
    agents: &Bound<'_, PyAny>,
    dialect: Dialect,
) -> PyResult<Vec<String>> {
    let list: Vec<String> = if let Ok(one) = agents.extract::<String>() {
        vec![one]
    } else {
        agents.extract().map_err(|_| {
            PyTypeError::new_err("agents must be a str or a sequence of str")
        })?
    };
    if list.is_empty() {
        return Err(PyValueError::new_err("no agent given"));
    }
    let py = agents.py();
    for agent in &list {
        if let Some(warning) = agent_warning(agent, dialect) {
            // A warning text never holds a NUL byte unless the agent does.
            let text = CString::new(warning.replace('\0', "\\0"))
                .expect("NUL bytes were replaced");
            let category = py.get_type::<PyUserWarning>();
            PyErr::warn(py, &category, &text, 2)?;
        }
    }
    Ok(list)
}

/// Which agent's verdicts: the only one, or the one named.
fn agent_index(agents: &[String], agent: Option<&str>) -> PyResult<usize> {
    match agent {
        None if agents.len() == 1 => Ok(0),
        None => Err(PyValueError::new_err(format!(
            "compiled for {} agents: say which with agent=",
            agents.len()
        ))),
        Some(a) => agents.iter().position(|x| x == a).ok_or_else(|| {
            PyValueError::new_err(format!("not compiled for agent {a:?}"))
        }),
    }
}

/// One new `B` per agent: the Arrow column builders of a result, one set
/// per agent.
fn per_agent<B>(k: usize, new: impl Fn() -> B) -> Vec<B> {
    (0..k).map(|_| new()).collect()
}

/// A column name: the plain name for one agent, `<agent>` and
/// `<agent>_<name>` for several (the command's `--layout wide` writes
/// `<agent>.<name>`, which Spark SQL would read as a struct's field).
fn column_name(agents: &[String], i: usize, name: &str) -> String {
    match (agents.len(), name) {
        (1, _) => name.to_string(),
        (_, "verdict") => agents[i].clone(),
        _ => format!("{}_{name}", agents[i]),
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A robots.txt compiled for one or more agents in one dialect.
#[pyclass(module = "robots_batch._robots_batch", frozen)]
struct Matchers {
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
fn cache_info() -> (usize, usize) {
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

/// One fetch given from Python: a dict with `url` (of the robots.txt) or
/// `origin`, `status`, `body` (str or bytes) and `location`.
/// Where a fetch was made: an origin (its robots.txt), or a URL, which is
/// its origin's robots.txt only when its path is `/robots.txt` and
/// otherwise a capture that counts where a redirect leads to it.
enum FetchedAt {
    Origin(Origin),
    Url(String),
}

/// Adds `fetch` to `set` where it was made.
fn insert_fetch(set: &mut FetchSet, at: FetchedAt, fetch: Fetch) {
    match at {
        FetchedAt::Origin(origin) => set.insert(&origin, fetch),
        FetchedAt::Url(url) => {
            set.insert_url(&url, fetch);
        }
    }
}

fn py_fetch(item: &Bound<'_, PyAny>) -> PyResult<(FetchedAt, Fetch)> {
    let get = |key: &str| -> PyResult<Option<Bound<'_, PyAny>>> {
        match item.get_item(key) {
            Ok(v) if v.is_none() => Ok(None),
            Ok(v) => Ok(Some(v)),
            Err(e)
                if e.is_instance_of::<pyo3::exceptions::PyKeyError>(
                    item.py(),
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    };
    let (at, is_url): (String, bool) =
        match (get("url")?, get("origin")?) {
            (Some(u), _) => (u.extract()?, true),
            (None, Some(o)) => (o.extract()?, false),
            (None, None) => return Err(PyValueError::new_err(
                "a fetch needs a \"url\" (of its robots.txt) or an \"origin\"",
            )),
        };
    let origin = Origin::of_url(at.as_bytes()).ok_or_else(|| {
        PyValueError::new_err(format!(
            "a fetch's url must be an absolute http(s) URL, not {at:?}"
        ))
    })?;
    let at =
        if is_url { FetchedAt::Url(at) } else { FetchedAt::Origin(origin) };
    let status: u16 = match get("status")? {
        Some(s) => s.extract()?,
        None => 0,
    };
    let body = match get("body")? {
        None => vec![],
        Some(b) => {
            if let Ok(s) = b.extract::<PyBackedStr>() {
                s.as_bytes().to_vec()
            } else {
                b.extract::<PyBackedBytes>()
                    .map_err(|_| {
                        PyTypeError::new_err(
                            "a fetch's body must be str or bytes",
                        )
                    })?
                    .to_vec()
            }
        }
    };
    let location = get("location")?.map(|l| l.extract()).transpose()?;
    Ok((at, Fetch { status, body, location, date: None }))
}

/// Adds the fetches of an Arrow struct array (fields `origin`, or `url`
/// of the robots.txt; `status`; `body`; `location`) to `set`, the first
/// of each origin only, of this array and those before it (`seen`): the
/// rows of a Spark batch repeat their origin's fetches for every URL.
/// Bodies in one buffer are kept there, not copied.
fn arrow_fetches<'a>(
    array: &'a dyn Array,
    seen: &mut std::collections::HashSet<&'a [u8]>,
    set: &mut FetchSet,
) -> PyResult<()> {
    let fetches = array.as_struct_opt().ok_or_else(|| {
        PyTypeError::new_err(format!(
            "fetches must be an Arrow struct array, not {}",
            array.data_type()
        ))
    })?;
    let column = |name: &str| fetches.column_by_name(name);
    // Each row's origin where it has one, else its URL.
    let origins =
        column("origin").map(|o| ArrowUrls::new(&**o)).transpose()?;
    let urls = column("url").map(|u| ArrowUrls::new(&**u)).transpose()?;
    if origins.is_none() && urls.is_none() {
        return Err(PyValueError::new_err(
            "fetches need an \"origin\" or \"url\" field",
        ));
    }
    let at = |i: usize| -> Option<(&[u8], bool)> {
        let origin = origins.as_ref().and_then(|o| o.get(i));
        let url = || urls.as_ref().and_then(|u| u.get(i));
        origin.map(|o| (o, false)).or_else(|| url().map(|u| (u, true)))
    };
    let body = column("body").map(|b| ArrowUrls::new(&**b)).transpose()?;
    // The buffer the bodies lie in, kept by the set rather than copied.
    let values = column("body").and_then(|b| values_buffer(&**b));
    let location =
        column("location").map(|l| ArrowUrls::new(&**l)).transpose()?;
    let status = column("status");
    let status_at = |i: usize| -> PyResult<u16> {
        let Some(s) = status else { return Ok(0) };
        if s.is_null(i) {
            return Ok(0);
        }
        let value: i64 = match s.data_type() {
            DataType::Int16 => s
                .as_primitive::<arrow_array::types::Int16Type>()
                .value(i)
                .into(),
            DataType::Int32 => s
                .as_primitive::<arrow_array::types::Int32Type>()
                .value(i)
                .into(),
            DataType::Int64 => {
                s.as_primitive::<arrow_array::types::Int64Type>().value(i)
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "a fetch's status must be an integer, not {other}"
                )))
            }
        };
        // Out of range is no HTTP status: treated as no answer.
        Ok(u16::try_from(value).unwrap_or(0))
    };
    for i in 0..fetches.len() {
        if fetches.is_null(i) {
            continue;
        }
        let Some((url, is_url)) = at(i) else { continue };
        if !seen.insert(url) {
            continue;
        }
        let Some(origin) = Origin::of_url(url) else { continue };
        let at = if is_url {
            FetchedAt::Url(String::from_utf8_lossy(url).into_owned())
        } else {
            FetchedAt::Origin(origin)
        };
        let bytes = body.as_ref().and_then(|b| b.get(i)).unwrap_or_default();
        let shared = values.as_ref().and_then(|v| shared_body(v, bytes));
        let fetch = Fetch {
            status: status_at(i)?,
            body: match shared {
                Some(_) => vec![],
                None => bytes.to_vec(),
            },
            location: location
                .as_ref()
                .and_then(|l| l.get(i))
                .map(|l| String::from_utf8_lossy(l).into_owned()),
            date: None,
        };
        match (shared, at) {
            (None, at) => insert_fetch(set, at, fetch),
            (Some(body), FetchedAt::Origin(origin)) => {
                set.insert_shared(&origin, fetch, body)
            }
            (Some(body), FetchedAt::Url(url)) => {
                set.insert_url_shared(&url, fetch, body);
            }
        }
    }
    Ok(())
}

/// The one buffer that the values of an offset-based string or binary
/// array lie in (a view array's may lie in several, or in the views).
fn values_buffer(
    array: &dyn Array,
) -> Option<Arc<dyn AsRef<[u8]> + Send + Sync>> {
    Some(match array.data_type() {
        DataType::Binary => {
            Arc::new(array.as_binary::<i32>().values().clone())
        }
        DataType::LargeBinary => {
            Arc::new(array.as_binary::<i64>().values().clone())
        }
        DataType::Utf8 => Arc::new(array.as_string::<i32>().values().clone()),
        DataType::LargeUtf8 => {
            Arc::new(array.as_string::<i64>().values().clone())
        }
        _ => return None,
    })
}

/// `bytes`, a value of the array whose values lie in `values`, as a
/// range of that buffer; `None` for an empty value or one elsewhere.
fn shared_body(
    values: &Arc<dyn AsRef<[u8]> + Send + Sync>,
    bytes: &[u8],
) -> Option<SharedBody> {
    let base = (**values).as_ref().as_ptr() as usize;
    let start = (bytes.as_ptr() as usize).checked_sub(base)?;
    (!bytes.is_empty())
        .then(|| {
            SharedBody::new(Arc::clone(values), start..start + bytes.len())
        })
        .flatten()
}

/// URLs of many hosts, each judged by its own origin's robots.txt fetch.
#[pyclass(module = "robots_batch._robots_batch", frozen)]
struct Crawl {
    judge: CrawlJudge,
    /// Grouped-judging state reused between calls: the origins located
    /// by earlier batches stay located, and its buffers stay allocated.
    grouped: Mutex<Vec<GroupedScratch>>,
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

    /// Runs `f` over each URL's verdicts (one per agent), in order,
    /// without the GIL. The URLs are judged grouped by origin, as the
    /// command judges a chunk of a crawl log.
    fn each<U: Sync>(
        &self,
        py: Python<'_>,
        urls: &U,
        len: usize,
        get: impl Fn(&U, usize) -> Option<&[u8]> + Send + Sync,
        mut f: impl FnMut(Option<&[CrawlVerdict]>) + Send,
    ) {
        py.detach(|| {
            let n = self.judge.agents().len();
            let mut verdicts = vec![None; len * n];
            let mut grouped = self.take_grouped();
            let url = |i: usize| get(urls, i);
            grouped.judge(&self.judge, len, url, |i, one, _| {
                for (slot, &v) in
                    verdicts[i * n..(i + 1) * n].iter_mut().zip(one)
                {
                    *slot = Some(v);
                }
            });
            self.give_grouped(grouped);
            let mut one = Vec::with_capacity(n);
            for each in verdicts.chunks_exact(n.max(1)).take(len) {
                one.clear();
                one.extend(each.iter().flatten());
                // A URL that is not there (a null) was not judged.
                f((!one.is_empty()).then_some(&one[..]));
            }
        });
    }

    fn robots_name(&self, v: CrawlVerdict) -> Option<String> {
        self.judge.robots_of(v).map(str::to_string)
    }
}

#[pymethods]
impl Crawl {
    #[new]
    #[pyo3(signature = (
        agents, dialect, engine, robots_dir, robots_index, robots_warc,
        fetches, fetch_array, on_4xx, on_401_403, on_5xx, on_missing, max_redirects,
        max_robots_bytes, cache_bytes, shared_cache
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        agents: &Bound<'_, PyAny>,
        dialect: &str,
        engine: &str,
        robots_dir: Option<std::path::PathBuf>,
        robots_index: Vec<std::path::PathBuf>,
        robots_warc: Vec<std::path::PathBuf>,
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
        };
        let mut set = FetchSet::new();
        set.parse_limit(max_robots_bytes);
        if let Some(items) = fetches {
            for item in items.try_iter()? {
                let (at, fetch) = py_fetch(&item?)?;
                insert_fetch(&mut set, at, fetch);
            }
        }
        if let Some(chunks) = fetch_array {
            let chunks: Vec<ArrayRef> = chunks
                .iter()
                .map(|c| import_array(c))
                .collect::<PyResult<_>>()?;
            py.detach(|| {
                let mut seen = std::collections::HashSet::new();
                chunks
                    .iter()
                    .try_for_each(|c| arrow_fetches(&**c, &mut seen, &mut set))
            })?;
        }
        let read = |set: &mut FetchSet| -> std::io::Result<()> {
            if let Some(dir) = &robots_dir {
                set.read_dir(dir)?;
            }
            for index in &robots_index {
                set.read_index(index)?;
            }
            for warc in &robots_warc {
                set.read_warc(warc)?;
            }
            Ok(())
        };
        py.detach(|| read(&mut set))
            .map_err(|e| PyOSError::new_err(e.to_string()))?;
        let cache_bytes =
            cache_bytes.unwrap_or_else(|| default_cache_bytes(&set));
        let policy = FetchPolicy { cache_bytes, ..policy };
        let mut judge =
            CrawlJudge::new(set, policy, builder, &agents, dialect);
        if shared_cache {
            judge =
                judge.with_shared_cache(self::shared_cache(Some(cache_bytes)));
        }
        Ok(Crawl { judge, grouped: Mutex::new(vec![]) })
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

    /// How many fetches the crawl knows.
    fn __len__(&self) -> usize {
        self.judge.fetches().len()
    }

    #[pyo3(signature = (urls, agent=None))]
    fn verdicts<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let (_, out) = self.list_verdicts(py, urls, agent)?;
        let items = out
            .into_iter()
            .map(|v| v.map(|v| (v.name(), v.reason().name())))
            .collect::<Vec<_>>();
        PyList::new(py, items)
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
                    let (line, text) = self.rule_of(v, m).unzip();
                    (
                        v.name(),
                        v.reason().name(),
                        self.robots_name(v),
                        line,
                        text,
                    )
                })
            })
            .collect::<Vec<_>>();
        PyList::new(py, items)
    }

    /// The Arrow form: verdict and reason columns (and with `explain`, the
    /// deciding fetch, line and rule) for an Arrow array of URLs.
    #[pyo3(signature = (urls, explain=false))]
    fn evaluate_arrow<'py>(
        &self,
        py: Python<'py>,
        urls: &Bound<'py, PyAny>,
        explain: bool,
    ) -> PyResult<Bound<'py, PyList>> {
        let array = import_array(urls)?;
        let urls = ArrowUrls::new(&*array)?;
        let n = urls.len();
        let agents = self.judge.agents().to_vec();
        let k = agents.len();
        let mut verdict =
            per_agent(k, || StringBuilder::with_capacity(n, n * 10));
        let mut reason =
            per_agent(k, || StringBuilder::with_capacity(n, n * 8));
        let mut robots = per_agent(k, StringBuilder::new);
        let mut line = per_agent(k, Int32Builder::new);
        let mut rule = per_agent(k, StringBuilder::new);
        self.each(
            py,
            &urls,
            n,
            |u, i| u.get(i),
            |v| {
                for m in 0..k {
                    let Some(v) = v.map(|v| v[m]) else {
                        verdict[m].append_null();
                        reason[m].append_null();
                        if explain {
                            robots[m].append_null();
                            line[m].append_null();
                            rule[m].append_null();
                        }
                        continue;
                    };
                    verdict[m].append_value(v.name());
                    reason[m].append_value(v.reason().name());
                    if explain {
                        robots[m].append_option(self.robots_name(v));
                        let (l, r) = self.rule_of(v, m).unzip();
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

impl Crawl {
    /// One agent's verdicts on a Python sequence of URLs, and the agent's
    /// index.
    fn list_verdicts(
        &self,
        py: Python<'_>,
        urls: &Bound<'_, PyAny>,
        agent: Option<&str>,
    ) -> PyResult<(usize, Vec<Option<CrawlVerdict>>)> {
        let m = agent_index(self.judge.agents(), agent)?;
        let urls = py_urls(urls)?;
        let mut out = Vec::with_capacity(urls.len());
        self.each(
            py,
            &urls,
            urls.len(),
            |u, i| u[i].bytes(),
            |v| out.push(v.map(|v| v[m])),
        );
        Ok((m, out))
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

/// The origin of each URL (`scheme://host[:port]`, the port only when it is
/// not the scheme's default), or None where a URL has none: the key that
/// joins URLs to robots.txt fetches.
#[pyfunction]
fn origins<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let array = import_array(urls)?;
    let urls = ArrowUrls::new(&*array)?;
    let out = py.detach(|| origin_column(&urls, false, |_| None));
    columns(py, vec![("origin".to_string(), out)])
}

/// For fetches (an Arrow array of robots.txt URLs or origins, and one of
/// `Location`s): each fetch's origin, and the origin a redirect points
/// to (the `Location` when it is absolute, else the fetch's own).
#[pyfunction]
fn fetch_origins<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyAny>,
    locations: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let urls = import_array(urls)?;
    let urls = ArrowUrls::new(&*urls)?;
    let locations = import_array(locations)?;
    let locations = ArrowUrls::new(&*locations)?;
    if urls.len() != locations.len() {
        return Err(PyValueError::new_err(
            "urls and locations differ in length",
        ));
    }
    let (origin, target) = py.detach(|| {
        let origin = origin_column(&urls, false, |_| None);
        let target = origin_column(&locations, true, |i| urls.get(i));
        (origin, target)
    });
    columns(
        py,
        vec![("origin".to_string(), origin), ("target".to_string(), target)],
    )
}

/// The origins of a column of URLs (`trim`: of `Location`s, which may
/// come with spaces), with `fallback(i)` tried where the URL at `i` has
/// none (or is null).
fn origin_column<'a>(
    urls: &ArrowUrls<'a>,
    trim: bool,
    fallback: impl Fn(usize) -> Option<&'a [u8]>,
) -> ArrayRef {
    let mut out = StringBuilder::with_capacity(urls.len(), urls.len() * 24);
    for i in 0..urls.len() {
        let origin = urls
            .get(i)
            .and_then(|u| {
                Origin::of_url(if trim { u.trim_ascii() } else { u })
            })
            .or_else(|| fallback(i).and_then(Origin::of_url));
        out.append_option(origin.map(|o| o.to_string()));
    }
    Arc::new(out.finish())
}

/// The fetches of one WARC file (`.warc`, `.warc.gz` or `.warc.zst`) of
/// robots.txt captures, read as `Crawl(robots_warc=...)` and the command
/// read them (of two captures of one URL, the later by `WARC-Date`): the
/// columns `url` (the robots.txt's, or the URL captured), `status`,
/// `body`, `location` and `date`, for a Spark job to read WARC files on
/// its executors.
#[pyfunction]
#[pyo3(signature = (path, max_robots_bytes))]
fn read_warc<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    max_robots_bytes: usize,
) -> PyResult<Bound<'py, PyList>> {
    let cols = py.detach(|| -> std::io::Result<Vec<(String, ArrayRef)>> {
        let mut set = FetchSet::new();
        set.parse_limit(max_robots_bytes);
        set.read_warc(&path)?;
        let n = set.len();
        let mut url = StringBuilder::with_capacity(n, n * 40);
        let mut status = Int32Builder::with_capacity(n);
        let mut body = LargeBinaryBuilder::new();
        let mut location = StringBuilder::new();
        let mut date = StringBuilder::new();
        for i in 0..n {
            let Some((name, fetch)) = set.get(i) else { continue };
            // A robots.txt is named by its origin, which has no path; a
            // capture of another URL by that URL.
            let after = name.find("://").map_or(0, |k| k + 3);
            if name[after..].contains('/') {
                url.append_value(name);
            } else {
                url.append_value(format!("{name}/robots.txt"));
            }
            status.append_value(i32::from(fetch.status));
            // Successive captures of an origin may share one body.
            body.append_value(set.body(i).unwrap_or_default());
            location.append_option(fetch.location.as_deref());
            date.append_option(fetch.date.as_deref());
        }
        Ok(vec![
            ("url".to_string(), Arc::new(url.finish()) as ArrayRef),
            ("status".to_string(), Arc::new(status.finish())),
            ("body".to_string(), Arc::new(body.finish())),
            ("location".to_string(), Arc::new(location.finish())),
            ("date".to_string(), Arc::new(date.finish())),
        ])
    });
    let cols = cols.map_err(|e| PyOSError::new_err(e.to_string()))?;
    columns(py, cols)
}

/// A read-only helper for tests and docs: the library's default parse
/// limit.
#[pyfunction]
fn default_max_robots_bytes() -> usize {
    DEFAULT_MAX_ROBOTS_BYTES
}

/// The product tokens the command's `--agents ai` judges (`category`
/// `None`) or `--agents ai:CATEGORY`, in list order; `None` for a
/// category that is not one: the pipeline steps' presets read the same
/// embedded list as the command.
#[pyfunction]
#[pyo3(signature = (category=None))]
fn ai_agent_tokens(category: Option<&str>) -> Option<Vec<&'static str>> {
    robots_batch::agents::ai_agent_tokens(category)
}

/// The categories of the AI crawler list, in the command's order.
#[pyfunction]
fn ai_categories() -> Vec<&'static str> {
    robots_batch::agents::ai_categories().into_iter().map(|(c, _)| c).collect()
}

#[pymodule]
fn _robots_batch(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Matchers>()?;
    m.add_class::<Crawl>()?;
    m.add_class::<ArrowColumn>()?;
    m.add_function(wrap_pyfunction!(cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(origins, m)?)?;
    m.add_function(wrap_pyfunction!(fetch_origins, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(default_max_robots_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(ai_agent_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(ai_categories, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
