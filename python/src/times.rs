//! Times from Python: a fetch's date, a `Crawl`'s `as_of`, and each URL's
//! fetch time. A time is a str in any spelling [`Timestamp::parse`] reads,
//! an int of seconds since 1970, a `datetime` or `date` (read through its
//! `isoformat()`, a naive one as UTC), or a value of an Arrow column of
//! strings, timestamps, dates or integers of seconds.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyBool, PyString};

use robots_batch::record::arrow_times;
use robots_batch::Timestamp;

use crate::arrow::import_array;

/// The spellings a time may have, for messages.
pub(crate) const SPELLINGS: &str = "RFC 3339 such as 2024-06-01T12:00:00Z, \
     a day, a 14-digit timestamp, seconds since 1970, or a datetime";

/// `value` as a time: `Ok(None)` for None, `Err(())` when it is no time.
/// With `as_of`, a day alone (`"2024-06-01"`, a `date`) stands for its
/// last second, as the command's `--as-of` reads it.
pub(crate) fn py_time(
    value: &Bound<'_, PyAny>,
    as_of: bool,
) -> Result<Option<Timestamp>, ()> {
    let parse = |text: &str| match as_of {
        true => Timestamp::parse_as_of(text),
        false => Timestamp::parse(text),
    };
    if value.is_none() {
        return Ok(None);
    }
    // True is an int to Python, and no time.
    if value.is_instance_of::<PyBool>() {
        return Err(());
    }
    if value.is_instance_of::<PyString>() {
        let text = value.extract::<PyBackedStr>().map_err(|_| ())?;
        return parse(&text).map(Some).ok_or(());
    }
    if let Ok(seconds) = value.extract::<i64>() {
        return Ok(Some(Timestamp::from_seconds(seconds)));
    }
    // datetime, date, and what spells itself as they do (pandas).
    let text = value.call_method0("isoformat").map_err(|_| ())?;
    let text = text.extract::<String>().map_err(|_| ())?;
    parse(&text).map(Some).ok_or(())
}

/// `value` as a time for the option or field `what`, an error saying so
/// when it is none.
pub(crate) fn required_time(
    value: &Bound<'_, PyAny>,
    as_of: bool,
    what: &str,
) -> PyResult<Option<Timestamp>> {
    py_time(value, as_of).map_err(|()| {
        let shown = value
            .repr()
            .map(|r| r.to_string())
            .unwrap_or_else(|_| "it".to_string());
        PyValueError::new_err(format!(
            "{what} is not a date: {shown} ({SPELLINGS})"
        ))
    })
}

/// Each of `n` URLs' fetch times, from a list (or any sequence) of times
/// or an Arrow array: `None` where one cannot be read (a null, a value
/// that is no time), which judges its URL `unknown`, `no-time`, rather
/// than failing the batch. An Arrow array of another type than times, or
/// a length other than `n`, is an error.
pub(crate) fn url_times(
    times: &Bound<'_, PyAny>,
    n: usize,
) -> PyResult<Vec<Option<Timestamp>>> {
    let read: Vec<Option<Timestamp>> = if times.hasattr("__arrow_c_array__")? {
        let array = import_array(times)?;
        let read = arrow_times(&*array).map_err(|e| {
            PyTypeError::new_err(format!("the column of times {e}"))
        })?;
        read.into_iter().map(Result::ok).collect()
    } else if times.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "times must be a sequence of times, one per URL, not one str",
        ));
    } else {
        let mut read = Vec::with_capacity(n);
        for item in times.try_iter()? {
            read.push(py_time(&item?, false).ok().flatten());
        }
        read
    };
    if read.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} times for {n} URLs: give one per URL",
            read.len()
        )));
    }
    Ok(read)
}
