//! A reader of JSON Lines indexes of robots.txt fetches that streams each
//! line: of a body only what the parse limit will use is kept, the rest of
//! it is read past, so that a line of any length costs bounded memory.
//!
//! N.B. serde_json holds a whole string (and `Value` the whole line) in
//! memory; only one object level with a few known keys is needed here, so
//! the reading is written out.

use crate::time::Timestamp;
use std::io::{self, BufRead};

use super::fetch::Fetch;

/// The longest `url`, `location` or `date` value: no URL a robots.txt
/// fetch needs comes near it.
const MAX_FIELD: usize = 64 << 10;

/// One line of an index, or why it is not one.
pub(crate) enum Line {
    /// The URL fetched and its fetch.
    Fetch(String, Fetch),
    /// The line is malformed: why.
    Bad(String),
}

/// The records of one index stream.
pub(crate) struct Index<R> {
    rdr: R,
    /// The 1-based number of the line being read.
    line: u64,
    /// The most bytes of a body kept (0: all).
    max_body: usize,
}

/// A value of the top-level object, as far as it matters here.
enum Value {
    /// A string: its first bytes, and whether it was longer.
    Str(Vec<u8>, bool),
    /// A number, `true`, `false` or `null`, as written (cut short).
    Scalar(String),
    /// An object or array.
    Nested,
}

/// A syntax error (the line's number is added by the caller), or a read
/// error.
enum Error {
    Syntax(String),
    Io(io::Error),
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::Io(e)
    }
}

fn syntax<T>(what: &str) -> Result<T, Error> {
    Err(Error::Syntax(format!("not a JSON object: {what}")))
}

impl<R: BufRead> Index<R> {
    pub(crate) fn new(rdr: R, max_body: usize) -> Index<R> {
        Index { rdr, line: 1, max_body }
    }

