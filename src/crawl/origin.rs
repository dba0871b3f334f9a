//! Origins: the (scheme, host, port) a robots.txt applies to (RFC 9309
//! section 2.3: the rules apply to the authority they were fetched from).

use std::fmt;

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

/// The origin of an absolute HTTP(S) URL: its scheme, its host in lower
/// case (without user info), and its port (the scheme's default when the
/// URL gives none).
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
    /// let o = Origin::of_url(b"HTTPS://user@Example.COM:443/a?b").unwrap();
    /// assert_eq!(o.to_string(), "https://example.com");
    /// assert_eq!(o.host(), "example.com");
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

    /// The host, in lower case (an IPv6 address keeps its brackets).
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
            .is_none_or(|&b| matches!(b, b'/' | b'?' | b'#'))
}

/// Writes the lookup key of `url`'s origin into `key` (cleared first):
/// `scheme://host:port`, host in lower case, port always present. Returns
/// `None` (and leaves `key` unspecified) when `url` has no HTTP(S)
/// origin. Allocates only if `key` must grow.
pub(crate) fn origin_key(url: &[u8], key: &mut Vec<u8>) -> Option<Parts> {
    parse(url, key)
}

fn parse(url: &[u8], key: &mut Vec<u8>) -> Option<Parts> {
    let (scheme, rest) = if let Some(r) = strip_prefix_ci(url, b"https://") {
        (Scheme::Https, r)
    } else if let Some(r) = strip_prefix_ci(url, b"http://") {
        (Scheme::Http, r)
    } else {
        return None;
    };
    let end = rest
        .iter()
        .position(|&b| matches!(b, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let authority_end = url.len() - rest.len() + end;
    let authority = &rest[..end];
    let hostport = match memchr::memrchr(b'@', authority) {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    let (host, port) = split_port(hostport)?;
    if host.is_empty() || host.iter().any(|&b| b <= b' ' || b == 0x7F) {
        return None;
    }
    let port = match port {
        None | Some(b"") => scheme.default_port(),
        Some(digits) => parse_port(digits)?,
    };
    key.clear();
    let host_start = scheme.name().len() + 3;
    write_key(scheme, host, port, key);
    let host_end = host_start + host.len();
    key[host_start..host_end].make_ascii_lowercase();
    Some(Parts { scheme, port, host_start, host_end, authority_end })
}

fn write_key(scheme: Scheme, host: &[u8], port: u16, key: &mut Vec<u8>) {
    key.extend_from_slice(scheme.name().as_bytes());
    key.extend_from_slice(b"://");
    key.extend_from_slice(host);
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

fn parse_port(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() || digits.len() > 5 {
        return None;
    }
    let mut n: u32 = 0;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        n = n * 10 + u32::from(d - b'0');
    }
    u16::try_from(n).ok()
}

fn strip_prefix_ci<'a>(bytes: &'a [u8], prefix: &[u8]) -> Option<&'a [u8]> {
    let head = bytes.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix).then(|| &bytes[prefix.len()..])
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
            ("http://u:p@a.com:81/", Some("http://a.com:81")),
            ("http://u@x@a.com/", Some("http://a.com:80")),
            ("http://[::1]:8080/", Some("http://[::1]:8080")),
            ("http://[::1]/", Some("http://[::1]:80")),
            ("http://[::1/", None),
            ("http://[::1]x/", None),
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
        ];
        for &(url, want) in cases {
            assert_eq!(key(url).as_deref(), want, "{url:?}");
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
