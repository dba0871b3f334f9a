//! WARC input: every record with a `WARC-Target-URI` judged, one record
//! after another (a record's length is only known from its header, so
//! records cannot be found without reading the ones before them).
//!
//! The header is read by crawl-log mode's WARC reader. In a gzip-compressed
//! WARC, each gzip member is read on its own, so that `--emit` can copy a
//! kept record's member byte for byte.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};

use flate2::bufread::GzDecoder;

use super::{invalid, push_value, RecordWorker, Records, Value};
use crate::batch::{Sink, Stats};
use crate::crawl::{read_warc_head, WarcHead};
use crate::matcher::Matcher;

/// A record whose block ends before its `Content-Length`.
const TRUNCATED: &str = "truncated (its block ends before its Content-Length)";

/// How much output is gathered before it goes to the sink.
const FLUSH_BYTES: usize = 1 << 20;

/// A reader that keeps a copy of every byte consumed through it, when
/// asked: the compressed bytes of one gzip member.
struct Tee<R> {
    inner: R,
    copy: Option<Vec<u8>>,
}

impl<R: BufRead> Read for Tee<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let avail = self.fill_buf()?;
            let n = avail.len().min(buf.len());
            buf[..n].copy_from_slice(&avail[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tee<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if let Some(copy) = self.copy.as_mut() {
            if let Ok(buf) = self.inner.fill_buf() {
                copy.extend_from_slice(&buf[..n.min(buf.len())]);
            }
        }
        self.inner.consume(n);
    }
}

/// One record read: its bytes (kept for `--emit`) and whether to keep it.
struct Read1 {
    raw: Vec<u8>,
    keep: bool,
}

/// The state of a WARC run.
struct Run<'w, 'r, 'm, S> {
    worker: RecordWorker<'r, 'm>,
    sink: &'w mut S,
    total: Stats,
    out: Vec<u8>,
    line: Vec<u8>,
    number: u64,
    /// A record was truncated: nothing follows it.
    ended: bool,
}

impl<'m> Records<'m> {
    /// Runs every record of the WARC stream `rdr` (gzip-compressed by
    /// record, zstd-compressed, or not compressed). Without `--emit`, a
    /// CSV row per record: `warc_record_id,warc_type,url`, then the added
    /// fields; records without a target URI (`warcinfo`) get no verdict.
    /// With it, the WARC records with the verdict, each record's bytes as
    /// read (a gzip member holding one record copied as it is), and every
    /// record without a target URI.
    ///
    /// A header that cannot be read is an error of kind `InvalidData`; a
    /// truncated block is a bad record, the last.
    pub fn run_warc<R: Read, S: Sink>(
        &self,
        rdr: R,
        mut sink: S,
    ) -> io::Result<Stats> {
        let mut rdr = BufReader::with_capacity(1 << 16, rdr);
        let head = peek(&mut rdr)?;
        let worker = RecordWorker {
            records: self,
            column: 0,
            width: 0,
            delimiter: b',',
            scratches: self.matchers.iter().map(Matcher::scratch).collect(),
            verdicts: vec![],
            values: vec![],
            own: HashMap::new(),
            quoter: csv_core::WriterBuilder::new().build(),
            usage: Default::default(),
        };
        let mut run = Run {
            worker,
            sink: &mut sink,
            total: Stats::default(),
            out: vec![],
            line: vec![],
            number: 0,
            ended: false,
        };
        if self.emit.is_none() {
            run.out.extend_from_slice(b"warc_record_id,warc_type,url");
            let mut quoter = csv_core::WriterBuilder::new().build();
            for name in &self.columns {
                push_value(&mut run.out, &mut quoter, b',', name.as_bytes());
            }
            run.out.push(b'\n');
        }
        if head.starts_with(b"\x1f\x8b") {
            let mut tee = Tee { inner: rdr, copy: None };
            while !run.ended && !tee.fill_buf()?.is_empty() {
                tee.copy = self.emit.map(|_| vec![]);
                let mut member = BufReader::new(GzDecoder::new(&mut tee));
                let mut kept = vec![];
                loop {
                    let mut raw = vec![];
                    let Some(keep) = run.record(&mut member, &mut raw)? else {
                        break;
                    };
                    kept.push(Read1 { raw, keep });
                }
                drop(member);
                let copy = tee.copy.take().unwrap_or_default();
                match &kept[..] {
                    [one] if one.keep => run.out.extend_from_slice(&copy),
                    _ => {
                        // Several records in one member: each kept one
                        // goes in a member of its own.
                        for record in kept.iter().filter(|r| r.keep) {
                            let mut gz = flate2::write::GzEncoder::new(
                                &mut run.out,
                                flate2::Compression::default(),
                            );
                            gz.write_all(&record.raw)?;
                            gz.finish()?;
                        }
                    }
                }
                run.flush(false)?;
            }
        } else if head.starts_with(b"\x28\xb5\x2f\xfd") {
            let mut rdr =
                BufReader::new(zstd::stream::read::Decoder::with_buffer(rdr)?);
            run.plain(&mut rdr)?;
        } else {
            run.plain(&mut rdr)?;
        }
        run.flush(true)?;
        Ok(run.total)
    }
}

/// The first bytes of `rdr`, left unread: enough for the magic bytes of
/// gzip and zstd.
fn peek<R: Read>(rdr: &mut BufReader<R>) -> io::Result<Vec<u8>> {
    Ok(rdr.fill_buf()?.iter().take(4).copied().collect())
}

