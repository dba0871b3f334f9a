//! What a file looks like from its first bytes, to warn when it is not what
//! it was given as: an HTML page or binary bytes served as a robots.txt, a
//! robots.txt given where URLs were expected. Each guess reads at most the
//! first [`SNIFF_BYTES`] bytes and never changes a verdict.

/// How many leading bytes the guesses look at.
pub const SNIFF_BYTES: usize = 4096;

/// Reads up to `buf.len()` bytes, fewer only at the end of the input:
/// what is sniffed must not depend on how a pipe cuts its reads (one may
/// hand over a single byte).
pub fn read_head<R: std::io::Read + ?Sized>(
    rdr: &mut R,
    buf: &mut [u8],
) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match rdr.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(err) if err.kind() == std::io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(n)
}

/// True when `bytes` start like an HTML page (an error page served with
/// status 200, say) rather than a robots.txt.
///
/// ```
/// use robots_batch::sniff;
///
/// assert!(sniff::looks_like_html(b"\n<!DOCTYPE html><title>404</title>"));
/// assert!(!sniff::looks_like_html(b"User-agent: *\nDisallow: /<html>\n"));
/// ```
pub fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let Some(start) = head.iter().position(|b| !b.is_ascii_whitespace())
    else {
        return false;
    };
    let head = head[start..].to_ascii_lowercase();
    head.starts_with(b"<!doctype html")
        || head.starts_with(b"<html")
        || (head.starts_with(b"<")
            && memchr::memmem::find(&head, b"<html").is_some())
}

/// True when `bytes` start like binary data rather than text: a NUL byte,
/// or more than one control byte in ten (tabs, line ends and form feeds
/// apart) among the first [`SNIFF_BYTES`].
///
/// ```
/// use robots_batch::sniff;
///
/// assert!(sniff::looks_binary(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"));
/// assert!(!sniff::looks_binary("User-agent: *\r\nDisallow: /café\n".as_bytes()));
/// ```
pub fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    if memchr::memchr(0, head).is_some() {
        return true;
    }
    let control = head
        .iter()
        .filter(|&&b| {
            (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0b | 0x0c))
                || b == 0x7f
        })
        .count();
    control * 10 > head.len()
}

/// True when `bytes` start like a robots.txt rather than a list of URLs:
/// among the first [`SNIFF_BYTES`], a `User-agent` line, and at least two
/// lines in three (empty lines and comments apart) robots.txt records
/// (`User-agent`, `Allow`, `Disallow`, `Sitemap`, `Crawl-delay`).
///
/// ```
/// use robots_batch::sniff;
///
/// let robots = b"# robots.txt for example.com\nUser-agent: *\nDisallow: /x\n";
/// assert!(sniff::looks_like_robots_txt(robots));
/// let urls = b"https://example.com/user-agent:x\n/disallow:\n/a\n";
/// assert!(!sniff::looks_like_robots_txt(urls));
/// ```
pub fn looks_like_robots_txt(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let (mut lines, mut records, mut agents) = (0, 0, 0);
    for line in head.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        if line.is_empty() || line.starts_with(b"#") {
            continue;
        }
        lines += 1;
        let Some(colon) = memchr::memchr(b':', line) else { continue };
        let key = line[..colon].trim_ascii().to_ascii_lowercase();
        match &key[..] {
            b"user-agent" => {
                agents += 1;
                records += 1;
            }
            b"allow" | b"disallow" | b"sitemap" | b"crawl-delay" => {
                records += 1;
            }
            _ => {}
        }
    }
    agents > 0 && records * 3 >= lines * 2
}

/// True when `bytes` start like an llms.txt (a Markdown file whose links
/// list a site's pages): a first line that is a level-one heading
/// (`# Name`), and a Markdown link (`](`) among the first [`SNIFF_BYTES`].
///
/// ```
/// use robots_batch::sniff;
///
/// assert!(sniff::looks_like_llms_txt(b"# Docs\n\n- [Intro](/intro.md)\n"));
/// assert!(!sniff::looks_like_llms_txt(b"https://example.com/#\n"));
/// ```
pub fn looks_like_llms_txt(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = head_lines(head).next().unwrap_or(b"");
    first.starts_with(b"# ") && memchr::memmem::find(head, b"](").is_some()
}

/// The complete lines of `bytes` (the last one dropped when the head was
/// cut inside it), trimmed, without empty ones.
fn head_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> + Clone {
    let end = match bytes.len() {
        n if n < SNIFF_BYTES => n,
        _ => memchr::memrchr(b'\n', bytes).map_or(0, |i| i + 1),
    };
    bytes[..end]
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|line| !line.is_empty())
}

