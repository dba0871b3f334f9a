//! Resolving a redirect's `Location` against the URL that was fetched, as
//! RFC 3986 section 5.2 says (RFC 9110 section 10.2.2 points there):
//! absolute URLs, scheme-relative (`//host/p`), absolute paths, relative
//! paths with dot segments, query-only and empty references.

/// The five components of a URI reference (RFC 3986 appendix B); a
/// component that is absent is `None`, which differs from empty.
struct Components<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
}

fn split(reference: &str) -> Components<'_> {
    let mut rest = reference;
    // The fragment never matters to a fetch.
    if let Some(i) = rest.find('#') {
        rest = &rest[..i];
    }
    let mut scheme = None;
    if let Some(i) = rest.find([':', '/', '?']) {
        let candidate = &rest[..i];
        if rest[i..].starts_with(':') && is_scheme(candidate) {
            scheme = Some(candidate);
            rest = &rest[i + 1..];
        }
    }
    let mut authority = None;
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find(['/', '?']).unwrap_or(after.len());
        authority = Some(&after[..end]);
        rest = &after[end..];
    }
    let (path, query) = match rest.find('?') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    Components { scheme, authority, path, query }
}

fn is_scheme(s: &str) -> bool {
    let mut bytes = s.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
}

/// `reference` resolved against the absolute URL `base` (RFC 3986 section
/// 5.2.2, strict: a reference with a scheme is absolute), without its
/// fragment. The reference is trimmed of surrounding white space first,
/// as header values are.
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = split(reference.trim());
    let b = split(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_string();
                query = r.query.or(b.query);
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(&b, r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// Section 5.2.3: a relative path appended to the base's directory.
fn merge(base: &Components<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{path}", &base.path[..=i]),
        None => path.to_string(),
    }
}

/// Section 5.2.4: `.` and `..` segments removed.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut out = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            input = if input == "/.." { "/" } else { &input[3..] };
            let cut = out.rfind('/').unwrap_or(0);
            out.truncate(cut);
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let start = usize::from(input.starts_with('/'));
            let end =
                input[start..].find('/').map_or(input.len(), |i| i + start);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_3986_examples() {
        // Section 5.4: the normal and abnormal examples (those with a
        // fragment lose it, as a fetch does).
        let base = "http://a/b/c/d;p?q";
        let cases = [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q"),
            ("g#s", "http://a/b/c/g"),
            (";x", "http://a/b/c/;x"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("http:g", "http:g"),
        ];
        for (reference, want) in cases {
            assert_eq!(resolve(base, reference), want, "{reference:?}");
        }
    }

    #[test]
    fn robots_redirects() {
        let base = "http://rel.com/robots.txt";
        let cases = [
            ("//tgt.com/robots.txt", "http://tgt.com/robots.txt"),
            ("https://tgt.com/r.txt", "https://tgt.com/r.txt"),
            ("  /robots.txt ", "http://rel.com/robots.txt"),
            ("r2.txt", "http://rel.com/r2.txt"),
            ("?lang=en", "http://rel.com/robots.txt?lang=en"),
            ("//tgt.com", "http://tgt.com"),
        ];
        for (reference, want) in cases {
            assert_eq!(resolve(base, reference), want, "{reference:?}");
        }
        assert_eq!(resolve("https://a.com", "x"), "https://a.com/x");
    }
}
