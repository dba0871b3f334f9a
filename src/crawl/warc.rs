//! A reader of WARC files (ISO 28500) just deep enough for robots.txt
//! captures: the response records' target URI and date, and the HTTP
//! status, `Location` and body of the response they hold.
//!
//! Records are read as streams: of a body, only what the parse limit will
//! use is kept (after undoing the transfer and content codings), and the
//! rest is skipped unread into memory; header lines are bounded.
//!
//! N.B. No maintained WARC crate reads records from any `BufRead` without
//! pulling in its own gzip and I/O choices, and the subset needed here is
//! small, so it is written out.

use crate::time::Timestamp;
use std::io::{self, BufRead, BufReader, Read};

use super::fetch::Fetch;
use super::origin::Origin;

/// The longest header line kept, of the WARC record or of the HTTP
/// response; a longer WARC header line is an error, a longer HTTP header
/// line is skipped. No URL or header a robots.txt fetch needs comes near.
pub(crate) const MAX_LINE: usize = 64 << 10;

/// The most bytes of one WARC record's header, its lines together: a
/// header is held whole when its record is copied (`--emit`), and real
/// ones are a few hundred bytes.
pub(crate) const MAX_HEAD: usize = 1 << 20;

/// The most content codings of one body undone; more is no real response.
const MAX_CODINGS: usize = 4;

/// The records of one WARC stream.
pub(crate) struct WarcRecords<R> {
    rdr: R,
    /// The 1-based number of the record being read, for messages.
    number: u64,
    line: Vec<u8>,
    /// The most bytes of a body kept (0: all).
    max_body: usize,
    /// Bodies whose content coding could not be undone.
    undecodable: usize,
}

impl<R: BufRead> WarcRecords<R> {
    /// The records of `rdr`, keeping at most `max_body` bytes of each
    /// body (0: all of it).
    pub(crate) fn new(rdr: R, max_body: usize) -> WarcRecords<R> {
        WarcRecords { rdr, number: 0, line: vec![], max_body, undecodable: 0 }
    }

    /// How many 2xx bodies had a `Content-Encoding` that could not be
    /// undone (their fetches were given status 0, no answer).
    pub(crate) fn undecodable(&self) -> usize {
        self.undecodable
    }

    /// The next record: `None` at the end, `Some(None)` for a record that
    /// is not an HTTP(S) response (a request, metadata, a non-HTTP
    /// target), else the target URI and the fetch it holds.
    pub(crate) fn next_record(
        &mut self,
    ) -> Result<Option<Option<(String, Fetch)>>, String> {
        let Some(head) =
            read_head(&mut self.rdr, &mut self.line, self.number + 1, None)?
        else {
            return Ok(None);
        };
        self.number += 1;
        let Head { kind, target, date, length, .. } = head;
        let http = target
            .as_deref()
            .is_some_and(|t| Origin::of_url(t.as_bytes()).is_some());
        let wanted = kind.as_deref() == Some("response") && http;
        let number = self.number;
        let mut block = (&mut self.rdr).take(length);
        let fetch = if wanted {
            http_response(&mut block, self.max_body)
                .map_err(|e| format!("WARC record {number} {e}"))?
        } else {
            None
        };
        // Whatever of the block was not used is skipped, never kept.
        io::copy(&mut block, &mut io::sink())
            .map_err(|e| format!("WARC record {number} {e}"))?;
        if block.limit() > 0 {
            return Err(self.err("is truncated"));
        }
        let Some((mut fetch, decoded)) = fetch else {
            return Ok(Some(None));
        };
        if !decoded {
            self.undecodable += 1;
        }
        if let Some(ref d) = date {
            if Timestamp::parse(d).is_none() {
                return Err(self
                    .err(&format!("has a WARC-Date that is no date: {d:?}")));
            }
        }
        fetch.date = date;
        Ok(Some(target.map(|t| (t, fetch))))
    }

    fn err(&self, what: &str) -> String {
        format!("WARC record {} {what}", self.number)
    }
}

