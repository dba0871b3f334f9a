//! Origins: the (scheme, host, port) a robots.txt applies to (RFC 9309
//! section 2.3: the rules apply to the authority they were fetched from).

use std::cell::RefCell;
use std::fmt;

use super::hash::HashMap;

/// The scheme of an origin. Only HTTP and HTTPS have robots.txt.
#[derive(Clone, Copy, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub enum Scheme {
    /// `http`, default port 80.
    Http,
    /// `https`, default port 443.
    Https,
}

impl Scheme {
    /// `http` or `https`.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Http => "http",
            Scheme::Https => "https",
        }
    }

    fn default_port(self) -> u16 {
        match self {
            Scheme::Http => 80,
            Scheme::Https => 443,
        }
    }
}

/// The origin of an absolute HTTP(S) URL: its scheme, its host as the
/// WHATWG URL standard normalises it (IDNA to ASCII, lower case, IP
/// addresses in one form) without a trailing dot, and its port (the
/// scheme's default when the URL gives none). Every spelling of a host
/// that the standard reads as one is one origin.
#[derive(Clone, Debug, Eq, Hash, Ord, PartialEq, PartialOrd)]
pub struct Origin {
    scheme: Scheme,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of `url`, or `None` when it is not an absolute `http` or
    /// `https` URL with a host (and a valid port, if it has one).
    ///
    /// ```
    /// use robots_batch::crawl::Origin;
    ///
    /// let o = Origin::of_url(b"HTTPS://user@Example.COM.:443/a?b").unwrap();
    /// assert_eq!(o.to_string(), "https://example.com");
    /// assert_eq!(o.host(), "example.com");
    /// let o = Origin::of_url("http://BÜCHER.de\\@x.com/".as_bytes()).unwrap();
    /// assert_eq!(o.to_string(), "http://xn--bcher-kva.de");
    /// assert!(Origin::of_url(b"/just/a/path").is_none());
    /// assert!(Origin::of_url(b"ftp://example.com/").is_none());
    /// ```
    pub fn of_url(url: &[u8]) -> Option<Origin> {
        let mut key = vec![];
        let parts = parse(url, &mut key)?;
        let host = String::from_utf8_lossy(parts.host(&key)).into_owned();
        Some(Origin { scheme: parts.scheme, host, port: parts.port })
    }

    /// The scheme.
    pub fn scheme(&self) -> Scheme {
        self.scheme
    }

    /// The host, normalised: ASCII, lower case (an IPv6 address keeps its
    /// brackets).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// The port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The lookup key of this origin (see [`origin_key`]).
    pub(crate) fn key(&self) -> Vec<u8> {
        let mut key = vec![];
        write_key(self.scheme, self.host.as_bytes(), self.port, &mut key);
        key
    }
}

impl fmt::Display for Origin {
    /// `scheme://host`, with `:port` when it is not the default.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme.name(), self.host)?;
        if self.port != self.scheme.default_port() {
            write!(f, ":{}", self.port)?;
        }
        Ok(())
    }
}

/// A URL's origin as parsed, with its host written into a key buffer.
pub(crate) struct Parts {
    scheme: Scheme,
    port: u16,
    /// Where the host sits in the key buffer.
    host_start: usize,
    host_end: usize,
    /// Where the authority ends in the URL: the origin depends on the
    /// bytes before it alone.
    authority_end: usize,
}

impl Parts {
    pub(crate) fn host<'k>(&self, key: &'k [u8]) -> &'k [u8] {
        &key[self.host_start..self.host_end]
    }

    /// Where the authority ends in the URL: any URL with the same bytes
    /// before this point, then `/`, `?`, `#` or its end, has the same
    /// origin (see [`same_authority`]).
    pub(crate) fn authority_end(&self) -> usize {
        self.authority_end
    }
}

