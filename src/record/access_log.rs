//! Access logs in the combined log format: the path of each request line
//! and the agent of its User-Agent field.
//!
//! `host ident user [date] "GET /path HTTP/1.1" status bytes "referer"
//! "user-agent"`: the common log format is the same without the last two
//! fields. Quoted fields may hold `\"` (Apache escapes quotes so).

use std::collections::HashSet;
use std::sync::OnceLock;

use crate::agents::ai_agent_tokens;
use crate::rules::product_token;

/// A request line without a target (`"-"`, or garbage).
pub(crate) const NO_REQUEST: &str = "no request line with a path";

/// The request target (a path, or an absolute URL for a proxy) and the
/// User-Agent field (`None` in the common log format) of one log line.
pub(crate) fn parse(
    line: &[u8],
) -> Result<(&[u8], Option<&[u8]>), &'static str> {
    let mut fields = Quoted { rest: line };
    let request = fields.next().ok_or(NO_REQUEST)?;
    let mut words = request.split(|&b| b == b' ').filter(|w| !w.is_empty());
    let _method = words.next();
    let target = words.next().ok_or(NO_REQUEST)?;
    // The referer, then the User-Agent.
    let ua = fields.next().and_then(|_| fields.next());
    Ok((target, ua))
}

/// The quoted fields of a log line, in order.
struct Quoted<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Quoted<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let start = memchr::memchr(b'"', self.rest)? + 1;
        let mut i = start;
        while i < self.rest.len() {
            match self.rest[i] {
                b'\\' => i += 2,
                b'"' => {
                    let field = &self.rest[start..i];
                    self.rest = &self.rest[i + 1..];
                    return Some(field);
                }
                _ => i += 1,
            }
        }
        None
    }
}

/// The agent a User-Agent field is judged as: its product token, or for a
/// browser-like one (`Mozilla/...`, `Opera...`) the first token in it that
/// names a crawler (a known AI crawler's token, or one holding `bot`,
/// `crawl`, `spider` or `slurp`), else `*`. An empty or `-` field is `*`.
///
/// ```text
/// Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) -> Googlebot
/// Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 -> *
/// curl/8.5.0 -> curl
/// ```
pub(crate) fn agent(ua: &[u8]) -> String {
    let ua = String::from_utf8_lossy(ua);
    let mut words = ua
        .split([' ', ';', '(', ')', ','])
        .map(product_token)
        .filter(|w| w.bytes().any(|b| b.is_ascii_alphabetic()));
    let Some(first) = words.next() else {
        return "*".to_string();
    };
    let browser = first.eq_ignore_ascii_case("Mozilla")
        || first.eq_ignore_ascii_case("Opera");
    if !browser {
        return first.to_string();
    }
    words
        .find(|w| names_a_crawler(w))
        .map_or_else(|| "*".to_string(), str::to_string)
}

/// Whether a token inside a browser-like User-Agent names a crawler.
fn names_a_crawler(token: &str) -> bool {
    let lower = token.to_ascii_lowercase();
    ["bot", "crawl", "spider", "slurp"].iter().any(|w| lower.contains(w))
        || ai_tokens_lowercase().contains(&lower)
}

/// The AI crawlers' tokens in lower case, built once: every line of an
/// access log may ask.
fn ai_tokens_lowercase() -> &'static HashSet<String> {
    static TOKENS: OnceLock<HashSet<String>> = OnceLock::new();
    TOKENS.get_or_init(|| {
        ai_agent_tokens(None)
            .unwrap_or_default()
            .iter()
            .map(|t| t.to_ascii_lowercase())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_combined_and_common_lines() {
        let line = br#"1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET /a?b=1 HTTP/1.1" 200 2326 "http://r/" "Mozilla/5.0 (compatible; \"x\")""#;
        let (target, ua) = parse(line).unwrap();
        assert_eq!(target, b"/a?b=1");
        assert_eq!(ua, Some(&br#"Mozilla/5.0 (compatible; \"x\")"#[..]));
        let common = br#"h - - [d] "GET /x HTTP/1.0" 200 1"#;
        assert_eq!(parse(common).unwrap(), (&b"/x"[..], None));
        assert_eq!(parse(br#"h - - [d] "-" 400 0 "-" "-""#), Err(NO_REQUEST));
        assert_eq!(parse(b"garbage"), Err(NO_REQUEST));
    }

    #[test]
    fn agents_of_bots_and_browsers() {
        let cases = [
            ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"),
            ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ChatGPT-User/1.0; +https://openai.com/bot)", "ChatGPT-User"),
            ("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", "*"),
            ("CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"),
            ("curl/8.5.0", "curl"),
            ("-", "*"),
            ("", "*"),
        ];
        for (ua, want) in cases {
            assert_eq!(agent(ua.as_bytes()), want, "{ua}");
        }
    }
}
