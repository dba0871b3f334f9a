//! Arrow arrays in and out through the Arrow C data interface: URLs of
//! any string or binary layout in, result columns out, named per agent.

use std::ffi::CString;

use arrow_array::cast::AsArray;
use arrow_array::ffi::{from_ffi, to_ffi, FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::{make_array, Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyList, PyTuple};

/// A column of URLs from Arrow: any string or binary layout.
pub(crate) enum ArrowUrls<'a> {
    Utf8(&'a arrow_array::StringArray),
    LargeUtf8(&'a arrow_array::LargeStringArray),
    Utf8View(&'a arrow_array::StringViewArray),
    Binary(&'a arrow_array::BinaryArray),
    LargeBinary(&'a arrow_array::LargeBinaryArray),
    BinaryView(&'a arrow_array::BinaryViewArray),
}

impl<'a> ArrowUrls<'a> {
    pub(crate) fn new(array: &'a dyn Array) -> PyResult<ArrowUrls<'a>> {
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

    pub(crate) fn len(&self) -> usize {
        match self {
            ArrowUrls::Utf8(a) => a.len(),
            ArrowUrls::LargeUtf8(a) => a.len(),
            ArrowUrls::Utf8View(a) => a.len(),
            ArrowUrls::Binary(a) => a.len(),
            ArrowUrls::LargeBinary(a) => a.len(),
            ArrowUrls::BinaryView(a) => a.len(),
        }
    }

    pub(crate) fn get(&self, i: usize) -> Option<&'a [u8]> {
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
pub(crate) fn import_array(obj: &Bound<'_, PyAny>) -> PyResult<ArrayRef> {
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
pub(crate) struct ArrowColumn {
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
pub(crate) fn columns<'py>(
    py: Python<'py>,
    cols: Vec<(String, ArrayRef)>,
) -> PyResult<Bound<'py, PyList>> {
    let items = cols
        .into_iter()
        .map(|(n, a)| (n, ArrowColumn { array: Some(a) }))
        .collect::<Vec<_>>();
    PyList::new(py, items)
}

/// One new `B` per agent: the Arrow column builders of a result, one set
/// per agent.
pub(crate) fn per_agent<B>(k: usize, new: impl Fn() -> B) -> Vec<B> {
    (0..k).map(|_| new()).collect()
}

/// A column name: the plain name for one agent, `<agent>` and
/// `<agent>_<name>` for several (the command's `--layout wide` writes
/// `<agent>.<name>`, which Spark SQL would read as a struct's field).
pub(crate) fn column_name(agents: &[String], i: usize, name: &str) -> String {
    match (agents.len(), name) {
        (1, _) => name.to_string(),
        (_, "verdict") => agents[i].clone(),
        _ => format!("{}_{name}", agents[i]),
    }
}
