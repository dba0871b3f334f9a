//! A reader of WARC files (ISO 28500) just deep enough for robots.txt
//! captures: the response records' target URI and date, and the HTTP
//! status, `Location` and body of the response they hold.
//!
//! N.B. No maintained WARC crate reads records from any `BufRead` without
//! pulling in its own gzip and I/O choices, and the subset needed here is
//! small, so it is written out.

use std::io::{self, BufRead, Read};

use super::origin::Origin;
use super::source::Fetch;

/// Response records bigger than this are skipped unread: no robots.txt
/// is anywhere near it (crawlers stop at 500 KiB).
const MAX_BLOCK: u64 = 64 << 20;

/// The records of one WARC stream.
pub(crate) struct Records<R> {
    rdr: R,
    /// The 1-based number of the record being read, for messages.
    number: u64,
    line: Vec<u8>,
}

impl<R: BufRead> Records<R> {
    pub(crate) fn new(rdr: R) -> Records<R> {
        Records { rdr, number: 0, line: vec![] }
    }

    /// The next record: `None` at the end, `Some(None)` for a record that
    /// is not an HTTP(S) response (a request, metadata, a non-HTTP
    /// target), else the fetch it holds.
    pub(crate) fn next_record(
        &mut self,
    ) -> Result<Option<Option<(String, Fetch)>>, String> {
        // Records are separated by two CRLFs; skip any blank lines.
        loop {
            self.line.clear();
            let n = self.read_line()?;
            if n == 0 {
                return Ok(None);
            }
            if !trim_eol(&self.line).is_empty() {
                break;
            }
        }
        self.number += 1;
        if !self.line.starts_with(b"WARC/") {
            return Err(self.err("does not start with a WARC/ version line"));
        }
        let mut kind = None;
        let mut target = None;
        let mut date = None;
        let mut length = None;
        loop {
            self.line.clear();
            if self.read_line()? == 0 {
                return Err(self.err("ends inside its header"));
            }
            let line = trim_eol(&self.line);
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = split_header(line) else { continue };
            let value = String::from_utf8_lossy(value).into_owned();
            if name.eq_ignore_ascii_case(b"WARC-Type") {
                kind = Some(value);
            } else if name.eq_ignore_ascii_case(b"WARC-Target-URI") {
                // WARC 1.1 examples put the URI in angle brackets.
                let v = value.trim_start_matches('<').trim_end_matches('>');
                target = Some(v.to_string());
            } else if name.eq_ignore_ascii_case(b"WARC-Date") {
                date = Some(value);
            } else if name.eq_ignore_ascii_case(b"Content-Length") {
                let n = value.parse::<u64>().map_err(|_| {
                    self.err(&format!("has a bad Content-Length {value:?}"))
                })?;
                length = Some(n);
            }
        }
        let length =
            length.ok_or_else(|| self.err("has no Content-Length"))?;
        let origin =
            target.as_deref().and_then(|t| Origin::of_url(t.as_bytes()));
        let wanted = kind.as_deref() == Some("response") && origin.is_some();
        if !wanted || length > MAX_BLOCK {
            let skipped =
                io::copy(&mut (&mut self.rdr).take(length), &mut io::sink())
                    .map_err(|e| self.err(&e.to_string()))?;
            if skipped < length {
                return Err(self.err("is truncated"));
            }
            return Ok(Some(None));
        }
        let mut block = Vec::with_capacity(length as usize);
        (&mut self.rdr)
            .take(length)
            .read_to_end(&mut block)
            .map_err(|e| self.err(&e.to_string()))?;
        if (block.len() as u64) < length {
            return Err(self.err("is truncated"));
        }
        let Some(mut fetch) = http_response(&block) else {
            return Ok(Some(None));
        };
        fetch.date = date;
        Ok(Some(target.filter(|_| origin.is_some()).map(|t| (t, fetch))))
    }

    fn read_line(&mut self) -> Result<usize, String> {
        self.rdr
            .read_until(b'\n', &mut self.line)
            .map_err(|e| format!("record {}: {e}", self.number + 1))
    }

    fn err(&self, what: &str) -> String {
        format!("WARC record {} {what}", self.number)
    }
}

/// Status, `Location` and body of an HTTP/1.x response; `None` if the block
/// is not one.
fn http_response(block: &[u8]) -> Option<Fetch> {
    let (head, body) = match memchr::memmem::find(block, b"\r\n\r\n") {
        Some(i) => (&block[..i], &block[i + 4..]),
        None => match memchr::memmem::find(block, b"\n\n") {
            Some(i) => (&block[..i], &block[i + 2..]),
            None => (block, &b""[..]),
        },
    };
    let mut lines = head.split(|&b| b == b'\n').map(trim_eol);
    let status_line = lines.next()?;
    if !status_line.starts_with(b"HTTP/") {
        return None;
    }
    let mut words =
        status_line.split(|&b| b == b' ').filter(|w| !w.is_empty());
    words.next();
    let code = words.next()?;
    let status = std::str::from_utf8(code).ok()?.parse::<u16>().ok()?;
    let mut location = None;
    let mut chunked = false;
    for line in lines {
        let Some((name, value)) = split_header(line) else { continue };
        if name.eq_ignore_ascii_case(b"Location") {
            location = Some(String::from_utf8_lossy(value).into_owned());
        } else if name.eq_ignore_ascii_case(b"Transfer-Encoding") {
            chunked = value.eq_ignore_ascii_case(b"chunked");
        }
    }
    let body = match chunked.then(|| dechunk(body)).flatten() {
        Some(b) => b,
        None => body.to_vec(),
    };
    Some(Fetch { status, body, location, date: None })
}

/// The body of a chunked transfer coding, or `None` if it is not one (some
/// archives store the body already decoded but keep the header).
fn dechunk(mut body: &[u8]) -> Option<Vec<u8>> {
    let mut out = vec![];
    loop {
        let eol = memchr::memchr(b'\n', body)?;
        let size_line = trim_eol(&body[..=eol]);
        let hex = size_line.split(|&b| b == b';').next()?;
        let hex = std::str::from_utf8(hex).ok()?.trim();
        let size = usize::from_str_radix(hex, 16).ok()?;
        body = &body[eol + 1..];
        if size == 0 {
            return Some(out);
        }
        out.extend_from_slice(body.get(..size)?);
        body = &body[size..];
        body =
            body.strip_prefix(b"\r\n").or_else(|| body.strip_prefix(b"\n"))?;
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
        let mut recs = Records::new(bytes);
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
    fn broken_records_are_errors() {
        let r = record(
            "response",
            "http://a.com/",
            "d",
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
