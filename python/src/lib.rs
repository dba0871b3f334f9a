//! The `robots_batch._robots_batch` extension module: the robots-batch
//! library for Python. The Python package (`python/robots_batch/`) wraps it
//! with pyarrow conveniences and the Spark integration; everything that
//! decides a verdict lives in the library.
//!
//! URLs come in as Python lists (str, bytes or None) or as Arrow arrays
//! through the Arrow C data interface (the `__arrow_c_array__` PyCapsule
//! protocol), and go out the same way. Matching runs with the GIL
//! released.

use std::sync::Arc;

use arrow_array::builder::{Int32Builder, LargeBinaryBuilder, StringBuilder};
use arrow_array::ArrayRef;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use robots_batch::crawl::{FetchSet, Origin};
use robots_batch::DEFAULT_MAX_ROBOTS_BYTES;

use crate::arrow::{columns, import_array, ArrowColumn, ArrowUrls};

mod args;
mod arrow;
mod crawl;
mod fetches;
mod matchers;
mod sitemap;
mod times;

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
    m.add_class::<matchers::Matchers>()?;
    m.add_class::<crawl::Crawl>()?;
    m.add_class::<ArrowColumn>()?;
    m.add_function(wrap_pyfunction!(crawl::cache_info, m)?)?;
    m.add_function(wrap_pyfunction!(origins, m)?)?;
    m.add_function(wrap_pyfunction!(fetch_origins, m)?)?;
    m.add_function(wrap_pyfunction!(read_warc, m)?)?;
    m.add_function(wrap_pyfunction!(sitemap::read_sitemap, m)?)?;
    m.add_function(wrap_pyfunction!(default_max_robots_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(ai_agent_tokens, m)?)?;
    m.add_function(wrap_pyfunction!(ai_categories, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
