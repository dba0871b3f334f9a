//! `read_sitemap`: the entries of a sitemap or llms.txt as Arrow columns,
//! read by the library's streaming reader.

use std::sync::Arc;

use arrow_array::builder::{Int64Builder, StringBuilder};
use arrow_array::ArrayRef;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyList;

use robots_batch::sitemap::{EntryKind, Sitemap, SitemapOptions, SitemapSet};

/// The entries of the sitemap (XML, text, gzip- or zstd-compressed) or
/// llms.txt at `path`, as the command reads them: the columns `url`,
/// `file`, `line`, `lastmod`, `kind` (`url` or `sitemap`, a child of an
/// index) and `error` (why an entry has no URL to judge, else null). With
/// `sitemap_dir`, an index's children are read from there; with
/// `origin`, an llms.txt's relative links are made absolute against it.
/// Malformed XML or an HTML page raises `ValueError`.
#[pyfunction]
#[pyo3(signature = (path, sitemap_dir=None, origin=None))]
pub(crate) fn read_sitemap<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    sitemap_dir: Option<std::path::PathBuf>,
    origin: Option<String>,
) -> PyResult<Bound<'py, PyList>> {
    let cols = py.detach(|| -> std::io::Result<Vec<(String, ArrayRef)>> {
        let options = SitemapOptions { origin, ..Default::default() };
        let name = path.display().to_string();
        let file = std::fs::File::open(&path)?;
        let root = Sitemap::open(file, &name, &options)?;
        let mut set = SitemapSet::new(root, sitemap_dir.as_deref(), &options);
        let mut url = StringBuilder::new();
        let mut files = StringBuilder::new();
        let mut line = Int64Builder::new();
        let mut lastmod = StringBuilder::new();
        let mut kind = StringBuilder::new();
        let mut error = StringBuilder::new();
        while let Some(e) = set.next_entry()? {
            url.append_value(&e.url);
            files.append_value(&e.file);
            line.append_value(e.line as i64);
            lastmod.append_option(e.lastmod.as_deref());
            kind.append_value(match e.kind {
                EntryKind::Url => "url",
                EntryKind::Sitemap => "sitemap",
            });
            error.append_option(e.problem.map(|p| p.reason()));
        }
        Ok(vec![
            ("url".to_string(), Arc::new(url.finish()) as ArrayRef),
            ("file".to_string(), Arc::new(files.finish())),
            ("line".to_string(), Arc::new(line.finish())),
            ("lastmod".to_string(), Arc::new(lastmod.finish())),
            ("kind".to_string(), Arc::new(kind.finish())),
            ("error".to_string(), Arc::new(error.finish())),
        ])
    });
    let cols = cols.map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidData => {
            PyValueError::new_err(e.to_string())
        }
        _ => PyOSError::new_err(e.to_string()),
    })?;
    crate::columns(py, cols)
}
