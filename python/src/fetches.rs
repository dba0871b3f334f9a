//! The robots.txt fetches a `Crawl` is given from Python: mappings, one
//! Python object each, or Arrow struct arrays read without one, each with
//! its origin or URL, status, body, `Location` and date.

use std::collections::HashSet;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};

use robots_batch::crawl::{Fetch, FetchSet, Origin, SharedBody};
use robots_batch::record::arrow_times;
use robots_batch::Timestamp;

use crate::arrow::{import_array, ArrowUrls};
use crate::times::{required_time, SPELLINGS};

/// Adds to `set` the fetches of `items` (an iterable of mappings) and of
/// `chunks` (Arrow struct arrays, read without the GIL).
pub(crate) fn add_fetches(
    py: Python<'_>,
    set: &mut FetchSet,
    items: Option<&Bound<'_, PyAny>>,
    chunks: Option<Vec<Bound<'_, PyAny>>>,
) -> PyResult<()> {
    if let Some(items) = items {
        for (i, item) in items.try_iter()?.enumerate() {
            let (at, fetch) = py_fetch(&item?, i)?;
            insert_fetch(set, at, fetch);
        }
    }
    if let Some(chunks) = chunks {
        let chunks: Vec<ArrayRef> =
            chunks.iter().map(|c| import_array(c)).collect::<PyResult<_>>()?;
        py.detach(|| {
            let mut seen = HashSet::new();
            let mut row = 0;
            chunks.iter().try_for_each(|c| -> PyResult<()> {
                arrow_fetches(&**c, row, &mut seen, set)?;
                row += c.len();
                Ok(())
            })
        })?;
    }
    Ok(())
}

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

/// The fetch of the mapping `item`, the `index`th given: `url` (of the
/// robots.txt, or another URL captured) or `origin`, `status`, `body`
/// (str or bytes), `location` and `date` (see [`crate::times`]).
fn py_fetch(
    item: &Bound<'_, PyAny>,
    index: usize,
) -> PyResult<(FetchedAt, Fetch)> {
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
    let date = match get("date")? {
        None => None,
        Some(d) => {
            let what = format!("fetch {index}: its \"date\"");
            required_time(&d, false, &what)?
        }
    };
    // The set reads the date back from RFC 3339.
    let date = date.map(|d| d.to_string());
    Ok((at, Fetch { status, body, location, date }))
}

/// Adds the fetches of an Arrow struct array (fields `origin`, or `url`
/// of the robots.txt; `status`; `body`; `location`; `date`) to `set`, the
/// first of each origin and date only, of this array and those before it
/// (`seen`): the rows of a Spark batch repeat their origin's fetches for
/// every URL. Bodies in one buffer are kept there, not copied. `first` is
/// the number of the array's first row among all the rows given, for
/// messages.
fn arrow_fetches<'a>(
    array: &'a dyn Array,
    first: usize,
    seen: &mut HashSet<(&'a [u8], Option<Timestamp>)>,
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
    let dates = column("date").map(dates_of).transpose()?;
    let date_at = |i: usize| -> PyResult<Option<Timestamp>> {
        let Some((dates, column)) = &dates else { return Ok(None) };
        match dates[i] {
            Ok(t) => Ok(Some(t)),
            Err(()) if column.is_null(i) => Ok(None),
            Err(()) => {
                let text = ArrowUrls::new(&***column)
                    .ok()
                    .and_then(|c| c.get(i))
                    .map(|t| format!(": {:?}", String::from_utf8_lossy(t)));
                Err(PyValueError::new_err(format!(
                    "fetch row {}: its \"date\" is not a date{} ({SPELLINGS})",
                    first + i,
                    text.unwrap_or_default()
                )))
            }
        }
    };
    for i in 0..fetches.len() {
        if fetches.is_null(i) {
            continue;
        }
        let Some((url, is_url)) = at(i) else { continue };
        let date = date_at(i)?;
        if !seen.insert((url, date)) {
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
            date: date.map(|d| d.to_string()),
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

/// The dates of a `date` field, read as [`arrow_times`] reads them
/// (`Err` for a null or a value that is no date), and the field.
#[allow(clippy::type_complexity)]
fn dates_of(
    column: &ArrayRef,
) -> PyResult<(Vec<Result<Timestamp, ()>>, &ArrayRef)> {
    let dates = arrow_times(&**column).map_err(|e| {
        PyTypeError::new_err(format!("the fetches' \"date\" field {e}"))
    })?;
    Ok((dates.into_iter().map(|d| d.map_err(|_| ())).collect(), column))
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
