//! One robots.txt fetch, as the crawl-log readers (index, WARC) record it.

/// One robots.txt fetch: the HTTP status (0 when the host was
/// unreachable), the body, and the redirect target for a 3xx.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct Fetch {
    /// The HTTP status code; 0 means no response at all.
    pub status: u16,
    /// The response body (the robots.txt itself for a 2xx).
    pub body: Vec<u8>,
    /// The `Location` of a redirect, as given (absolute or relative).
    pub location: Option<String>,
    /// When it was fetched (a WARC-Date, RFC 3339, a 14-digit timestamp
    /// or seconds; see [`Timestamp::parse`](crate::Timestamp::parse)), if
    /// known: an origin's captures are ordered by it.
    pub date: Option<String>,
}
