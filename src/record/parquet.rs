//! Parquet input: the URL column read through Arrow one row group at a
//! time, and a Parquet file out with the input's schema, row groups and
//! compression: the added columns after the input's, or with `--emit`
//! only the rows wanted.

use std::fs::File;
use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use arrow_array::builder::{StringBuilder, UInt32Builder};
use arrow_array::cast::AsArray;
use arrow_array::{Array, ArrayRef, BooleanArray, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};
use parquet::arrow::ArrowWriter;
use parquet::file::properties::WriterProperties;

use super::arrow_time::arrow_times;
use super::worker::{RecordWorker, Value};
use super::{invalid, is_line_field, json, Records};
use crate::batch::{Sink, Stats};
use crate::time::Timestamp;

/// Rows read at a time, within a row group.
const BATCH_ROWS: usize = 8192;

/// Where the writer's bytes wait for the sink: the writer must be `Send`,
/// the sink need not be.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Shared {
    /// Hands what was written so far to `sink`.
    fn drain<S: Sink>(&self, sink: &mut S, total: &Stats) -> io::Result<()> {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if !out.is_empty() {
            sink.chunk(&out, total)?;
            out.clear();
        }
        Ok(())
    }
}

/// The column of `batch` at `path`, a dotted path through struct columns,
/// and the struct columns on the way; `None` when there is none.
fn column_at(
    batch: &RecordBatch,
    path: &[String],
) -> Option<(ArrayRef, Vec<ArrayRef>)> {
    let mut array = batch.column_by_name(path.first()?)?.clone();
    let mut parents = vec![];
    for name in &path[1..] {
        let child = array.as_struct_opt()?.column_by_name(name)?.clone();
        parents.push(std::mem::replace(&mut array, child));
    }
    Some((array, parents))
}

fn parquet_error(err: parquet::errors::ParquetError) -> io::Error {
    invalid(format!("Parquet: {err}"))
}

fn arrow_error(err: arrow_schema::ArrowError) -> io::Error {
    invalid(format!("Arrow: {err}"))
}