/// Whether `url` starts with `authority` (the first `end` bytes of a URL
/// whose origin parsed, see [`Parts::authority_end`]) and its authority
/// ends there too, so that both URLs have one origin.
pub(crate) fn same_authority(url: &[u8], authority: &[u8]) -> bool {
    url.starts_with(authority)
        && url
            .get(authority.len())
            .is_none_or(|&b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
}

/// The bytes of an `http(s)` URL up to where its authority ends (the
/// first `/`, `?`, `#` or `\\` after `scheme://`), without parsing the
/// host: URLs with the same such bytes have one origin (or none alike).
/// `None` for a line that does not start with `http://` or `https://`.
pub(crate) fn raw_authority(url: &[u8]) -> Option<&[u8]> {
    let (_, start) = http_scheme(url)?;
    Some(&url[..start + authority_end(&url[start..])])
}

/// Where the authority at the start of `rest` ends: at its first `/`, `?`,
/// `#` or `\\`, else at its end. A word at a time, since every URL of a
/// log in random host order comes by here.
fn authority_end(rest: &[u8]) -> usize {
    crate::lowlevel::swar::first_of(rest, [b'/', b'?', b'#', b'\\'], false)
}

/// Writes the lookup key of `url`'s origin into `key` (cleared first):
/// `scheme://host:port`, host normalised (see [`parse`]), port always
/// present. Returns `None` (and leaves `key` unspecified) when `url` has no
/// HTTP(S) origin. Allocates only if `key` must grow or the host is not a
/// plain ASCII name.
pub(crate) fn origin_key(url: &[u8], key: &mut Vec<u8>) -> Option<Parts> {
    parse(url, key)
}

/// The origin of `url` as the WHATWG URL standard reads it for `http` and
/// `https`: the authority ends at `/`, `\`, `?` or `#`, user info (up to
/// the last `@`) is dropped, an empty or default port is the default, and
/// the host goes through the WHATWG host parser (see [`write_host`]). The
/// URL must start with `http://` or `https://` (in any case): unlike a
/// browser, no leading space and no other number of slashes is accepted,
/// since a crawl log's line without them is more likely garbage than a URL.
fn parse(url: &[u8], key: &mut Vec<u8>) -> Option<Parts> {
    let (scheme, start) = http_scheme(url)?;
    let rest = &url[start..];
    // One pass finds where the authority ends and whether it is a plain
    // `host[:port]`, whose last colon starts the port.
    let mut end = rest.len();
    let mut colon = None;
    let mut plain = true;
    for (i, &b) in rest.iter().enumerate() {
        match BYTE_CLASSES[usize::from(b)] {
            HOST_BYTE => {}
            COLON => colon = Some(i),
            ENDS_AUTHORITY => {
                end = i;
                break;
            }
            _ => plain = false,
        }
    }
    let authority_end = url.len() - rest.len() + end;
    let authority = &rest[..end];
    let (host, port) = if !plain {
        let hostport = match memchr::memrchr(b'@', authority) {
            Some(at) => &authority[at + 1..],
            None => authority,
        };
        split_port(hostport)?
    } else if let Some(c) = colon {
        (&authority[..c], Some(&authority[c + 1..]))
    } else {
        (authority, None)
    };
    let port = match port {
        None | Some(b"") => scheme.default_port(),
        Some(digits) => parse_port(digits)?,
    };
    key.clear();
    key.extend_from_slice(scheme.name().as_bytes());
    key.extend_from_slice(b"://");
    let host_start = key.len();
    write_host(host, key)?;
    let host_end = key.len();
    write_port(port, key);
    Some(Parts { scheme, port, host_start, host_end, authority_end })
}

/// Bytes of a plain `host[:port]` authority.
const HOST_BYTE: u8 = 0;
const COLON: u8 = 1;
/// `/`, `?`, `#` and `\`, which end an http(s) authority.
const ENDS_AUTHORITY: u8 = 2;
/// The rest: user info, brackets, percent-encoding, non-ASCII bytes,
/// forbidden bytes.
const OTHER: u8 = 3;

static BYTE_CLASSES: [u8; 256] = {
    let mut classes = [OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_') {
            classes[b] = HOST_BYTE;
        }
        b += 1;
    }
    classes[b':' as usize] = COLON;
    classes[b'/' as usize] = ENDS_AUTHORITY;
    classes[b'?' as usize] = ENDS_AUTHORITY;
    classes[b'#' as usize] = ENDS_AUTHORITY;
    classes[b'\\' as usize] = ENDS_AUTHORITY;
    classes
};

