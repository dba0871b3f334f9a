//! The WARC records that `--emit` keeps, as they are written: a record is
//! held until it is known whole (a truncated one is left out), unless it
//! outgrows [`HOLD_BYTES`], when it is passed on as it is read, so that a
//! record of any size costs a bounded amount of memory. In a
//! gzip-compressed WARC, a held record alone in its gzip member goes out
//! as that member, copied; any other goes out in a member of its own.

use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;

/// The most bytes of a kept record held before it is passed on as read.
pub(super) const HOLD_BYTES: usize = 1 << 20;

/// The most compressed bytes of one gzip member kept to copy it: past
/// them, its record goes out compressed again (deflate never grows data
/// much, so only a member of empty blocks or a long gzip header gets
/// there).
pub(super) const COPY_BYTES: usize = 2 * HOLD_BYTES;

/// Where the bytes of the record being read go.
enum Pass {
    /// Into [`Kept::held`].
    Held,
    /// Straight into the output.
    Plain,
    /// Into a gzip member of its own, then the output.
    Gzip(GzEncoder<Vec<u8>>),
}

/// The records kept, on their way to the output.
pub(super) struct Kept {
    /// The input is gzip-compressed: records go out in gzip members.
    gzip: bool,
    /// The record being read, while it is held.
    pub(super) held: Vec<u8>,
    pass: Pass,
    /// Bytes of the record being read passed on already.
    passed: u64,
    /// The first record of the gzip member being read, kept and whole:
    /// its member is copied if it holds no other record.
    pending: Option<Vec<u8>>,
    /// Records of the gzip member being read, so far.
    in_member: u64,
}

impl Kept {
    /// Kept records of an input that is gzip-compressed (`gzip`) or not.
    pub(super) fn new(gzip: bool) -> Kept {
        Kept {
            gzip,
            held: vec![],
            pass: Pass::Held,
            passed: 0,
            pending: None,
            in_member: 0,
        }
    }

    /// A record is about to be read: nothing of it held yet.
    pub(super) fn start(&mut self) {
        self.held.clear();
        self.passed = 0;
    }

    /// A record's header was read (into [`Kept::held`]). A pending record
    /// of the same gzip member goes out now, in a member of its own.
    pub(super) fn headed(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        self.in_member += 1;
        match self.pending.take() {
            Some(first) => gzip_member(out, &first),
            None => Ok(()),
        }
    }

    /// More bytes of a kept record: held, or passed on once the record
    /// has outgrown [`HOLD_BYTES`].
    pub(super) fn push(
        &mut self,
        bytes: &[u8],
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        if let Pass::Held = self.pass {
            self.held.extend_from_slice(bytes);
            if self.held.len() <= HOLD_BYTES {
                return Ok(());
            }
            // gzip's fastest level: compressing a long record again costs
            // time that copying its member did not.
            self.pass = match self.gzip {
                true => {
                    Pass::Gzip(GzEncoder::new(vec![], Compression::fast()))
                }
                false => Pass::Plain,
            };
            let held = std::mem::take(&mut self.held);
            self.passed = 0;
            return self.push(&held, out);
        }
        self.passed += bytes.len() as u64;
        match &mut self.pass {
            Pass::Held => unreachable!("held bytes are handled above"),
            Pass::Plain => out.extend_from_slice(bytes),
            Pass::Gzip(gz) => {
                gz.write_all(bytes)?;
                out.append(gz.get_mut());
            }
        }
        Ok(())
    }

    /// Whether the record being read is passed on as it is read.
    pub(super) fn passing(&self) -> bool {
        !matches!(self.pass, Pass::Held)
    }

    /// The record being read ended: written out when `keep`, else (not
    /// wanted, or truncated) dropped if still held. Returns how many of
    /// its bytes had been passed on already.
    pub(super) fn end(
        &mut self,
        keep: bool,
        out: &mut Vec<u8>,
    ) -> io::Result<u64> {
        let passed = self.passed;
        match std::mem::replace(&mut self.pass, Pass::Held) {
            // A truncated record passed on stays as cut, its gzip member
            // ended so that the output reads as far as the input did.
            Pass::Gzip(gz) => out.extend_from_slice(&gz.finish()?),
            Pass::Plain => {}
            Pass::Held if !keep => {}
            Pass::Held if !self.gzip => out.extend_from_slice(&self.held),
            Pass::Held if self.in_member == 1 => {
                self.pending = Some(std::mem::take(&mut self.held));
            }
            Pass::Held => gzip_member(out, &self.held)?,
        }
        self.held.clear();
        Ok(passed)
    }

    /// The gzip member ended; `copy` is its compressed bytes, if all of
    /// them were kept. A pending record goes out as that member.
    pub(super) fn end_member(
        &mut self,
        copy: Option<Vec<u8>>,
        out: &mut Vec<u8>,
    ) -> io::Result<()> {
        self.in_member = 0;
        match (self.pending.take(), copy) {
            (Some(_), Some(copy)) => out.extend_from_slice(&copy),
            (Some(first), None) => gzip_member(out, &first)?,
            (None, _) => {}
        }
        Ok(())
    }

    /// The input cannot be read on: a pending record, whole, goes out
    /// before the error, and the gzip member of a record passed on is
    /// ended where the record was cut.
    pub(super) fn rescue(&mut self, out: &mut Vec<u8>) -> io::Result<()> {
        if let Some(first) = self.pending.take() {
            gzip_member(out, &first)?;
        }
        if let Pass::Gzip(gz) = std::mem::replace(&mut self.pass, Pass::Held) {
            out.extend_from_slice(&gz.finish()?);
        }
        Ok(())
    }
}

/// Appends `record` to `out` in a gzip member of its own.
fn gzip_member(out: &mut Vec<u8>, record: &[u8]) -> io::Result<()> {
    let mut gz = GzEncoder::new(out, Compression::default());
    gz.write_all(record)?;
    gz.finish()?;
    Ok(())
}
