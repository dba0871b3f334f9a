//! Sitemaps read line by line: a text sitemap (each line that is not
//! blank one URL) and an llms.txt (the targets of its Markdown links,
//! outside fenced code blocks). A line is read up to the event limit; the
//! rest of a longer one is skipped, and its entry is bad.

use std::collections::VecDeque;
use std::io::{self, BufRead};

use super::entry::{check_url, Entry, EntryKind, Problem, SitemapOptions};

/// The entries of a text sitemap or an llms.txt.
pub(super) struct LineEntries<'r> {
    rdr: Box<dyn BufRead + 'r>,
    file: String,
    llms: bool,
    /// The origin relative links are made absolute against, without a
    /// last `/`.
    origin: Option<String>,
    max: usize,
    line: u64,
    buf: Vec<u8>,
    /// An llms.txt line's links not yet handed out.
    queue: VecDeque<Entry>,
    /// Inside a fenced code block (llms.txt).
    fenced: bool,
}

impl<'r> LineEntries<'r> {
    pub(super) fn new(
        rdr: Box<dyn BufRead + 'r>,
        file: &str,
        llms: bool,
        options: &SitemapOptions,
    ) -> LineEntries<'r> {
        let origin = options
            .origin
            .as_ref()
            .map(|o| o.trim_end_matches('/').to_string());
        LineEntries {
            rdr,
            file: file.to_string(),
            llms,
            origin,
            max: options.max_event_bytes,
            line: 0,
            buf: vec![],
            queue: VecDeque::new(),
            fenced: false,
        }
    }

    /// Reads the next line into `buf` (without its end), keeping at most
    /// `max` bytes; `None` at the end, else whether it was cut.
    fn read_line(&mut self) -> io::Result<Option<bool>> {
        self.buf.clear();
        let (mut cut, mut any) = (false, false);
        loop {
            let avail = match self.rdr.fill_buf() {
                Ok(avail) => avail,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                break;
            }
            any = true;
            let (n, done) = match memchr::memchr(b'\n', avail) {
                Some(i) => (i + 1, true),
                None => (avail.len(), false),
            };
            let room = self.max.saturating_sub(self.buf.len());
            let body = if done { n - 1 } else { n };
            cut |= body > room;
            self.buf.extend_from_slice(&avail[..body.min(room)]);
            self.rdr.consume(n);
            if done {
                break;
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.buf.drain(..3);
        }
        Ok(Some(cut))
    }

    pub(super) fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        loop {
            if let Some(entry) = self.queue.pop_front() {
                return Ok(Some(entry));
            }
            let Some(cut) = self.read_line()? else { return Ok(None) };
            let text = String::from_utf8_lossy(&self.buf).into_owned();
            let text = text.trim();
            if cut {
                self.push(String::new(), Some(Problem::TooLong));
            } else if self.llms {
                if text.starts_with("```") || text.starts_with("~~~") {
                    self.fenced = !self.fenced;
                    continue;
                }
                if !self.fenced {
                    for target in links(text) {
                        let url = self.absolute(target);
                        let problem = match url.starts_with('/') {
                            true => url
                                .bytes()
                                .any(|b| b <= b' ' || b == 0x7f)
                                .then_some(Problem::Space),
                            false => check_url(&url),
                        };
                        self.push(url, problem);
                    }
                }
            } else if !text.is_empty() {
                let problem = check_url(text);
                self.push(text.to_string(), problem);
            }
        }
    }

    fn push(&mut self, url: String, problem: Option<Problem>) {
        self.queue.push_back(Entry {
            url,
            file: self.file.clone(),
            line: self.line,
            lastmod: None,
            kind: EntryKind::Url,
            problem,
        });
    }

    /// A link's target made absolute against the origin (the llms.txt is
    /// at its root); without an origin, a path from the root.
    fn absolute(&self, target: &str) -> String {
        if has_scheme(target) {
            return target.to_string();
        }
        let origin = self.origin.as_deref();
        if let Some(rest) = target.strip_prefix("//") {
            let scheme = origin
                .and_then(|o| o.split_once("://"))
                .map_or("https", |(s, _)| s);
            return format!("{scheme}://{rest}");
        }
        let path = match target.strip_prefix("./") {
            Some(rest) => format!("/{rest}"),
            None if target.starts_with('/') => target.to_string(),
            None => format!("/{target}"),
        };
        format!("{}{path}", origin.unwrap_or(""))
    }
}

/// Whether `target` starts with a URL scheme (`https:`, `mailto:`).
fn has_scheme(target: &str) -> bool {
    let Some(colon) = target.find(':') else { return false };
    let scheme = &target[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// The targets of the Markdown links of `line` (`[text](target "title")`,
/// images too), in order; a target that is only a fragment (`#intro`)
/// points into the file itself and is left out.
pub(super) fn links(line: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        // The target runs to the `)` that balances its `(`.
        let mut depth = 0usize;
        let mut end = None;
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    end = Some(k);
                    break;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let inside = after[..end].trim();
        let target = match inside.strip_prefix('<') {
            Some(angled) => angled.split('>').next().unwrap_or(""),
            None => inside.split_whitespace().next().unwrap_or(""),
        };
        if !target.is_empty() && !target.starts_with('#') {
            out.push(target);
        }
        rest = &after[end + 1..];
    }
    out
}