    /// The next non-blank line and its number: `None` at the end. After a
    /// `Line::Bad`, the reading cannot go on.
    pub(crate) fn next_line(&mut self) -> io::Result<Option<(u64, Line)>> {
        // Blank lines are skipped.
        loop {
            match self.peek()? {
                None => return Ok(None),
                Some(b'\n') => {
                    self.rdr.consume(1);
                    self.line += 1;
                }
                Some(b' ' | b'\t' | b'\r') => self.rdr.consume(1),
                Some(_) => break,
            }
        }
        let number = self.line;
        match self.object() {
            Ok(line) => Ok(Some((number, line))),
            Err(Error::Syntax(msg)) => Ok(Some((number, Line::Bad(msg)))),
            Err(Error::Io(e)) => Err(e),
        }
    }

    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.rdr.fill_buf() {
                Ok(b) => return Ok(b.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn next(&mut self) -> Result<u8, Error> {
        match self.peek()? {
            Some(b'\n') | None => syntax("the line ends inside it"),
            Some(b) => {
                self.rdr.consume(1);
                Ok(b)
            }
        }
    }

    /// The next byte after spaces and tabs (a line end is an error).
    fn token(&mut self) -> Result<u8, Error> {
        loop {
            match self.next()? {
                b' ' | b'\t' | b'\r' => {}
                b => return Ok(b),
            }
        }
    }

    /// One object, to the end of its line.
    fn object(&mut self) -> Result<Line, Error> {
        if self.token()? != b'{' {
            return syntax("does not start with {");
        }
        let mut fields: [Option<Value>; 6] = Default::default();
        const KEYS: [&[u8]; 6] =
            [b"url", b"status", b"body", b"body_base64", b"location", b"date"];
        let mut b = self.token()?;
        if b != b'}' {
            loop {
                if b != b'"' {
                    return syntax("a key is not a string");
                }
                let (key, _) = self.string(32)?;
                if self.token()? != b':' {
                    return syntax("no : after a key");
                }
                let slot = KEYS.iter().position(|k| **k == *key);
                let cap = match slot {
                    Some(2) => self.max_body,
                    // Base64 takes 4 bytes for 3, in whole groups.
                    Some(3) => self.max_body.div_ceil(3).saturating_mul(4),
                    _ => MAX_FIELD,
                };
                let value = self.value(cap)?;
                if let Some(i) = slot {
                    fields[i] = Some(value);
                }
                match self.token()? {
                    b',' => b = self.token()?,
                    b'}' => break,
                    _ => return syntax("no , or } after a value"),
                }
            }
        }
        // Only white space may follow, to the end of the line.
        loop {
            match self.peek()? {
                None => break,
                Some(b'\n') => {
                    self.rdr.consume(1);
                    self.line += 1;
                    break;
                }
                Some(b' ' | b'\t' | b'\r') => self.rdr.consume(1),
                Some(_) => return syntax("more after it on its line"),
            }
        }
        Ok(fetch(fields, self.max_body))
    }

    /// A value whose first byte is next; strings keep at most `cap`
    /// bytes (0: all).
    fn value(&mut self, cap: usize) -> Result<Value, Error> {
        match self.token()? {
            b'"' => {
                let (s, long) = self.string(cap)?;
                Ok(Value::Str(s, long))
            }
            open @ (b'{' | b'[') => {
                self.skip_nested(open)?;
                Ok(Value::Nested)
            }
            first => {
                let mut text = vec![first];
                while let Some(b) = self.peek()? {
                    if !(b.is_ascii_alphanumeric() || b"+-.".contains(&b)) {
                        break;
                    }
                    if text.len() < 32 {
                        text.push(b);
                    }
                    self.rdr.consume(1);
                }
                let text = String::from_utf8_lossy(&text).into_owned();
                let known = matches!(text.as_str(), "true" | "false" | "null")
                    || text.parse::<f64>().is_ok();
                if !known {
                    return syntax(&format!("{text:?} is no value"));
                }
                Ok(Value::Scalar(text))
            }
        }
    }

    /// Reads past an object or array whose opening byte was read.
    fn skip_nested(&mut self, open: u8) -> Result<(), Error> {
        let mut depth = vec![open];
        while let Some(&top) = depth.last() {
            match self.next()? {
                b'"' => {
                    self.string(1)?;
                }
                b @ (b'{' | b'[') => {
                    if depth.len() >= 128 {
                        return syntax("nested too deep");
                    }
                    depth.push(b);
                }
                b'}' if top == b'{' => {
                    depth.pop();
                }
                b']' if top == b'[' => {
                    depth.pop();
                }
                b'}' | b']' => return syntax("brackets do not match"),
                _ => {}
            }
        }
        Ok(())
    }

    /// The rest of a string whose opening quote was read, escapes undone:
    /// at most `cap` bytes of it (0: all), and whether there was more.
    fn string(&mut self, cap: usize) -> Result<(Vec<u8>, bool), Error> {
        let cap = if cap == 0 { usize::MAX } else { cap };
        let mut out = vec![];
        let mut long = false;
        loop {
            let buf = self.rdr.fill_buf()?;
            if buf.is_empty() {
                return syntax("the line ends inside a string");
            }
            let Some(i) = memchr::memchr3(b'"', b'\\', b'\n', buf) else {
                let n = buf.len();
                long |= push(&mut out, buf, cap);
                self.rdr.consume(n);
                continue;
            };
            long |= push(&mut out, &buf[..i], cap);
            let end = buf[i];
            self.rdr.consume(i + 1);
            match end {
                b'"' => return Ok((out, long)),
                b'\n' => {
                    self.line += 1;
                    return syntax("the line ends inside a string");
                }
                _ => {}
            }
            let mut utf8 = [0; 4];
            let unescaped: &[u8] = match self.next()? {
                b'"' => b"\"",
                b'\\' => b"\\",
                b'/' => b"/",
                b'b' => b"\x08",
                b'f' => b"\x0c",
                b'n' => b"\n",
                b'r' => b"\r",
                b't' => b"\t",
                b'u' => {
                    let c = self.unicode_escape()?;
                    c.encode_utf8(&mut utf8).as_bytes()
                }
                _ => return syntax("a string has a bad escape"),
            };
            long |= push(&mut out, unescaped, cap);
        }
    }

    /// The character of a `\uXXXX` escape whose `\u` was read (and of the
    /// low surrogate's escape after a high one).
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let high = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&high) {
            if self.next()? != b'\\' || self.next()? != b'u' {
                return syntax("a string has a lone surrogate");
            }
            let low = self.hex4()?;
            if !(0xDC00..0xE000).contains(&low) {
                return syntax("a string has a lone surrogate");
            }
            0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
        } else {
            high
        };
        match char::from_u32(code) {
            Some(c) => Ok(c),
            None => syntax("a string has a lone surrogate"),
        }
    }

