//! XML sitemaps, read event by event with quick-xml: every `<url>` of a
//! `urlset` (or `<sitemap>` of a `sitemapindex`) an entry, its `<loc>` and
//! `<lastmod>` taken from the children of the entry itself (an image
//! extension's `<image:loc>`, deeper down, is not the page's).
//!
//! quick-xml never expands entities, and reports each reference as an
//! event of its own: XML's five and character references are resolved
//! here, any other makes the entry bad. What it buffers for one event is
//! bounded by [`Counted`], which sits between it and the input.

use std::io::{self, BufRead};

use quick_xml::events::Event;
use quick_xml::Reader;

use super::entry::{check_url, invalid, Entry, EntryKind, Problem, MAX_DEPTH};

/// The input under quick-xml: counts the bytes and lines it consumes, and
/// bounds the bytes of one event (see [`Counted::fill_buf`]).
struct Counted<'r> {
    inner: Box<dyn BufRead + 'r>,
    /// Bytes consumed.
    offset: u64,
    /// Line ends consumed.
    lines: u64,
    /// Where the current event started.
    event_start: u64,
    /// The current event's first byte (`<` for markup), once seen.
    first: Option<u8>,
    max_event: u64,
    /// The current event is a text cut at the limit.
    cut: bool,
}

impl Counted<'_> {
    /// A new event starts at the next byte.
    fn new_event(&mut self) {
        self.event_start = self.offset;
        self.first = None;
        self.cut = false;
    }

    /// Consumes the rest of a text too long to read whole, up to the next
    /// `<`, without handing it to the parser.
    fn skip_text(&mut self) -> io::Result<()> {
        loop {
            let buf = self.inner.fill_buf()?;
            if buf.is_empty() {
                return Ok(());
            }
            let (n, done) = match memchr::memchr(b'<', buf) {
                Some(i) => (i, true),
                None => (buf.len(), false),
            };
            self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
            self.offset += n as u64;
            self.inner.consume(n);
            if done {
                return Ok(());
            }
        }
    }
}

impl Counted<'_> {
    /// Whether the event just read took more than the limit (its bytes
    /// came in one buffer, so the reads did not see it).
    fn overlong(&self) -> bool {
        self.offset - self.event_start > self.max_event
    }
}

impl io::Read for Counted<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let buf = self.fill_buf()?;
            let n = buf.len().min(out.len());
            out[..n].copy_from_slice(&buf[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Counted<'_> {
    /// The input's bytes, unless the current event has grown past the
    /// limit: then a text is skipped to its end (and marked as cut), and
    /// markup is an error.
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.offset - self.event_start > self.max_event && !self.cut {
            if self.first == Some(b'<') {
                return Err(invalid(format!(
                    "a tag, comment or DTD longer than {} bytes, from byte \
                     offset {}: not a sitemap",
                    self.max_event, self.event_start
                )));
            }
            self.cut = true;
            self.skip_text()?;
        }
        let buf = self.inner.fill_buf()?;
        if self.first.is_none() {
            self.first = buf.first().copied();
        }
        Ok(buf)
    }

    fn consume(&mut self, n: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let n = n.min(buf.len());
            self.lines += memchr::memchr_iter(b'\n', &buf[..n]).count() as u64;
        }
        self.offset += n as u64;
        self.inner.consume(n);
    }
}

/// The longest element name compared with a sitemap's own.
const NAME_BYTES: usize = 16;

/// `name` in lower case, in `buf`; a longer name than the buffer holds
/// as it is (it is none of a sitemap's).
fn lowered<'a>(name: &'a [u8], buf: &'a mut [u8; NAME_BYTES]) -> &'a [u8] {
    match buf.get_mut(..name.len()) {
        Some(lower) => {
            lower.copy_from_slice(name);
            lower.make_ascii_lowercase();
            lower
        }
        None => name,
    }
}

/// Which text of the entry is being read.
#[derive(Clone, Copy, Debug, Eq, PartialEq)]
enum Field {
    None,
    Loc,
    Lastmod,
}

/// The entry being read: its `<loc>` and `<lastmod>` so far.
#[derive(Debug, Default)]
struct Pending {
    loc: Option<String>,
    line: u64,
    lastmod: Option<String>,
    problem: Option<Problem>,
}