/// The fields of a WARC record's header that readers of records use.
#[derive(Debug, Default)]
pub(crate) struct Head {
    /// `WARC-Type`.
    pub(crate) kind: Option<String>,
    /// `WARC-Target-URI`, without the angle brackets of WARC 1.1's
    /// examples.
    pub(crate) target: Option<String>,
    /// `WARC-Date`.
    pub(crate) date: Option<String>,
    /// `WARC-Record-ID`.
    pub(crate) id: Option<String>,
    /// `Content-Length`: the bytes of the block that follows.
    pub(crate) length: u64,
}

/// Reads the header of WARC record number `number` (1-based, for
/// messages) from `rdr`, after any blank lines, using `line` as a buffer;
/// `None` at the end of the stream. When `raw` is given, the header's
/// bytes as read (from its version line to its blank line) are appended
/// to it.
pub(crate) fn read_head<R: BufRead>(
    rdr: &mut R,
    line: &mut Vec<u8>,
    number: u64,
    mut raw: Option<&mut Vec<u8>>,
) -> Result<Option<Head>, String> {
    let err = |what: &str| format!("WARC record {number} {what}");
    let mut read = |line: &mut Vec<u8>| -> Result<bool, String> {
        match read_line(rdr, line, MAX_LINE) {
            Ok(Line::End) => Ok(false),
            Ok(Line::Read) => Ok(true),
            Ok(Line::Long) => Err(format!(
                "WARC record {number} has a header line over {MAX_LINE} bytes"
            )),
            Err(e) => Err(format!("record {number}: {e}")),
        }
    };
    // Records are separated by two CRLFs; skip any blank lines.
    loop {
        if !read(line)? {
            return Ok(None);
        }
        if !trim_eol(line).is_empty() {
            break;
        }
    }
    if !line.starts_with(b"WARC/") {
        return Err(err("does not start with a WARC/ version line"));
    }
    let mut head = Head::default();
    let mut length = None;
    let mut size = 0;
    loop {
        if let Some(raw) = raw.as_deref_mut() {
            raw.extend_from_slice(line);
        }
        size += line.len();
        if size > MAX_HEAD {
            let mib = MAX_HEAD >> 20;
            return Err(err(&format!("has a header over {mib} MiB")));
        }
        if !read(line)? {
            return Err(err("ends inside its header"));
        }
        let l = trim_eol(line);
        if l.is_empty() {
            if let Some(raw) = raw.as_deref_mut() {
                raw.extend_from_slice(line);
            }
            break;
        }
        let Some((name, value)) = split_header(l) else { continue };
        // Only the values kept are copied: most header lines are not.
        let value = || String::from_utf8_lossy(value).into_owned();
        if name.eq_ignore_ascii_case(b"WARC-Type") {
            head.kind = Some(value());
        } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") {
            // WARC 1.1 examples put the URI in angle brackets.
            let value = value();
            let v = value.trim_start_matches('<').trim_end_matches('>');
            head.target = Some(v.to_string());
        } else if name.eq_ignore_ascii_case(b"WARC-Date") {
            head.date = Some(value());
        } else if name.eq_ignore_ascii_case(b"WARC-Record-ID") {
            head.id = Some(value());
        } else if name.eq_ignore_ascii_case(b"Content-Length") {
            let value = value();
            let n = value.parse::<u64>().map_err(|_| {
                err(&format!("has a bad Content-Length {value:?}"))
            })?;
            length = Some(n);
        }
    }
    head.length = length.ok_or_else(|| err("has no Content-Length"))?;
    Ok(Some(head))
}

/// What [`read_line`] found.
#[derive(Debug, Eq, PartialEq)]
enum Line {
    /// A line (with its end, unless the stream ended first).
    Read,
    /// A line longer than the limit: its first bytes are kept, the rest
    /// was skipped up to and including its end.
    Long,
    /// The end of the stream.
    End,
}