    fn hex4(&mut self) -> Result<u32, Error> {
        let mut n = 0;
        for _ in 0..4 {
            let d = self.next()?;
            let Some(v) = (d as char).to_digit(16) else {
                return syntax("a string has a bad \\u escape");
            };
            n = n * 16 + v;
        }
        Ok(n)
    }
}

/// Appends what fits of `bytes` under `cap`; whether some did not.
fn push(out: &mut Vec<u8>, bytes: &[u8], cap: usize) -> bool {
    let room = cap - out.len();
    out.extend_from_slice(&bytes[..bytes.len().min(room)]);
    bytes.len() > room
}

/// The fetch of a line's fields (`url`, `status`, `body`, `body_base64`,
/// `location`, `date`), or why there is none.
fn fetch(fields: [Option<Value>; 6], max_body: usize) -> Line {
    match fetch_fields(fields, max_body) {
        Ok((url, fetch)) => Line::Fetch(url, fetch),
        Err(msg) => Line::Bad(msg),
    }
}

fn fetch_fields(
    fields: [Option<Value>; 6],
    max_body: usize,
) -> Result<(String, Fetch), String> {
    use base64::Engine as _;

    let [url, status, body, body_base64, location, date] = fields;

    let too_long =
        |name: &str| format!("\"{name}\" is over {MAX_FIELD} bytes");
    let url = match url {
        Some(Value::Str(_, true)) => return Err(too_long("url")),
        Some(Value::Str(u, false)) => String::from_utf8_lossy(&u).into_owned(),
        _ => return Err("no \"url\" string".to_string()),
    };
    let status = match status {
        None => 0,
        Some(Value::Scalar(s)) if s == "null" => 0,
        Some(Value::Scalar(s)) => {
            s.parse::<u16>().ok().filter(|&s| s < 1000).ok_or_else(|| {
                format!("\"status\" {s} is not an HTTP status")
            })?
        }
        Some(Value::Str(s, _)) => {
            let s = String::from_utf8_lossy(&s);
            return Err(format!("\"status\" {s:?} is not an HTTP status"));
        }
        Some(Value::Nested) => {
            return Err("\"status\" is not an HTTP status".to_string())
        }
    };
    let body = match (body, body_base64) {
        (Some(Value::Str(b, _)), None) => b,
        (Some(_), None) => return Err("\"body\" is not a string".to_string()),
        (None, Some(Value::Str(b, _))) => {
            let mut bytes = base64::engine::general_purpose::STANDARD
                .decode(&b)
                .map_err(|e| format!("\"body_base64\" is not base64: {e}"))?;
            if max_body > 0 {
                bytes.truncate(max_body);
            }
            bytes
        }
        (None, Some(_)) => {
            return Err("\"body_base64\" is not a string".to_string())
        }
        (None, None) => vec![],
        (Some(_), Some(_)) => {
            return Err("both \"body\" and \"body_base64\"".to_string())
        }
    };
    // The body grew by doubling: give back what it will not use.
    let mut body = body;
    body.shrink_to_fit();
    let location = match location {
        None => None,
        Some(Value::Scalar(s)) if s == "null" => None,
        Some(Value::Str(_, true)) => return Err(too_long("location")),
        Some(Value::Str(l, false)) => {
            Some(String::from_utf8_lossy(&l).into_owned())
        }
        _ => return Err("\"location\" is not a string".to_string()),
    };
    // A date is a capture's: one that cannot be read would misplace it.
    let date = match date {
        None => None,
        Some(Value::Scalar(s)) if s == "null" => None,
        Some(Value::Str(d, false)) => {
            let d = String::from_utf8_lossy(&d).into_owned();
            match Timestamp::parse(&d) {
                Some(_) => Some(d),
                None => return Err(format!("\"date\" {d:?} is not a date")),
            }
        }
        Some(Value::Scalar(s)) if Timestamp::parse(&s).is_some() => Some(s),
        Some(Value::Str(_, true)) => return Err(too_long("date")),
        Some(_) => {
            return Err("\"date\" is not a date (RFC 3339, a 14-digit timestamp or seconds)".to_string())
        }
    };
    Ok((url, Fetch { status, body, location, date }))
}