/// The entries of an XML sitemap.
pub(super) struct XmlEntries<'r> {
    reader: Reader<Counted<'r>>,
    file: String,
    buf: Vec<u8>,
    max_event: usize,
    depth: usize,
    /// The root's entries: pages' URLs or child sitemaps.
    kind: Option<EntryKind>,
    /// The entry being read (at depth 2), if one is.
    pending: Option<Pending>,
    field: Field,
    ended: bool,
}

impl<'r> XmlEntries<'r> {
    pub(super) fn new(
        rdr: Box<dyn BufRead + 'r>,
        file: &str,
        max_event: usize,
    ) -> XmlEntries<'r> {
        let counted = Counted {
            inner: rdr,
            offset: 0,
            lines: 0,
            event_start: 0,
            first: None,
            max_event: max_event as u64,
            cut: false,
        };
        let mut reader = Reader::from_reader(counted);
        // Texts are trimmed here, where a `<loc>`'s pieces are joined.
        reader.config_mut().trim_text(false);
        XmlEntries {
            reader,
            file: file.to_string(),
            buf: vec![],
            max_event,
            depth: 0,
            kind: None,
            pending: None,
            field: Field::None,
            ended: false,
        }
    }

    /// An error at the current event, with its byte offset.
    fn error(&self, what: String) -> io::Error {
        let at = self.reader.get_ref().event_start;
        invalid(format!("{}: {what} at byte offset {at}", self.file))
    }

    pub(super) fn next_entry(&mut self) -> io::Result<Option<Entry>> {
        while !self.ended {
            self.reader.get_mut().new_event();
            // The buffer is taken out while its event is looked at, so
            // that no event is copied.
            let mut buf = std::mem::take(&mut self.buf);
            buf.clear();
            let event = match self.reader.read_event_into(&mut buf) {
                Ok(event) => event,
                Err(quick_xml::Error::Io(err)) => {
                    self.ended = true;
                    let err = io::Error::new(err.kind(), err.to_string());
                    return Err(match err.kind() {
                        io::ErrorKind::InvalidData => {
                            invalid(format!("{}: {}", self.file, err))
                        }
                        _ => err,
                    });
                }
                Err(err) => {
                    self.ended = true;
                    let at = self.reader.error_position();
                    return Err(invalid(format!(
                        "{}: malformed XML at byte offset {at}: {err}",
                        self.file
                    )));
                }
            };
            let counted = self.reader.get_mut();
            if counted.overlong() {
                if counted.first == Some(b'<') {
                    self.ended = true;
                    return Err(invalid(format!(
                        "{}: a tag, comment or DTD longer than {} bytes, from \
                         byte offset {}: not a sitemap",
                        self.file, self.max_event, counted.event_start
                    )));
                }
                counted.cut = true;
            }
            let entry = self.event(event);
            self.buf = buf;
            if let Some(entry) = entry? {
                return Ok(Some(entry));
            }
        }
        Ok(None)
    }

    /// Takes in one event; the entry it ends, if it ends one.
    fn event(&mut self, event: Event<'_>) -> io::Result<Option<Entry>> {
        match event {
            Event::Start(start) => {
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    self.ended = true;
                    return Err(self.error(format!(
                        "elements nested more than {MAX_DEPTH} deep"
                    )));
                }
                let mut lower = [0u8; NAME_BYTES];
                let name = start.local_name();
                self.open(lowered(name.as_ref().as_bytes(), &mut lower))?;
            }
            Event::Empty(start) => {
                let mut lower = [0u8; NAME_BYTES];
                self.depth += 1;
                let name = start.local_name();
                self.open(lowered(name.as_ref().as_bytes(), &mut lower))?;
                return self.close();
            }
            Event::End(_) => return self.close(),
            Event::Text(text) => {
                let cut = self.reader.get_ref().cut;
                self.text(&text.xml10_content(), cut);
            }
            Event::CData(data) => {
                let data = data.xml10_content().into_owned();
                self.text(&data, false);
            }
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => Some(c),
                    Ok(None) => match &*r.xml10_content() {
                        "amp" => Some('&'),
                        "lt" => Some('<'),
                        "gt" => Some('>'),
                        "quot" => Some('"'),
                        "apos" => Some('\''),
                        _ => None,
                    },
                    Err(_) => None,
                };
                match resolved {
                    Some(c) => self.text(c.encode_utf8(&mut [0; 4]), false),
                    None => self.problem(Problem::Entity),
                }
            }
            Event::Eof => {
                self.ended = true;
                if self.depth > 0 {
                    return Err(self.error(
                        "the XML ends inside an element (truncated?)"
                            .to_string(),
                    ));
                }
                if self.kind.is_none() {
                    return Err(self.error(
                        "no <urlset> or <sitemapindex> before the end"
                            .to_string(),
                    ));
                }
            }
            Event::Comment(_)
            | Event::Decl(_)
            | Event::PI(_)
            | Event::DocType(_) => {}
        }
        Ok(None)
    }

    /// An element named `name` opens (at `self.depth`).
    fn open(&mut self, name: &[u8]) -> io::Result<()> {
        match self.depth {
            1 => {
                if self.kind.is_some() {
                    self.ended = true;
                    return Err(self.error(
                        "a second root element after the sitemap's"
                            .to_string(),
                    ));
                }
                self.kind = Some(match name {
                    b"urlset" => EntryKind::Url,
                    b"sitemapindex" => EntryKind::Sitemap,
                    b"html" => {
                        self.ended = true;
                        return Err(self.error(
                            "an HTML page, not a sitemap (<html>)".to_string(),
                        ));
                    }
                    other => {
                        self.ended = true;
                        return Err(self.error(format!(
                            "root element <{}>, not <urlset> or \
                             <sitemapindex>: not a sitemap",
                            String::from_utf8_lossy(other)
                        )));
                    }
                });
            }
            2 => {
                let wanted = match self.kind {
                    Some(EntryKind::Url) => &b"url"[..],
                    _ => b"sitemap",
                };
                if name == wanted {
                    self.pending = Some(Pending::default());
                }
            }
            3 => {
                let line = self.reader.get_ref().lines + 1;
                let Some(pending) = self.pending.as_mut() else {
                    return Ok(());
                };
                self.field = match name {
                    b"loc" if pending.loc.is_none() => {
                        pending.loc = Some(String::new());
                        pending.line = line;
                        Field::Loc
                    }
                    b"lastmod" if pending.lastmod.is_none() => {
                        pending.lastmod = Some(String::new());
                        Field::Lastmod
                    }
                    _ => Field::None,
                };
            }
            _ => {}
        }
        Ok(())
    }

    /// The element at `self.depth` closes; at depth 2, its entry is done.
    fn close(&mut self) -> io::Result<Option<Entry>> {
        let depth = self.depth;
        self.depth = depth.saturating_sub(1);
        match depth {
            3 => self.field = Field::None,
            2 => {
                let Some(p) = self.pending.take() else { return Ok(None) };
                let url = p.loc.as_deref().unwrap_or("").trim().to_string();
                let problem = p.problem.or(match p.loc {
                    None => Some(Problem::NoLoc),
                    Some(_) => check_url(&url),
                });
                let url = match problem {
                    Some(Problem::TooLong) => String::new(),
                    _ => url,
                };
                let line = match p.line {
                    0 => self.reader.get_ref().lines + 1,
                    n => n,
                };
                return Ok(Some(Entry {
                    url,
                    file: self.file.clone(),
                    line,
                    lastmod: p.lastmod.map(|l| l.trim().to_string()),
                    kind: self.kind.unwrap_or(EntryKind::Url),
                    problem,
                }));
            }
            _ => {}
        }
        Ok(None)
    }

    /// Text inside the current field (`cut`: the text was too long).
    fn text(&mut self, text: &str, cut: bool) {
        let max = self.max_event;
        let Some(p) = self.pending.as_mut() else { return };
        let target = match self.field {
            Field::Loc => p.loc.as_mut(),
            Field::Lastmod => p.lastmod.as_mut(),
            Field::None => None,
        };
        let Some(target) = target else { return };
        if self.field == Field::Loc && p.problem == Some(Problem::TooLong) {
            return;
        }
        if cut || target.len() + text.len() > max {
            // Many short pieces add up too: the text is bounded as a
            // whole.
            if self.field == Field::Loc {
                p.problem.get_or_insert(Problem::TooLong);
            }
            target.clear();
            return;
        }
        target.push_str(text);
    }

    /// The entry being read is bad, if it is in a field.
    fn problem(&mut self, problem: Problem) {
        if self.field != Field::Loc {
            return;
        }
        if let Some(p) = self.pending.as_mut() {
            p.problem.get_or_insert(problem);
        }
    }
}
