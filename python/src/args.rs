//! What Python hands the extension: URLs from a list, agents, a dialect,
//! an engine, which agent's verdicts; and text handed back.

use std::ffi::CString;

use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::types::PyString;

use robots_batch::{agent_warning, Dialect, EngineKind};

/// One URL of a Python list: str, bytes (or bytearray, memoryview) or None.
pub(crate) enum PyUrl {
    Str(PyBackedStr),
    Bytes(PyBackedBytes),
    Null,
}

impl PyUrl {
    pub(crate) fn bytes(&self) -> Option<&[u8]> {
        match self {
            PyUrl::Str(s) => Some(s.as_bytes()),
            PyUrl::Bytes(b) => Some(b),
            PyUrl::Null => None,
        }
    }
}

/// Reads a sequence of URLs, holding the GIL; the result can be read
/// without it.
pub(crate) fn py_urls(urls: &Bound<'_, PyAny>) -> PyResult<Vec<PyUrl>> {
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

pub(crate) fn parse_dialect(dialect: &str) -> PyResult<Dialect> {
    dialect.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

pub(crate) fn parse_engine(engine: &str) -> PyResult<EngineKind> {
    engine.parse().map_err(|e| PyValueError::new_err(format!("{e}")))
}

/// Agents from a str (one agent) or a sequence of str, with a
/// `UserWarning` for each agent the command would warn about (an empty
/// one, one that is not a product token).
pub(crate) fn parse_agents(
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
pub(crate) fn agent_index(
    agents: &[String],
    agent: Option<&str>,
) -> PyResult<usize> {
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

pub(crate) fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