/// Reads a line into `line` (cleared first), keeping at most `limit`
/// bytes of it: a longer one is consumed whole all the same, without
/// holding it.
fn read_line<R: BufRead + ?Sized>(
    rdr: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> io::Result<Line> {
    line.clear();
    let mut long = false;
    let mut any = false;
    loop {
        let buf = match rdr.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (used, done) = match memchr::memchr(b'\n', buf) {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let room = limit.saturating_sub(line.len());
        line.extend_from_slice(&buf[..used.min(room)]);
        long |= used > room;
        rdr.consume(used);
        if done {
            break;
        }
    }
    Ok(match (any, long) {
        (false, _) => Line::End,
        (true, true) => Line::Long,
        (true, false) => Line::Read,
    })
}

/// Status, `Location` and body of the HTTP/1.x response in `block`, and
/// whether the body's content coding was undone; `None` if the block is no
/// HTTP response. Of the body, only a 2xx's is read, and of it at most
/// `max_body` bytes (0: all) after decoding; the caller skips the rest.
fn http_response<R: BufRead>(
    block: &mut R,
    max_body: usize,
) -> Result<Option<(Fetch, bool)>, String> {
    let mut line = vec![];
    let io_err = |e: io::Error| e.to_string();
    if read_line(block, &mut line, MAX_LINE).map_err(io_err)? != Line::Read {
        return Ok(None);
    }
    let status_line = trim_eol(&line);
    if !status_line.starts_with(b"HTTP/") {
        return Ok(None);
    }
    let mut words =
        status_line.split(|&b| b == b' ').filter(|w| !w.is_empty());
    words.next();
    let Some(status) = words
        .next()
        .and_then(|code| std::str::from_utf8(code).ok())
        .and_then(|code| code.parse::<u16>().ok())
    else {
        return Ok(None);
    };
    let mut location = None;
    let mut chunked = false;
    let mut codings = vec![];
    loop {
        // A header line over the limit is skipped: none that matters here
        // comes near it.
        match read_line(block, &mut line, MAX_LINE).map_err(io_err)? {
            Line::End => break,
            Line::Long => continue,
            Line::Read => {}
        }
        let l = trim_eol(&line);
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = split_header(l) else { continue };
        if name.eq_ignore_ascii_case(b"Location") {
            location = Some(String::from_utf8_lossy(value).into_owned());
        } else if name.eq_ignore_ascii_case(b"Transfer-Encoding") {
            chunked = value.eq_ignore_ascii_case(b"chunked");
        } else if name.eq_ignore_ascii_case(b"Content-Encoding") {
            for c in value.split(|&b| b == b',') {
                let c = c.trim_ascii().to_ascii_lowercase();
                // Past the bound the list stops growing; the body then
                // counts as undecodable.
                if !c.is_empty() && c != b"identity" {
                    if codings.len() > MAX_CODINGS {
                        break;
                    }
                    codings.push(c);
                }
            }
        }
    }
    let mut fetch = Fetch { status, body: vec![], location, date: None };
    if !(200..=299).contains(&status) {
        // Only a 2xx's body is a robots.txt.
        return Ok(Some((fetch, true)));
    }
    let mut body: Box<dyn BufRead + '_> = Box::new(block);
    if chunked {
        let (head, rest) = peek(body, 32, |h| h.ends_with(b"\n"))
            .map_err(|e| e.to_string())?;
        body = if is_chunk_size(&head) {
            Box::new(BufReader::new(Chunked {
                inner: rest,
                left: 0,
                state: 0,
            }))
        } else {
            rest
        };
    }
    if codings.len() > MAX_CODINGS {
        fetch.status = 0;
        return Ok(Some((fetch, false)));
    }
    // The codings were applied in the order listed: undone last first.
    for coding in codings.iter().rev() {
        body = match decoder(coding, body) {
            Some(b) => b,
            None => {
                fetch.status = 0;
                return Ok(Some((fetch, false)));
            }
        };
    }
    let limit = if max_body == 0 { u64::MAX } else { max_body as u64 };
    match body.take(limit).read_to_end(&mut fetch.body) {
        Ok(_) => {
            // The body grew by doubling: give back what it will not use.
            fetch.body.shrink_to_fit();
            Ok(Some((fetch, true)))
        }
        Err(_) if !codings.is_empty() => {
            // Undecodable: a fetch that did not complete.
            fetch.status = 0;
            fetch.body = vec![];
            Ok(Some((fetch, false)))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// A reader undoing the content coding `coding` of `rdr`, or `None` for
/// a coding not known here. A gzip body without gzip's magic bytes is
/// taken as stored decoded already, as some archives do while keeping the
/// header.
fn decoder<'a>(
    coding: &[u8],
    rdr: Box<dyn BufRead + 'a>,
) -> Option<Box<dyn BufRead + 'a>> {
    use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};
    let (head, rdr) = peek(rdr, 2, |h| h.len() == 2).ok()?;
    Some(match coding {
        b"gzip" | b"x-gzip" => {
            if !head.starts_with(&[0x1f, 0x8b]) {
                return Some(rdr);
            }
            Box::new(BufReader::new(MultiGzDecoder::new(rdr)))
        }
        b"deflate" => {
            // RFC 9110 says zlib; some servers send a raw deflate stream.
            let zlib = head.len() == 2
                && head[0] & 0x0F == 8
                && (u16::from(head[0]) << 8 | u16::from(head[1])) % 31 == 0;
            if zlib {
                Box::new(BufReader::new(ZlibDecoder::new(rdr)))
            } else {
                Box::new(BufReader::new(DeflateDecoder::new(rdr)))
            }
        }
        b"zstd" => Box::new(BufReader::new(
            zstd::stream::read::Decoder::with_buffer(rdr).ok()?,
        )),
        b"br" => Box::new(BufReader::new(
            brotli_decompressor::Decompressor::new(rdr, 1 << 16),
        )),
        _ => return None,
    })
}

/// The first bytes of `rdr`, read until `done` says so, `max` bytes or
/// the end, and a reader of the whole stream again. A buffer may end
/// anywhere, so looking into it is no way to see a stream's first bytes.
fn peek<'a>(
    mut rdr: Box<dyn BufRead + 'a>,
    max: usize,
    done: impl Fn(&[u8]) -> bool,
) -> io::Result<(Vec<u8>, Box<dyn BufRead + 'a>)> {
    let mut head = vec![];
    let mut byte = [0];
    while head.len() < max && !done(&head) {
        match rdr.read(&mut byte) {
            Ok(0) => break,
            Ok(_) => head.push(byte[0]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let again = io::Cursor::new(head.clone()).chain(rdr);
    Ok((head, Box::new(again)))
}

/// Whether the first line of a body said to be chunked is a chunk size
/// (some archives store the body already decoded but keep the header).
fn is_chunk_size(line: &[u8]) -> bool {
    if !line.ends_with(b"\n") {
        return false;
    }
    let size = trim_eol(line);
    let hex = size.split(|&b| b == b';').next().unwrap_or(b"").trim_ascii();
    !hex.is_empty() && hex.len() <= 16 && hex.iter().all(u8::is_ascii_hexdigit)
}

/// The body of a chunked transfer coding, as a stream. A malformed chunk
/// ends it.
struct Chunked<R> {
    inner: R,
    /// Bytes left in the current chunk.
    left: u64,
    /// 0 before the first chunk, 1 between chunks, 2 at the end.
    state: u8,
}

impl<R: BufRead> Read for Chunked<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            if self.state == 2 {
                return Ok(0);
            }
            let mut line = vec![];
            if self.state == 1 {
                // The end of the chunk before.
                read_line(&mut self.inner, &mut line, 2)?;
            }
            let size = match read_line(&mut self.inner, &mut line, 1024)? {
                Line::Read => {
                    let l = trim_eol(&line);
                    let hex = l.split(|&b| b == b';').next().unwrap_or(b"");
                    std::str::from_utf8(hex.trim_ascii())
                        .ok()
                        .and_then(|h| u64::from_str_radix(h, 16).ok())
                }
                _ => None,
            };
            match size {
                Some(n) if n > 0 => {
                    self.left = n;
                    self.state = 1;
                }
                _ => {
                    self.state = 2;
                    return Ok(0);
                }
            }
        }
        let want =
            out.len().min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut out[..want])?;
        if n == 0 {
            self.state = 2;
        }
        self.left -= n as u64;
        Ok(n)
    }
}