impl Records<'_> {
    /// Runs every row of the Parquet file `file`: a Parquet file to `sink`
    /// with the input's schema and the added columns (`robots_line` and
    /// the usage lines unsigned integers, the others strings; `robots_error` null unless
    /// the URL is), row group for row group, in the input's compression;
    /// with `--emit`, the rows wanted, in the input's schema. A URL column
    /// that is missing or holds no strings, or a file that is no Parquet
    /// (a truncated one), is an error of kind `InvalidData`; a null URL is
    /// a bad record.
    pub fn run_parquet<S: Sink>(
        &self,
        file: File,
        mut sink: S,
    ) -> io::Result<Stats> {
        if let Some(problem) = self.time_problem() {
            return Err(invalid(problem));
        }
        let options = ArrowReaderOptions::new();
        let metadata = ArrowReaderMetadata::load(&file, options)
            .map_err(parquet_error)?;
        let schema = metadata.schema().clone();
        if let Some(f) = schema
            .fields()
            .iter()
            .find(|f| self.columns.iter().any(|c| c == f.name()))
        {
            return Err(invalid(format!(
                "the schema already has a column {:?}, one that robots-batch \
                 adds (is this its own output?)",
                f.name()
            )));
        }
        let mut props = WriterProperties::builder();
        let groups = metadata.metadata().row_groups();
        if let Some(column) = groups.first().and_then(|g| g.columns().first())
        {
            props = props.set_compression(column.compression());
        }
        let out_schema = match self.emit {
            Some(_) => schema.clone(),
            None => Arc::new(self.with_added(&schema)),
        };
        let shared = Shared::default();
        let mut writer = ArrowWriter::try_new(
            shared.clone(),
            out_schema.clone(),
            Some(props.build()),
        )
        .map_err(parquet_error)?;
        let mut worker = RecordWorker::new(self, 0);
        let mut total = Stats::default();
        for group in 0..groups.len() {
            let file = file.try_clone()?;
            let reader = ParquetRecordBatchReaderBuilder::new_with_metadata(
                file,
                metadata.clone(),
            )
            .with_row_groups(vec![group])
            .with_batch_size(BATCH_ROWS)
            .build()
            .map_err(parquet_error)?;
            for batch in reader {
                let batch = batch.map_err(arrow_error)?;
                let mut stats = Stats::of_bytes(batch.get_array_memory_size());
                let out = self.judge_batch(&batch, &mut worker, &mut stats)?;
                total.add(&stats);
                if out.num_rows() > 0 || self.emit.is_none() {
                    writer.write(&out).map_err(parquet_error)?;
                }
            }
            // One row group out per row group in.
            writer.flush().map_err(parquet_error)?;
            shared.drain(&mut sink, &total)?;
        }
        writer.close().map_err(parquet_error)?;
        shared.drain(&mut sink, &total)?;
        Ok(total)
    }

    /// The URL column of `batch`, by the dotted path through struct
    /// columns, and the struct columns on the way (a null struct makes
    /// the URL in it null).
    fn url_array(
        &self,
        batch: &RecordBatch,
    ) -> io::Result<(ArrayRef, Vec<ArrayRef>)> {
        let path = self.url_field.join(".");
        column_at(batch, &self.url_field).ok_or_else(|| {
            invalid(format!(
                "no column {path:?} (name the URL's with --url-column)"
            ))
        })
    }

    /// The fetch time of each row of `batch`, when records are judged at
    /// their fetch time (a top-level column, or a dotted path through
    /// struct columns).
    fn time_array(
        &self,
        batch: &RecordBatch,
    ) -> io::Result<Option<Vec<Result<Timestamp, &'static str>>>> {
        let Some(path) = self.time_field.as_ref().filter(|p| !p.is_empty())
        else {
            return Ok(None);
        };
        let name = path.join(".");
        let (array, parents) = column_at(batch, path).ok_or_else(|| {
            invalid(format!("no column {name:?} for --time-field"))
        })?;
        let mut times = arrow_times(&array).map_err(|why| {
            invalid(format!("the time column {name:?} {why}"))
        })?;
        for (i, t) in times.iter_mut().enumerate() {
            if parents.iter().any(|p| p.is_null(i)) {
                *t = Err(json::NO_TIME);
            }
        }
        Ok(Some(times))
    }

    /// Judges the rows of `batch`: the batch to write.
    fn judge_batch(
        &self,
        batch: &RecordBatch,
        worker: &mut RecordWorker<'_, '_>,
        stats: &mut Stats,
    ) -> io::Result<RecordBatch> {
        let (array, parents) = self.url_array(batch)?;
        let times = self.time_array(batch)?;
        let time_of = |i: usize| match &times {
            Some(times) => times[i],
            None => Err(json::NO_TIME),
        };
        // Dictionary-encoded strings (a pandas categorical) are strings
        // too: each row's URL is the value its key names.
        let (strings, keys) = match array.as_any_dictionary_opt() {
            Some(d) => (d.values().clone(), Some(d.normalized_keys())),
            None => (array.clone(), None),
        };
        let url_of = |i: usize| -> Option<&str> {
            if array.is_null(i) || parents.iter().any(|p| p.is_null(i)) {
                return None;
            }
            let i = keys.as_ref().map_or(i, |k| k[i]);
            if strings.is_null(i) {
                return None;
            }
            if let Some(a) = strings.as_string_opt::<i32>() {
                Some(a.value(i))
            } else if let Some(a) = strings.as_string_opt::<i64>() {
                Some(a.value(i))
            } else {
                strings.as_string_view_opt().map(|a| a.value(i))
            }
        };
        let is_string = matches!(
            strings.data_type(),
            DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
        );
        if !is_string {
            return Err(invalid(format!(
                "the URL column {:?} holds {}, not strings",
                self.url_field.join("."),
                array.data_type()
            )));
        }
        let rows = batch.num_rows();
        if let Some(want) = self.emit {
            let mut keep = Vec::with_capacity(rows);
            for i in 0..rows {
                let number = stats.lines();
                let url = url_of(i).map(str::as_bytes).ok_or(json::NULL);
                let url = worker.timed(url, || time_of(i));
                let kept = worker.judge(url, number, stats) == Some(want);
                stats.kept += u64::from(kept);
                keep.push(kept);
            }
            let mask = BooleanArray::from(keep);
            return arrow_select::filter::filter_record_batch(batch, &mask)
                .map_err(arrow_error);
        }
        let mut strings: Vec<Option<StringBuilder>> = vec![];
        let mut numbers: Vec<Option<UInt32Builder>> = vec![];
        for name in &self.columns {
            let number = is_line_field(name);
            strings.push((!number).then(StringBuilder::new));
            numbers.push(number.then(UInt32Builder::new));
        }
        let last = self.columns.len() - 1;
        for i in 0..rows {
            let number = stats.lines();
            let url = url_of(i).map(str::as_bytes).ok_or(json::NULL);
            let url = worker.timed(url, || time_of(i));
            worker.judge(url, number, stats);
            worker.fill_values(url.is_ok());
            for (c, value) in worker.values.iter().enumerate() {
                let value = value.resolve(&worker.texts);
                match (value, &mut strings[c], &mut numbers[c]) {
                    (Value::Text(t), Some(b), _) => {
                        b.append_value(String::from_utf8_lossy(t))
                    }
                    (Value::Number(n), _, Some(b)) => b.append_value(n),
                    (_, Some(b), _) => b.append_null(),
                    (_, _, Some(b)) => b.append_null(),
                    _ => {}
                }
            }
            let error = &mut strings[last];
            if let Some(b) = error.as_mut() {
                match url {
                    Ok(_) => b.append_null(),
                    Err(why) => b.append_value(why),
                }
            }
        }
        let mut columns: Vec<ArrayRef> = batch.columns().to_vec();
        for (s, n) in strings.iter_mut().zip(&mut numbers) {
            match (s, n) {
                (Some(b), _) => columns.push(Arc::new(b.finish())),
                (_, Some(b)) => columns.push(Arc::new(b.finish())),
                _ => {}
            }
        }
        let schema = self.with_added(&batch.schema());
        RecordBatch::try_new(Arc::new(schema), columns).map_err(arrow_error)
    }

    /// `schema` with the added columns after its own: line numbers as
    /// unsigned integers, the others as strings, all nullable.
    fn with_added(&self, schema: &Schema) -> Schema {
        let mut fields: Vec<Field> =
            schema.fields().iter().map(|f| f.as_ref().clone()).collect();
        for name in &self.columns {
            let kind = if is_line_field(name) {
                DataType::UInt32
            } else {
                DataType::Utf8
            };
            fields.push(Field::new(name, kind, true));
        }
        Schema::new_with_metadata(fields, schema.metadata().clone())
    }
}