/// True when `bytes` start like a web server access log (the common or
/// combined log format: `host ident user [date] "request" ...`) rather
/// than a list of URLs: two lines in three, of at least one.
///
/// ```
/// use robots_batch::sniff;
///
/// let log = br#"1.2.3.4 - - [10/Oct/2024:13:55:36 +0000] "GET /a HTTP/1.1" 200 5 "-" "CCBot/2.0""#;
/// assert!(sniff::looks_like_access_log(log));
/// assert!(!sniff::looks_like_access_log(b"https://example.com/[a] \"b\"\n"));
/// ```
pub fn looks_like_access_log(bytes: &[u8]) -> bool {
    let (mut lines, mut logged) = (0, 0);
    for line in head_lines(bytes) {
        lines += 1;
        let Some(open) = memchr::memmem::find(line, b" [") else { continue };
        // `host ident user`, or with a virtual host in front of them.
        let before = &line[..open];
        let fields = before.split(|&b| b == b' ').count();
        let closed = memchr::memmem::find(&line[open..], b"] \"").is_some();
        if (3..=4).contains(&fields) && closed && !before.contains(&b'/') {
            logged += 1;
        }
    }
    lines > 0 && logged * 3 >= lines * 2
}

/// The delimiter (`,` or tab) when `bytes` start like CSV or TSV with a
/// header rather than a list of URLs: a first line that is no URL and
/// has the delimiter, and two lines in three after it with as many.
///
/// ```
/// use robots_batch::sniff;
///
/// assert_eq!(sniff::looks_like_csv(b"id,url\n1,https://a.com/\n2,/b\n"), Some(b','));
/// assert_eq!(sniff::looks_like_csv(b"https://a.com/x,y\nhttps://b.com/\n"), None);
/// ```
pub fn looks_like_csv(bytes: &[u8]) -> Option<u8> {
    let mut lines = head_lines(bytes);
    let header = lines.next()?;
    let url_like = memchr::memmem::find(header, b"://").is_some()
        || header.starts_with(b"/");
    if url_like {
        return None;
    }
    [b'\t', b','].into_iter().find(|&delimiter| {
        let count = |line: &[u8]| memchr::memchr_iter(delimiter, line).count();
        let fields = count(header);
        let (mut rows, mut alike) = (0, 0);
        for line in lines.clone() {
            rows += 1;
            alike += usize::from(count(line) == fields);
        }
        fields > 0 && rows > 0 && alike * 3 >= rows * 2
    })
}

/// How many hosts the URLs of `bytes`' lines (those with a scheme) name,
/// case-insensitively: many hint at a crawl log, whose URLs each need
/// their own site's robots.txt.
///
/// ```
/// use robots_batch::sniff;
///
/// let urls = b"https://a.com/x\nhttp://A.com:80/y\nhttps://u@b.org\n/path\n";
/// assert_eq!(sniff::distinct_hosts(urls), 2);
/// ```
pub fn distinct_hosts(bytes: &[u8]) -> usize {
    let mut hosts = std::collections::HashSet::new();
    for line in head_lines(bytes) {
        let Some(i) = memchr::memmem::find(line, b"://") else { continue };
        let rest = &line[i + 3..];
        let end = rest
            .iter()
            .position(|b| matches!(b, b'/' | b'?' | b'#'))
            .unwrap_or(rest.len());
        let authority = &rest[..end];
        let host = match memchr::memrchr(b'@', authority) {
            Some(at) => &authority[at + 1..],
            None => authority,
        };
        let host = match memchr::memrchr(b':', host) {
            Some(colon) if !host.ends_with(b"]") => &host[..colon],
            _ => host,
        };
        if !host.is_empty() {
            hosts.insert(host.to_ascii_lowercase());
        }
    }
    hosts.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_pages() {
        for page in [
            &b"<!doctype html>"[..],
            b"  <HTML lang=en>",
            b"<?xml version=\"1.0\"?>\n<html>",
            b"<!-- error -->\n<html>",
        ] {
            assert!(looks_like_html(page), "{page:?}");
        }
        for text in [&b""[..], b"  \n", b"User-agent: *", b"<p>no html</p>"] {
            assert!(!looks_like_html(text), "{text:?}");
        }
    }

    #[test]
    fn binary_bytes() {
        assert!(looks_binary(b"ab\0cd"));
        assert!(looks_binary(b"\x01\x02\x03abcdefgh"));
        assert!(!looks_binary(b""));
        assert!(!looks_binary(
            b"\xef\xbb\xbfUser-agent: *\r\n\tDisallow: /\x0c"
        ));
        // Only the head is looked at.
        let mut late = vec![b'a'; SNIFF_BYTES];
        late.push(0);
        assert!(!looks_binary(&late));
    }

    #[test]
    fn robots_txt_or_urls() {
        assert!(looks_like_robots_txt(b"User-agent: *\nDisallow: /\n"));
        assert!(looks_like_robots_txt(
            b"\xef\xbb\xbf\r\nUSER-AGENT : a\r\nallow: /\r\n# c\r\nSitemap: x\r\n"
        ));
        // Rules without a user-agent line, or URLs with a few such lines.
        assert!(!looks_like_robots_txt(b"Disallow: /\nDisallow: /x\n"));
        assert!(!looks_like_robots_txt(
            b"user-agent: x\n/a\n/b\nhttps://c.com/\nhttps://d.com/\n"
        ));
        assert!(!looks_like_robots_txt(b""));
    }
}