fn split_header(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let colon = memchr::memchr(b':', line)?;
    Some((line[..colon].trim_ascii(), line[colon + 1..].trim_ascii()))
}

fn trim_eol(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WARC-Date for records whose date does not matter.
    const D: &str = "2024-01-02T00:00:00Z";

    fn record(kind: &str, uri: &str, date: &str, block: &[u8]) -> Vec<u8> {
        let mut r = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n\
             WARC-Date: {date}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        r.extend_from_slice(block);
        r.extend_from_slice(b"\r\n\r\n");
        r
    }

    fn all(bytes: &[u8]) -> Result<Vec<Option<(String, Fetch)>>, String> {
        let mut recs = WarcRecords::new(bytes, 0);
        let mut out = vec![];
        while let Some(r) = recs.next_record()? {
            out.push(r);
        }
        Ok(out)
    }

    #[test]
    fn responses_and_others() {
        let mut w = record("warcinfo", "", "2024-01-01T00:00:00Z", b"x: y");
        w.extend(record(
            "request",
            "https://a.com/robots.txt",
            "2024-01-01T00:00:00Z",
            b"GET /robots.txt HTTP/1.1\r\n\r\n",
        ));
        w.extend(record(
            "response",
            "<https://A.com/robots.txt>",
            "2024-01-02T00:00:00Z",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n\
              User-agent: *\nDisallow: /x\n",
        ));
        w.extend(record(
            "response",
            "http://b.com/robots.txt",
            "2024-01-03T00:00:00Z",
            b"HTTP/1.1 301 Moved\r\nLocation: https://b.com/robots.txt\r\n\r\n",
        ));
        w.extend(record(
            "response",
            "http://c.com/robots.txt",
            "2024-01-03T00:00:00Z",
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
              5\r\nUser-\r\n9;ext=1\r\nagent: *\n\r\n0\r\n\r\n",
        ));
        w.extend(record("response", "dns:a.com", "2024-01-01", b"1.2.3.4"));
        let recs = all(&w).unwrap();
        assert_eq!(recs.len(), 6);
        assert!(recs[0].is_none() && recs[1].is_none() && recs[5].is_none());
        let (o, f) = recs[2].clone().unwrap();
        assert_eq!(o, "https://A.com/robots.txt");
        assert_eq!(f.status, 200);
        assert_eq!(f.body, b"User-agent: *\nDisallow: /x\n");
        assert_eq!(f.date.as_deref(), Some("2024-01-02T00:00:00Z"));
        let (o, f) = recs[3].clone().unwrap();
        assert_eq!(o, "http://b.com/robots.txt");
        assert_eq!(f.status, 301);
        assert_eq!(f.location.as_deref(), Some("https://b.com/robots.txt"));
        let (_, f) = recs[4].clone().unwrap();
        assert_eq!(f.body, b"User-agent: *\n");
    }

    #[test]
    fn bodies_are_streamed_and_cut() {
        // Chunked in the header but stored decoded; a header line over the
        // limit is skipped; the body is cut at the limit.
        let mut block = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\
                          X-Big: "
            .to_vec();
        block.extend(std::iter::repeat_n(b'a', MAX_LINE * 3));
        block.extend_from_slice(b"\r\nLocation: /x\r\n\r\nUser-agent: *\n");
        let w = record("response", "http://a.com/robots.txt", D, &block);
        let mut recs = WarcRecords::new(&w[..], 10);
        let (_, f) = recs.next_record().unwrap().unwrap().unwrap();
        assert_eq!(f.body, b"User-agent");
        assert_eq!(f.location.as_deref(), Some("/x"));
        assert!(recs.next_record().unwrap().is_none());
        // A chunked body is cut as it is decoded.
        let w = record(
            "response",
            "http://a.com/robots.txt",
            D,
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
              4\r\nUser\r\n9\r\n-agent: *\r\n0\r\n\r\n",
        );
        let mut recs = WarcRecords::new(&w[..], 6);
        let (_, f) = recs.next_record().unwrap().unwrap().unwrap();
        assert_eq!(f.body, b"User-a");
    }

    #[test]
    fn first_bytes_are_seen_wherever_buffers_end() {
        let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
        std::io::Write::write_all(&mut gz, b"User-agent: *\n").unwrap();
        let gz = gz.finish().unwrap();
        let mut block =
            b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
        block.extend_from_slice(&gz);
        let mut w = record("response", "http://a.com/robots.txt", D, &block);
        w.extend(record(
            "response",
            "http://b.com/robots.txt",
            D,
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\
              4\r\nUser\r\na\r\n-agent: *\n\r\n0\r\n\r\n",
        ));
        for capacity in 1..40 {
            let rdr = io::BufReader::with_capacity(capacity, &w[..]);
            let mut recs = WarcRecords::new(rdr, 0);
            for _ in 0..2 {
                let (_, f) = recs.next_record().unwrap().unwrap().unwrap();
                assert_eq!(f.body, b"User-agent: *\n", "{capacity}");
            }
            assert_eq!(recs.undecodable(), 0);
        }
    }

    #[test]
    fn the_head_ends_at_its_own_first_blank_line() {
        // A head ended by LF alone, a body with CRLF blank lines: the body
        // starts after the head's blank line, not after the body's.
        let w = record(
            "response",
            "http://a.com/robots.txt",
            D,
            b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\n\n\
              User-agent: *\r\n\r\nUser-agent: b\r\nDisallow: /\r\n",
        );
        let mut recs = WarcRecords::new(&w[..], 0);
        let (_, f) = recs.next_record().unwrap().unwrap().unwrap();
        assert_eq!(
            f.body,
            b"User-agent: *\r\n\r\nUser-agent: b\r\nDisallow: /\r\n"
        );
    }

    #[test]
    fn headers_are_bounded() {
        // Lines each under the line limit, together over the header's.
        let mut w = b"WARC/1.0\r\n".to_vec();
        let line = format!("X-Pad: {}\r\n", "a".repeat(1000));
        while w.len() <= MAX_HEAD {
            w.extend_from_slice(line.as_bytes());
        }
        w.extend_from_slice(b"Content-Length: 0\r\n\r\n\r\n\r\n");
        let err = all(&w).unwrap_err();
        assert!(
            err.contains("WARC record 1 has a header over 1 MiB"),
            "{err}"
        );
        // Blank lines between records do not count.
        let mut w = b"\r\n".repeat(MAX_HEAD);
        w.extend(record("response", "dns:a", D, b"x"));
        assert_eq!(all(&w).unwrap().len(), 1);
    }

    #[test]
    fn lines_are_bounded() {
        let mut line = vec![];
        let mut rdr = &b"abcdef\nxy\n\nz"[..];
        assert_eq!(read_line(&mut rdr, &mut line, 3).unwrap(), Line::Long);
        assert_eq!(line, b"abc");
        assert_eq!(read_line(&mut rdr, &mut line, 3).unwrap(), Line::Read);
        assert_eq!(line, b"xy\n");
        assert_eq!(read_line(&mut rdr, &mut line, 3).unwrap(), Line::Read);
        assert_eq!(read_line(&mut rdr, &mut line, 3).unwrap(), Line::Read);
        assert_eq!(line, b"z");
        assert_eq!(read_line(&mut rdr, &mut line, 3).unwrap(), Line::End);
    }

    #[test]
    fn broken_records_are_errors() {
        let r = record(
            "response",
            "http://a.com/",
            D,
            b"HTTP/1.1 200 OK\r\n\r\nabc",
        );
        let truncated = &r[..r.len() - 6];
        assert!(all(truncated).unwrap_err().contains("truncated"));
        assert!(all(b"HTTP/1.1 200 OK\r\n").unwrap_err().contains("WARC/"));
        let no_len = b"WARC/1.0\r\nWARC-Type: response\r\n\r\n";
        assert!(all(no_len).unwrap_err().contains("Content-Length"));
        assert!(all(b"WARC/1.0\r\nWARC-Type: x\r\n")
            .unwrap_err()
            .contains("header"));
        assert!(all(b"").unwrap().is_empty());
    }
}
