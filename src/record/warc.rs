//! WARC input: every record with a `WARC-Target-URI` judged, one record
//! after another (a record's length is only known from its header, so
//! records cannot be found without reading the ones before them).
//!
//! The header is read by crawl-log mode's WARC reader. In a gzip-compressed
//! WARC, each gzip member is read on its own, so that `--emit` can copy a
//! kept record's member byte for byte (see [`warc_emit`](super::warc_emit)).

use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;

use super::warc_emit::{Kept, COPY_BYTES, HOLD_BYTES};
use super::worker::{push_value, RecordWorker, Value};
use super::{invalid, json, Records};
use crate::batch::{Sink, Stats};
use crate::compressed::{sniff, Compression, MAGIC_BYTES};
use crate::crawl::{read_warc_head, WarcHead};
use crate::time::Timestamp;

/// A record judged at its fetch time without a `WARC-Date`.
const NO_WARC_DATE: &str = "no WARC-Date";

/// A record whose block ends before its `Content-Length`.
const TRUNCATED: &str = "truncated (its block ends before its Content-Length)";

/// How much output is gathered before it goes to the sink.
const FLUSH_BYTES: usize = 1 << 20;

/// A reader that keeps a copy of every byte consumed through it, when
/// asked and up to [`COPY_BYTES`]: the compressed bytes of one gzip
/// member.
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
            match self.inner.fill_buf() {
                Ok(buf) if copy.len() + n <= COPY_BYTES => {
                    copy.extend_from_slice(&buf[..n.min(buf.len())]);
                }
                // Too long to hold: the member's record is compressed
                // again instead.
                _ => self.copy = None,
            }
        }
        self.inner.consume(n);
    }
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
    /// A record was read to its end.
    any: bool,
    /// With `--emit`, the records kept.
    kept: Option<Kept>,
}

impl<'m> Records<'m> {
    /// Runs every record of the WARC stream `rdr` (gzip-compressed by
    /// record, zstd-compressed, or not compressed). Without `--emit`, a
    /// CSV row per record: `warc_record_id,warc_type,url`, then the added
    /// fields; records without a target URI (`warcinfo`) get no verdict.
    /// With it, the WARC records with the verdict, each record's bytes as
    /// read (a gzip member holding one record copied as it is), and every
    /// record without a target URI. A record over 1 MiB is
    /// passed on as it is read (in a gzip member of its own, when the
    /// input is gzip-compressed), so memory stays bounded.
    ///
    /// A header that cannot be read is an error of kind `InvalidData`; a
    /// truncated block is a bad record, the last, or an error when the
    /// record's first bytes were passed on already. Before an error, the
    /// rows (or records) of every record read whole go to the sink.
    pub fn run_warc<R: Read, S: Sink>(
        &self,
        rdr: R,
        mut sink: S,
    ) -> io::Result<Stats> {
        let mut rdr = BufReader::with_capacity(1 << 16, rdr);
        let compression = sniff(&peek(&mut rdr)?);
        let gzip = compression == Some(Compression::Gzip);
        let worker = RecordWorker::new(self, b',');
        let mut run = Run {
            worker,
            sink: &mut sink,
            total: Stats::default(),
            out: vec![],
            line: vec![],
            number: 0,
            ended: false,
            any: false,
            kept: self.emit.map(|_| Kept::new(gzip)),
        };
        if self.emit.is_none() {
            run.out.extend_from_slice(b"warc_record_id,warc_type,url");
            let mut quoter = csv_core::WriterBuilder::new().build();
            for name in &self.columns {
                push_value(&mut run.out, &mut quoter, b',', name.as_bytes());
            }
            run.out.push(b'\n');
        }
        let read = match compression {
            Some(Compression::Gzip) => run.members(rdr),
            Some(Compression::Zstd) => {
                zstd::stream::read::Decoder::with_buffer(rdr).and_then(|d| {
                    run.plain(&mut BufReader::with_capacity(1 << 16, d))
                })
            }
            None => run.plain(&mut rdr),
        };
        if let Err(err) = read {
            // What was read whole goes out before the error; a CSV header
            // alone does not.
            if !run.any && run.kept.is_none() {
                return Err(err);
            }
            if let Some(kept) = run.kept.as_mut() {
                kept.rescue(&mut run.out)?;
            }
            run.flush(true)?;
            return Err(err);
        }
        run.flush(true)?;
        Ok(run.total)
    }
}

/// The first bytes of `rdr`, left unread: enough for the magic bytes of
/// gzip and zstd.
fn peek<R: Read>(rdr: &mut BufReader<R>) -> io::Result<Vec<u8>> {
    Ok(rdr.fill_buf()?.iter().take(MAGIC_BYTES).copied().collect())
}

/// Reads up to `length` bytes of a block, handing them to `pass` as they
/// come; how many there were. A stream (or gzip member) that ends early
/// is a short block, not an error.
fn read_block<B: BufRead>(
    rdr: &mut B,
    length: u64,
    mut pass: impl FnMut(&[u8]) -> io::Result<()>,
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
        pass(&buf[..n])?;
        rdr.consume(n);
        got += n as u64;
    }
    Ok(got)
}