/// Reads up to `length` bytes of a block, into `keep` when given; how
/// many there were. A stream (or gzip member) that ends early is a short
/// block, not an error.
fn read_block<B: BufRead>(
    rdr: &mut B,
    length: u64,
    mut keep: Option<&mut Vec<u8>>,
) -> io::Result<u64> {
    let mut got = 0u64;
    while got < length {
        let buf = match rdr.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => break,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        let n = buf.len().min((length - got) as usize);
        if let Some(keep) = keep.as_deref_mut() {
            keep.extend_from_slice(&buf[..n]);
        }
        rdr.consume(n);
        got += n as u64;
    }
    Ok(got)
}

impl<S: Sink> Run<'_, '_, '_, S> {
    /// Every record of an uncompressed stream. With `--emit`, each record
    /// is read straight into the output, and taken out again when it is
    /// not kept.
    fn plain<B: BufRead>(&mut self, rdr: &mut B) -> io::Result<()> {
        let emit = self.worker.records.emit.is_some();
        let mut scratch = vec![];
        while !self.ended {
            let mut out = match emit {
                true => std::mem::take(&mut self.out),
                false => std::mem::take(&mut scratch),
            };
            let start = out.len();
            let read = self.record(rdr, &mut out);
            if !matches!(read, Ok(Some(true))) {
                out.truncate(start);
            }
            match emit {
                true => self.out = out,
                false => scratch = out,
            }
            if read?.is_none() {
                break;
            }
            self.flush(false)?;
        }
        Ok(())
    }

    /// Hands the output to the sink when there is enough of it, or at the
    /// end (`last`).
    fn flush(&mut self, last: bool) -> io::Result<()> {
        if self.out.len() >= FLUSH_BYTES || (last && !self.out.is_empty()) {
            self.sink.chunk(&self.out, &self.total)?;
            self.out.clear();
        }
        Ok(())
    }

    /// Reads, judges and writes (without `--emit`) the next record, and
    /// with `--emit` appends its bytes to `raw`; whether to keep it,
    /// `None` at the end of the stream.
    fn record<B: BufRead>(
        &mut self,
        rdr: &mut B,
        raw: &mut Vec<u8>,
    ) -> io::Result<Option<bool>> {
        let emit = self.worker.records.emit;
        let number = self.number + 1;
        let head = read_warc_head(
            rdr,
            &mut self.line,
            number,
            emit.map(|_| &mut *raw),
        )
        .map_err(invalid)?;
        let Some(head) = head else { return Ok(None) };
        self.number = number;
        let WarcHead { kind, target, id, length, .. } = head;
        // The block: kept for `--emit`, else read past.
        let keep = emit.map(|_| &mut *raw);
        let got = read_block(rdr, length, keep)?;
        let truncated = got < length;
        if !truncated {
            // The two CRLFs that end a record belong to it.
            let mut n = 0;
            while n < 4 {
                let buf = match rdr.fill_buf() {
                    Ok(buf) => buf,
                    Err(_) => break,
                };
                match buf.first() {
                    Some(&b) if b == b'\r' || b == b'\n' => {
                        if emit.is_some() {
                            raw.push(b);
                        }
                        rdr.consume(1);
                        n += 1;
                    }
                    _ => break,
                }
            }
        }
        let mut stats = Stats::of_bytes(got as usize);
        let url = match (&target, truncated) {
            (_, true) => Some(Err(TRUNCATED)),
            (Some(t), false) => Some(Ok(t.as_bytes())),
            (None, false) => None,
        };
        let judged = match url {
            Some(url) => self.worker.judge(url, 0, &mut stats),
            None => {
                stats.count_line();
                None
            }
        };
        self.total.add(&stats);
        self.ended = truncated;
        let keep = match (emit, &url) {
            (Some(_), None) => true,
            (Some(want), Some(_)) => judged == Some(want),
            (None, _) => false,
        };
        if keep && url.is_some() {
            self.total.kept += 1;
        }
        if emit.is_none() {
            let q = &mut self.worker.quoter;
            let text = |s: &Option<String>| {
                s.as_deref().unwrap_or("").as_bytes().to_vec()
            };
            crate::output::push_csv_field(q, &mut self.out, &text(&id));
            push_value(&mut self.out, q, b',', &text(&kind));
            push_value(&mut self.out, q, b',', &text(&target));
            match url {
                Some(url) => {
                    self.worker.fill_values(judged.is_some());
                    for value in self.worker.values.clone() {
                        let q = &mut self.worker.quoter;
                        match value {
                            Value::Text(t) => {
                                push_value(&mut self.out, q, b',', t)
                            }
                            Value::Number(n) => push_value(
                                &mut self.out,
                                q,
                                b',',
                                n.to_string().as_bytes(),
                            ),
                            Value::Nothing => self.out.push(b','),
                        }
                    }
                    let why = url.err().unwrap_or_default();
                    push_value(
                        &mut self.out,
                        &mut self.worker.quoter,
                        b',',
                        why.as_bytes(),
                    );
                }
                None => {
                    for _ in 0..self.worker.records.columns.len() {
                        self.out.push(b',');
                    }
                }
            }
            self.out.push(b'\n');
        }
        Ok(Some(keep))
    }
}
