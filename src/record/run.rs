//! A records run: a CSV or TSV header with the added columns, then the
//! chunks of whole records on the batch's threads, in input order.

use std::io::{self, Read};

use super::chunks::{invalid, Framing, RecordChunks};
use super::worker::{push_value, split_record, trim_line_end, RecordWorker};
use super::{RecordFormat, Records};
use crate::batch::{Batch, Sink, Stats};

impl<'m> Records<'m> {
    /// Runs every record read from `rdr` (decompressed already): a CSV or
    /// TSV header first goes to the sink on its own, with the added
    /// columns. An error of the input (no URL column in the header, a
    /// record over [`MAX_RECORD_BYTES`](super::MAX_RECORD_BYTES)) is an error of kind
    /// `InvalidData`. For WARC files, see [`Records::run_warc`].
    pub fn run<R: Read, S: Sink>(
        &self,
        batch: &Batch,
        rdr: R,
        sink: S,
    ) -> io::Result<Stats> {
        self.run_sized(batch, rdr, None, sink)
    }

    /// [`Records::run`] on an input of `len` bytes when that is known (a
    /// file read as it is, not decompressed): a short one is cut into
    /// chunks as [`BatchBuilder::file_chunks`](crate::BatchBuilder::file_chunks)
    /// says for a file.
    pub fn run_sized<R: Read, S: Sink>(
        &self,
        batch: &Batch,
        rdr: R,
        len: Option<u64>,
        mut sink: S,
    ) -> io::Result<Stats> {
        if let Some(problem) = self.time_problem() {
            return Err(invalid(problem));
        }
        let (framing, delimiter) =
            match self.format {
                RecordFormat::Csv => (Framing::Csv(b','), b','),
                RecordFormat::Tsv => (Framing::Tsv, b'\t'),
                RecordFormat::Warc => return self.run_warc(rdr, sink),
                RecordFormat::Sitemap | RecordFormat::LlmsTxt => {
                    return self.run_sitemap(batch, rdr, sink)
                }
                RecordFormat::Parquet => return Err(invalid(
                    "Parquet is read from a file (see Records::run_parquet)"
                        .to_string(),
                )),
                _ => (Framing::Lines, 0),
            };
        let chunk_size = batch.chunk_size_of(len);
        let mut chunks = RecordChunks::new(rdr, chunk_size, framing);
        let (mut column, mut width, mut time_column) = (0, 0, 0);
        if delimiter != 0 {
            let header = chunks.first_record()?;
            let (index, out) = self.header(&header, delimiter)?;
            (column, width) = index;
            time_column = self.time_column(&header, delimiter)?;
            sink.chunk(&out, &Stats::default())?;
        }
        let new_worker = || {
            let mut worker = RecordWorker::new(self, delimiter);
            (worker.column, worker.width) = (column, width);
            worker.time_column = time_column;
            worker
        };
        batch.run_chunks(chunks, new_worker, sink)
    }

    /// The fetch time's column in a CSV or TSV header (its bytes with the
    /// line end), when records are judged at their fetch time (else 0).
    fn time_column(&self, header: &[u8], delimiter: u8) -> io::Result<usize> {
        let Some(want) = self.time_field.as_ref().and_then(|f| f.first())
        else {
            return Ok(0);
        };
        let names = split_record(header, delimiter, self.format);
        names.iter().position(|n| n == want.as_bytes()).ok_or_else(|| {
            invalid(format!(
                "no column {want:?} in the header for --time-field"
            ))
        })
    }

    /// The URL column's index in a CSV or TSV header (its bytes with the
    /// line end), and the header to write.
    fn header(
        &self,
        header: &[u8],
        delimiter: u8,
    ) -> io::Result<((usize, usize), Vec<u8>)> {
        let names = split_record(header, delimiter, self.format);
        let width = names.len();
        let want = self.url_field[0].as_bytes();
        let Some(index) = names.iter().position(|n| n == want) else {
            let shown: Vec<String> = names
                .iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect();
            return Err(invalid(format!(
                "no column {:?} in the header (its columns: {}); name the \
                 URL's with --url-column",
                self.url_field[0],
                shown.join(", ")
            )));
        };
        if let Some(name) = names
            .iter()
            .find(|n| self.columns.iter().any(|c| c.as_bytes() == *n))
        {
            return Err(invalid(format!(
                "the header already has a column {:?}, one that robots-batch \
                 adds (is this its own output?)",
                String::from_utf8_lossy(name)
            )));
        }
        let mut out = vec![];
        if self.emit.is_some() {
            out.extend_from_slice(header);
            if !header.ends_with(b"\n") {
                out.push(b'\n');
            }
            return Ok(((index, width), out));
        }
        out.extend_from_slice(trim_line_end(header));
        let mut quoter = csv_core::WriterBuilder::new().build();
        for name in &self.columns {
            push_value(&mut out, &mut quoter, delimiter, name.as_bytes());
        }
        out.push(b'\n');
        Ok(((index, width), out))
    }
}