/// Normalises `host` (as a `--robots-dir` file names it) the way a URL's
/// host is in an origin key, or `None` when it is not a valid host.
pub(crate) fn host_key(host: &[u8]) -> Option<Vec<u8>> {
    let mut key = Vec::with_capacity(host.len());
    write_host(host, &mut key)?;
    Some(key)
}

/// Appends `host` as the WHATWG host parser serialises it (percent-decoded,
/// IDNA to ASCII by UTS #46, which lower-cases; IPv4 addresses in any of
/// their forms dotted; IPv6 addresses compressed, in brackets), without
/// trailing dots: RFC 9309 keys robots.txt by authority and DNS resolves
/// `a.com.` and `a.com` alike, so they are one origin. The dots go before
/// parsing too, so that `0x7f.1.` is `127.0.0.1` as `0x7f.1` is, and a
/// key's host reads back as itself. Returns `None` (with `key` unspecified
/// past its old length) for a host that parser rejects.
fn write_host(host: &[u8], key: &mut Vec<u8>) -> Option<()> {
    let host = trim_dots(host);
    // Nearly every host of a crawl log is a plain name, which the parser
    // would only lower-case; the crates are for the others.
    if is_plain_name(host) || is_dotted_quad(host) {
        let start = key.len();
        key.extend_from_slice(host);
        key[start..].make_ascii_lowercase();
        return Some(());
    }
    if host.len() > PARSED_HOST_BYTES {
        return write_parsed_host(host, key);
    }
    let known = PARSED.with_borrow(|parsed| {
        parsed.get(host).map(|normal| {
            key.extend_from_slice(normal.as_deref()?);
            Some(())
        })
    });
    if let Some(known) = known {
        return known;
    }
    let start = key.len();
    let written = write_parsed_host(host, key);
    let normal = written.map(|()| key[start..].into());
    PARSED.with_borrow_mut(|parsed| {
        if parsed.len() >= PARSED_HOSTS {
            parsed.clear();
        }
        parsed.insert(host.into(), normal);
    });
    written
}

/// How many hosts [`PARSED`] keeps, and the longest it keeps.
const PARSED_HOSTS: usize = 4096;
const PARSED_HOST_BYTES: usize = 256;

/// Hosts as given, and as the WHATWG parser wrote them (`None`: rejected).
type ParsedHosts = HashMap<Box<[u8]>, Option<Box<[u8]>>>;

thread_local! {
    /// The hosts that needed the WHATWG parser, as it wrote them (`None`:
    /// rejected), on this thread: logs repeat their hosts, and the parser
    /// is costly. Emptied when full.
    static PARSED: RefCell<ParsedHosts> = RefCell::new(HashMap::default());
}

/// [`write_host`] for a host that is no plain name, by the `url` crate.
fn write_parsed_host(host: &[u8], key: &mut Vec<u8>) -> Option<()> {
    let parsed = url::Host::parse(std::str::from_utf8(host).ok()?).ok()?;
    let text = parsed.to_string();
    // Dots that IDNA mapped (`。`) or percent-decoding made may end it:
    // without them it is read again, once (an ASCII name gains no dots).
    let trimmed = trim_dots(text.as_bytes());
    if trimmed.len() < text.len() {
        return write_host(trimmed, key);
    }
    key.extend_from_slice(text.as_bytes());
    Some(())
}

fn trim_dots(host: &[u8]) -> &[u8] {
    let n = host.iter().rev().take_while(|&&b| b == b'.').count();
    &host[..host.len() - n]
}

/// Whether `host` is letters, digits, `-`, `_` and `.` only, with no Punycode
/// label (`xn--`, to be decoded and validated) and a last label that starts
/// with a letter (so it is no IPv4 address): the WHATWG host parser only
/// lower-cases such a name.
fn is_plain_name(host: &[u8]) -> bool {
    let mut label = 0;
    for (i, &b) in host.iter().enumerate() {
        match b {
            b'.' => label = i + 1,
            b'-' if i == label + 3
                && host[label + 2] == b'-'
                && host[label..label + 2].eq_ignore_ascii_case(b"xn") =>
            {
                return false
            }
            _ if BYTE_CLASSES[usize::from(b)] == HOST_BYTE => {}
            _ => return false,
        }
    }
    host.get(label).is_some_and(u8::is_ascii_alphabetic)
}

