//! What a file looks like from its first bytes, to warn when it is not what
//! it was given as: an HTML page or binary bytes served as a robots.txt, a
//! robots.txt given where URLs were expected. Each guess reads at most the
//! first [`SNIFF_BYTES`] bytes and never changes a verdict.

/// How many leading bytes the guesses look at.
pub const SNIFF_BYTES: usize = 4096;

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
