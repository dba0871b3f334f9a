/*!
Sitemaps and llms.txt: the URLs a site lists, each with where it was
listed (file, line, and a sitemap's `<lastmod>`).

[`Sitemap`] reads one input, streaming: an XML sitemap (`urlset`, whose
`<url>`s are the entries, or `sitemapindex`, whose `<sitemap>`s name
child sitemaps), a text sitemap (one URL a line) or an llms.txt (the
targets of its Markdown links, made absolute against the site's origin
when they are relative). [`SitemapSet`] reads a root sitemap and, with a
directory to look in, the children of its index from local files.
[`Audit`] checks what they list against the site's robots.txt.

Hostile input stays in bounded memory: entities are never expanded
(a reference to one a DTD declares makes its entry bad, not bigger), an
XML event (a tag, a text, a DTD) longer than [`DEFAULT_MAX_EVENT_BYTES`]
is cut (a text) or an error (markup), and elements may nest only
[`MAX_DEPTH`] deep. Malformed XML is an error with its byte offset, after
the entries read before it.
*/

mod audit;
mod entry;
mod index;
mod reader;
mod source;
mod text;
mod xml;

pub use audit::{host_of, Audit, AuditFinding};
pub use entry::{
    check_url, Entry, EntryKind, Problem, SitemapKind, SitemapOptions,
    DEFAULT_MAX_EVENT_BYTES, MAX_DEPTH,
};
pub use index::SitemapSet;
pub use reader::{kind_of, Sitemap};
pub use source::SitemapSource;

#[cfg(test)]
mod tests;