/// Whether `host` is an IPv4 address in the dotted decimal form the WHATWG
/// host parser writes: four numbers up to 255, without leading zeros
/// (which would make them octal).
fn is_dotted_quad(host: &[u8]) -> bool {
    let mut parts = 0;
    for part in host.split(|&b| b == b'.') {
        parts += 1;
        let ok = match part {
            [b'0'] => true,
            [b'1'..=b'9', rest @ ..] if rest.len() <= 2 => {
                rest.iter().all(u8::is_ascii_digit)
                    && (part.len() < 3 || part <= b"255".as_slice())
            }
            _ => false,
        };
        if !ok || parts > 4 {
            return false;
        }
    }
    parts == 4
}

fn write_key(scheme: Scheme, host: &[u8], port: u16, key: &mut Vec<u8>) {
    key.extend_from_slice(scheme.name().as_bytes());
    key.extend_from_slice(b"://");
    key.extend_from_slice(host);
    write_port(port, key);
}

/// Appends `:port`.
fn write_port(port: u16, key: &mut Vec<u8>) {
    key.push(b':');
    let mut digits = [0u8; 5];
    let mut n = port;
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    key.extend_from_slice(&digits[i..]);
}

/// Splits `host[:port]`, keeping an IPv6 literal's brackets in the host.
fn split_port(hostport: &[u8]) -> Option<(&[u8], Option<&[u8]>)> {
    if hostport.first() == Some(&b'[') {
        let close = memchr::memchr(b']', hostport)?;
        let (host, rest) = hostport.split_at(close + 1);
        return match rest {
            [] => Some((host, None)),
            [b':', port @ ..] => Some((host, Some(port))),
            _ => None,
        };
    }
    match memchr::memrchr(b':', hostport) {
        Some(i) => Some((&hostport[..i], Some(&hostport[i + 1..]))),
        None => Some((hostport, None)),
    }
}

/// A port as WHATWG reads it: ASCII digits, leading zeros allowed, at
/// most 65535.
fn parse_port(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() {
        return None;
    }
    let mut n: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(d - b'0');
        if n > u32::from(u16::MAX) {
            return None;
        }
    }
    u16::try_from(n).ok()
}

