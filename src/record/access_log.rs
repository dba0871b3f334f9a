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
/// browser-like one (`Mozilla/...`, `Opera...`) the product token of the
/// first word in it that names a crawler (see [`names_a_crawler`]), else
/// `*`. An empty or `-` field is `*`.
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
        .filter(|w| product_token(w).bytes().any(|b| b.is_ascii_alphabetic()));
    let Some(first) = words.next().map(product_token) else {
        return "*".to_string();
    };
    let browser = first.eq_ignore_ascii_case("Mozilla")
        || first.eq_ignore_ascii_case("Opera");
    if !browser {
        return first.to_string();
    }
    words
        .find(|w| names_a_crawler(w))
        .map_or_else(|| "*".to_string(), |w| product_token(w).to_string())
}

/// What a word of a browser-like User-Agent must end in, or one of its
/// parts, to name a crawler.
const CRAWLER_ENDINGS: [&str; 5] =
    ["bot", "crawler", "crawl", "spider", "slurp"];

/// Whether a word inside a browser-like User-Agent names a crawler: its
/// name (up to a `/`), cut into parts at every byte that is not an ASCII
/// letter, has a part that ends in `bot`, `crawler`, `crawl`, `spider` or
/// `slurp` (any case: `Googlebot`, `AdsBot-Google`, `MJ12bot`,
/// `Baiduspider`), or its product token is a known AI crawler's
/// (`ChatGPT-User`). A word that merely holds one of them does not:
/// `Botanical-Garden-App` and `robots-proxy` name no crawler.
fn names_a_crawler(word: &str) -> bool {
    let name = word.split('/').next().unwrap_or(word);
    let crawler_part =
        name.split(|c: char| !c.is_ascii_alphabetic()).any(|part| {
            let part = part.to_ascii_lowercase();
            CRAWLER_ENDINGS.iter().any(|end| part.ends_with(end))
        });
    crawler_part
        || ai_tokens_lowercase()
            .contains(&product_token(word).to_ascii_lowercase())
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
            // A word's parts, cut at other bytes than letters, end in
            // `bot`, `spider`...; holding one of them is not enough.
            ("Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0 (via robots-proxy)", "*"),
            ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Botanical-Garden-App/3.2", "*"),
            ("Mozilla/5.0 (compatible; MJ12bot/v1.4.4; http://www.majestic12.co.uk/bot.php?+)", "MJ"),
            ("Mozilla/5.0 (compatible; archive.org_bot +http://www.archive.org/details/archive.org_bot)", "archive"),
            ("Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)", "Baiduspider"),
            ("Mozilla/5.0 (compatible; Yahoo! Slurp; http://help.yahoo.com/help/us/ysearch/slurp)", "Slurp"),
            ("Mozilla/5.0 (X11; U; Linux x86_64; en-US; rv:1.9.0.19; aggregator:Spinn3r (Spinn3r 3.1); http://spinn3r.com/robot) Gecko/2010040121 Firefox/3.0.19", "*"),
            ("Mozilla/5.0 (compatible; AdsBot-Google; +http://www.google.com/adsbot.html)", "AdsBot-Google"),
        ];
        for (ua, want) in cases {
            assert_eq!(agent(ua.as_bytes()), want, "{ua}");
        }
    }
}