impl<S: Sink> Run<'_, '_, '_, S> {
    /// Every record of a stream not compressed, or decompressed already.
    fn plain<B: BufRead>(&mut self, rdr: &mut B) -> io::Result<()> {
        while !self.ended && self.record(rdr)? {
            self.flush(false)?;
        }
        Ok(())
    }

    /// Every record of a gzip-compressed stream, one gzip member at a
    /// time: with `--emit`, a member holding one kept record is copied.
    fn members<B: BufRead>(&mut self, rdr: B) -> io::Result<()> {
        let mut tee = Tee { inner: rdr, copy: None };
        while !self.ended && !tee.fill_buf()?.is_empty() {
            // Garbage after the last member is named as such, not as a
            // gzip header cut short.
            if tee.fill_buf()?[0] != 0x1f {
                let n = self.number;
                return Err(invalid(format!(
                    "WARC record {}: the bytes after the gzip member of \
                     record {n} are not gzip",
                    n + 1
                )));
            }
            tee.copy = self.kept.as_ref().map(|_| vec![]);
            let mut member = BufReader::new(GzDecoder::new(&mut tee));
            while !self.ended && self.record(&mut member)? {
                self.flush(false)?;
            }
            drop(member);
            let copy = tee.copy.take();
            if let Some(kept) = self.kept.as_mut() {
                kept.end_member(copy, &mut self.out)?;
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

    /// More bytes of a record `--emit` keeps.
    fn pass(&mut self, bytes: &[u8]) -> io::Result<()> {
        if let Some(kept) = self.kept.as_mut() {
            kept.push(bytes, &mut self.out)?;
            self.flush(false)?;
        }
        Ok(())
    }

    /// Reads, judges and writes (as a row, or with `--emit` as itself
    /// when kept) the next record; `false` at the end of the stream.
    fn record<B: BufRead>(&mut self, rdr: &mut B) -> io::Result<bool> {
        let emit = self.worker.records.emit;
        let number = self.number + 1;
        if let Some(kept) = self.kept.as_mut() {
            kept.start();
        }
        let raw = self.kept.as_mut().map(|k| &mut k.held);
        let head = read_warc_head(rdr, &mut self.line, number, raw)
            .map_err(invalid)?;
        let Some(head) = head else { return Ok(false) };
        self.number = number;
        if let Some(kept) = self.kept.as_mut() {
            kept.headed(&mut self.out)?;
        }
        let WarcHead { kind, target, id, length, date } = head;
        // Judged from the header, so that a kept record's block can be
        // passed on as it is read; judged again below if it is truncated.
        let mut judged_stats = Stats::default();
        let time = || {
            let date = date.as_deref().ok_or(NO_WARC_DATE)?;
            Timestamp::parse(date).ok_or(json::NOT_TIME)
        };
        let timed = match &target {
            Some(t) => Some(self.worker.timed(Ok(t.as_bytes()), time)),
            None => None,
        };
        let judged = match timed {
            Some(url) => self.worker.judge(url, 0, &mut judged_stats),
            None => {
                judged_stats.count_line();
                None
            }
        };
        let wanted = match (emit, &target) {
            (Some(_), None) => true,
            (Some(want), Some(_)) => judged == Some(want),
            (None, _) => false,
        };
        let got = match wanted {
            true => read_block(rdr, length, |b| self.pass(b))?,
            false => read_block(rdr, length, |_| Ok(()))?,
        };
        let truncated = got < length;
        if !truncated {
            // The two CRLFs that end a record belong to it.
            let mut ends = Vec::with_capacity(4);
            while ends.len() < 4 {
                let buf = match rdr.fill_buf() {
                    Ok(buf) => buf,
                    Err(_) => break,
                };
                match buf.first() {
                    Some(&b) if b == b'\r' || b == b'\n' => {
                        ends.push(b);
                        rdr.consume(1);
                    }
                    _ => break,
                }
            }
            if wanted {
                self.pass(&ends)?;
            }
        }
        let url = match (timed, truncated) {
            (_, true) => Some(Err(TRUNCATED)),
            (timed, false) => timed,
        };
        if truncated {
            judged_stats = Stats::default();
            self.worker.judge(Err(TRUNCATED), 0, &mut judged_stats);
        }
        let keep = wanted && !truncated;
        if let Some(kept) = self.kept.as_mut() {
            let passing = kept.passing();
            let passed = kept.end(keep, &mut self.out)?;
            if truncated && passing {
                return Err(invalid(format!(
                    "WARC record {number} is {TRUNCATED}, and its first \
                     {passed} bytes were written already (a record over \
                     {} MiB is written as it is read)",
                    HOLD_BYTES >> 20
                )));
            }
        }
        self.any = true;
        let mut stats = Stats::of_bytes(got as usize);
        stats.add(&judged_stats);
        self.total.add(&stats);
        self.ended = truncated;
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
                    self.worker.fill_values(url.is_ok());
                    for value in self.worker.values.clone() {
                        let value = value.resolve(&self.worker.texts);
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
                            // Copied texts are resolved above.
                            Value::Nothing | Value::Copied(..) => {
                                self.out.push(b',')
                            }
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
        Ok(true)
    }
}