/// The scheme of a URL starting with `https://` or `http://` (in any
/// case), and where the rest starts. Every URL of a log in random host
/// order comes by here, so its first eight bytes are compared as one word:
/// a byte ORed with 0x20 is a lower-case letter exactly when it is that
/// letter in either case, and `:` and `/` are compared as they are.
fn http_scheme(url: &[u8]) -> Option<(Scheme, usize)> {
    const HTTPS: u64 = u64::from_le_bytes(*b"https://");
    const HTTP: u64 = u64::from_le_bytes(*b"http://\0");
    // The letters' bytes: "https" and "http".
    const HTTPS_LETTERS: u64 = 0x0000_0020_2020_2020;
    const HTTP_LETTERS: u64 = 0x0000_0000_2020_2020;
    // All but the eighth byte.
    const SEVEN: u64 = 0x00ff_ffff_ffff_ffff;
    let Some(head) = url.first_chunk::<8>() else {
        // Too short for `https://`, and for anything after `http://`.
        return url
            .eq_ignore_ascii_case(b"http://")
            .then_some((Scheme::Http, 7));
    };
    let word = u64::from_le_bytes(*head);
    if word | HTTPS_LETTERS == HTTPS {
        Some((Scheme::Https, 8))
    } else if (word | HTTP_LETTERS) & SEVEN == HTTP {
        Some((Scheme::Http, 7))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(url: &str) -> Option<String> {
        let mut k = vec![];
        origin_key(url.as_bytes(), &mut k)?;
        Some(String::from_utf8(k).unwrap())
    }

    #[test]
    fn keys() {
        let cases: &[(&str, Option<&str>)] = &[
            ("http://example.com/a", Some("http://example.com:80")),
            ("https://example.com", Some("https://example.com:443")),
            ("HTTPS://EXAMPLE.com?q", Some("https://example.com:443")),
            ("https://a.com#x", Some("https://a.com:443")),
            ("http://a.com:8080/x", Some("http://a.com:8080")),
            ("http://a.com:/x", Some("http://a.com:80")),
            ("https://a.com:443/", Some("https://a.com:443")),
            ("http://a.com:00080/", Some("http://a.com:80")),
            ("http://u:p@a.com:81/", Some("http://a.com:81")),
            ("http://u@x@a.com/", Some("http://a.com:80")),
            ("http://[::1]:8080/", Some("http://[::1]:8080")),
            ("http://[::1]/", Some("http://[::1]:80")),
            ("http://[0:0::0:1]/", Some("http://[::1]:80")),
            ("http://[::FFFF:1.2.3.4]/", Some("http://[::ffff:102:304]:80")),
            ("http://[::1/", None),
            ("http://[::1]x/", None),
            ("http://[::g]/", None),
            ("http://a.com:99999/", None),
            ("http://a.com:8o/", None),
            ("http:///path", None),
            ("http://", None),
            ("http://a b.com/", None),
            ("ftp://a.com/", None),
            ("//a.com/x", None),
            ("a.com/x", None),
            ("/x", None),
            ("", None),
            (" http://a.com/", None),
            ("https:/a.com/", None),
            // One origin, many spellings: IDNA, case, a trailing dot,
            // percent-encoding, IPv4 forms.
            ("http://bücher.de/", Some("http://xn--bcher-kva.de:80")),
            ("http://BÜCHER.de/", Some("http://xn--bcher-kva.de:80")),
            ("http://XN--BCHER-KVA.de/", Some("http://xn--bcher-kva.de:80")),
            ("http://b%C3%BCcher.de/", Some("http://xn--bcher-kva.de:80")),
            ("http://ex%41mple.com/", Some("http://example.com:80")),
            ("http://dot.com./", Some("http://dot.com:80")),
            ("http://DOT.com.:80/", Some("http://dot.com:80")),
            ("http://1.2.3.4/", Some("http://1.2.3.4:80")),
            ("http://1.2.3.4./", Some("http://1.2.3.4:80")),
            ("http://0x7f.1/", Some("http://127.0.0.1:80")),
            ("http://2130706433/", Some("http://127.0.0.1:80")),
            ("http://0177.0.0.1/", Some("http://127.0.0.1:80")),
            ("http://ａ.com/", Some("http://a.com:80")),
            ("http://a.com../", Some("http://a.com:80")),
            ("http://a.com。/", Some("http://a.com:80")),
            ("http://a.com%2E/", Some("http://a.com:80")),
            ("http://0x7f.1./", Some("http://127.0.0.1:80")),
            ("http://.../", None),
            ("http://a.com.tw--au/", Some("http://a.com.tw--au:80")),
            ("http://My_Site.a.com/", Some("http://my_site.a.com:80")),
            ("http://Xn--bcher-kva.de/", Some("http://xn--bcher-kva.de:80")),
            // `\` ends the authority of an http(s) URL, as `/` does.
            ("http://a.com\\@evil.com/x", Some("http://a.com:80")),
            ("http://a.com\\x", Some("http://a.com:80")),
            ("http://u@a.com:81\\@b.com/", Some("http://a.com:81")),
            // Hosts the WHATWG parser rejects.
            ("http://xn--a.com/", None),
            ("http://a.123/", None),
            ("http://256.1.1.1/", None),
            ("http://a%20b.com/", None),
            ("http://a%2.com/", None),
            ("http://a<b.com/", None),
            ("http://./", None),
            ("http://%FF.com/", None),
            ("http://a.com%2F/", None),
        ];
        for &(url, want) in cases {
            assert_eq!(key(url).as_deref(), want, "{url:?}");
        }
        let mut k = vec![];
        assert!(origin_key(b"http://\xff.com/", &mut k).is_none());
    }

    #[test]
    fn host_keys_of_file_names() {
        for (host, want) in [
            ("a.com", Some("a.com")),
            ("B.org", Some("b.org")),
            ("Bücher.de", Some("xn--bcher-kva.de")),
            ("dot.com.", Some("dot.com")),
            ("[::1]", Some("[::1]")),
            ("a.com:80", None),
            ("a b", None),
        ] {
            let got = host_key(host.as_bytes());
            let got = got.map(|k| String::from_utf8(k).unwrap());
            assert_eq!(got.as_deref(), want, "{host:?}");
        }
    }

    #[test]
    fn parsed_hosts_are_remembered_alike() {
        // More hosts than the per-thread memo keeps, each seen twice.
        for round in 0..2 {
            for i in 0..PARSED_HOSTS + 10 {
                let url = format!("http://B%41{i}.com/");
                let want = format!("http://ba{i}.com:80");
                assert_eq!(key(&url).as_deref(), Some(&*want), "{round}");
                assert_eq!(key("http://xn--a.com/"), None);
                let long = format!("http://{}b%41.com/", "a".repeat(300));
                let want = format!("http://{}ba.com:80", "a".repeat(300));
                assert_eq!(key(&long), Some(want));
            }
        }
    }

    /// The word-wide scheme test says what a byte-wise, case-blind
    /// comparison says: for every case of both schemes, every byte in
    /// every place of them and after, and every length up to nine.
    #[test]
    fn http_scheme_is_a_case_blind_prefix_test() {
        fn byte_wise(url: &[u8]) -> Option<(Scheme, usize)> {
            let starts = |p: &[u8]| {
                url.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p))
            };
            if starts(b"https://") {
                Some((Scheme::Https, 8))
            } else if starts(b"http://") {
                Some((Scheme::Http, 7))
            } else {
                None
            }
        }
        let mut urls = vec![];
        for base in [&b"https://a"[..], b"http://ab"] {
            for case in 0..32u32 {
                let url: Vec<u8> = base
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| match case >> i & 1 {
                        1 if i < 5 => b.to_ascii_uppercase(),
                        _ => b,
                    })
                    .collect();
                for at in 0..url.len() {
                    for b in 0..=255u8 {
                        let mut other = url.clone();
                        other[at] = b;
                        urls.push(other);
                    }
                }
                urls.push(url);
            }
        }
        let mut found = [0usize; 2];
        for url in &urls {
            for len in 0..=url.len() {
                let url = &url[..len];
                let want = byte_wise(url);
                assert_eq!(http_scheme(url), want, "{url:?}");
                if let Some((scheme, _)) = want {
                    found[(scheme == Scheme::Https) as usize] += 1;
                }
            }
        }
        assert!(found[0] > 0 && found[1] > 0);
    }

    /// Where a raw authority ends is where the parser finds it ends, and
    /// two URLs with one raw authority have one origin key.
    #[test]
    fn raw_authority_ends_where_the_parser_does() {
        let urls = [
            "http://a.com/x",
            "HTTPS://A.com?q",
            "http://u:p@a.com:80#f",
            "http://a.com\\@evil.com/x",
            "http://B%41.com",
            "https://[::1]:8/x",
            "http://xn--a.com/",
            "http://",
        ];
        for url in urls {
            let raw = raw_authority(url.as_bytes()).unwrap();
            let mut key = vec![];
            if let Some(parts) = origin_key(url.as_bytes(), &mut key) {
                assert_eq!(raw.len(), parts.authority_end(), "{url}");
            }
            let other = format!("{}/other?path", String::from_utf8_lossy(raw));
            let mut other_key = vec![];
            let parsed =
                origin_key(url.as_bytes(), &mut key).map(|_| key.clone());
            let other_parsed = origin_key(other.as_bytes(), &mut other_key)
                .map(|_| other_key);
            assert_eq!(parsed, other_parsed, "{url}");
        }
        assert_eq!(raw_authority(b"ftp://a.com/"), None);
        assert_eq!(raw_authority(b"a.com/x"), None);
    }

    #[test]
    fn authority_end_agrees_with_a_plain_loop() {
        let mut next = crate::testing::xorshift(0x9e37_79b9_7f4a_7c15);
        let alphabet = b"ab.:@/?#\\\x80\xff-0";
        for _ in 0..20_000 {
            let len = (next() % 40) as usize;
            let rest: Vec<u8> = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let plain = rest
                .iter()
                .position(|&b| matches!(b, b'/' | b'?' | b'#' | b'\\'))
                .unwrap_or(rest.len());
            assert_eq!(authority_end(&rest), plain, "{rest:?}");
        }
    }

    #[test]
    fn same_authority_ends_at_a_backslash() {
        assert!(same_authority(b"http://a.com\\x", b"http://a.com"));
        assert!(same_authority(b"http://a.com/x", b"http://a.com"));
        assert!(!same_authority(b"http://a.com.b/x", b"http://a.com"));
    }

    /// What the `url` crate (the WHATWG URL parser) makes of `url`'s
    /// origin, as a key, with a trailing dot dropped.
    fn whatwg_key(url: &str) -> Option<String> {
        let u = url::Url::parse(url).ok()?;
        let host = match u.host()? {
            // Without its trailing dots, read again: `0x7f.1.` is then
            // `127.0.0.1`.
            url::Host::Domain(d) => {
                let d = d.trim_end_matches('.');
                if d.is_empty() {
                    return None;
                }
                let h = url::Host::parse(d).ok()?.to_string();
                h.trim_end_matches('.').to_string()
            }
            h => h.to_string(),
        };
        let port = u.port_or_known_default()?;
        Some(format!("{}://{host}:{port}", u.scheme()))
    }

    /// Whether a key reads back as itself.
    fn stable(key: &str) -> bool {
        let mut k = vec![];
        origin_key(format!("{key}/").as_bytes(), &mut k).is_some()
            && k == key.as_bytes()
    }

    proptest::proptest! {
        /// The fast path for plain names agrees with the WHATWG parser, and
        /// so does every other host the parser accepts or rejects.
        #[test]
        fn agrees_with_whatwg(
            scheme in "(http|HTTPS)://",
            authority in "([a-zA-Z09.:@\\[\\]%/\\\\-]|xn--|ü|Ü|%41|%C3%BC|%2E|0x|ａ|。){0,12}",
            tail in "(/p|\\?q|#f|)",
        ) {
            let url = format!("{scheme}{authority}{tail}");
            let mut k = vec![];
            let ours = origin_key(url.as_bytes(), &mut k)
                .map(|_| String::from_utf8(k).unwrap());
            // Deliberately stricter: no extra slashes before the host.
            let after = &url[url.find("://").unwrap() + 3..];
            let want = if after.starts_with(['/', '\\']) {
                None
            } else {
                whatwg_key(&url)
            };
            if let Some(k) = &ours {
                proptest::prop_assert!(stable(k), "{:?}", k);
            }
            proptest::prop_assert_eq!(ours, want, "{:?}", url);
        }

        /// Names and numbers near the fast paths' edges.
        #[test]
        fn plain_hosts_agree_with_whatwg(
            host in "([a-zA-Z0-9._-]|xn--|XN--|--|0x|25[0-9]|00){0,10}",
        ) {
            let url = format!("http://{host}/");
            let mut k = vec![];
            let ours = origin_key(url.as_bytes(), &mut k)
                .map(|_| String::from_utf8(k).unwrap());
            if let Some(k) = &ours {
                proptest::prop_assert!(stable(k), "{:?}", k);
            }
            proptest::prop_assert_eq!(ours, whatwg_key(&url), "{:?}", url);
        }
    }

    #[test]
    fn display_drops_default_ports() {
        let o = Origin::of_url(b"http://A.com:80/").unwrap();
        assert_eq!(o.to_string(), "http://a.com");
        assert_eq!(o.key(), b"http://a.com:80");
        let o = Origin::of_url(b"http://a.com:443/").unwrap();
        assert_eq!(o.to_string(), "http://a.com:443");
        assert_eq!((o.scheme(), o.port()), (Scheme::Http, 443));
    }
}
