use super::*;

/// Every entry of `input` as `url|line|lastmod|problem`, then the error
/// that ended it, if one did.
fn read(
    input: &[u8],
    options: &SitemapOptions,
) -> (Vec<String>, Option<String>) {
    let mut out = vec![];
    let mut sitemap = match Sitemap::open(input, "s", options) {
        Ok(s) => s,
        Err(e) => return (out, Some(e.to_string())),
    };
    loop {
        match sitemap.next_entry() {
            Ok(Some(e)) => out.push(format!(
                "{}|{}|{}|{}",
                e.url,
                e.line,
                e.lastmod.unwrap_or_default(),
                e.problem.map_or("", Problem::reason)
            )),
            Ok(None) => return (out, None),
            Err(e) => return (out, Some(e.to_string())),
        }
    }
}

fn all(input: &[u8]) -> (Vec<String>, Option<String>) {
    read(input, &SitemapOptions::default())
}

#[test]
fn urlset_entries_with_lines_and_lastmod() {
    let xml = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n\
        xmlns:image=\"http://www.google.com/schemas/sitemap-image/1.1\">\n\
  <url><loc> https://a.com/x?a=1&amp;b=&#50; </loc><lastmod>2024-01-02</lastmod></url>\n\
  <url>\n    <loc><![CDATA[https://a.com/c]]></loc>\n\
    <image:image><image:loc>https://img.a.com/i.png</image:loc></image:image>\n  </url>\n\
  <url><lastmod>2024</lastmod></url>\n\
  <url><loc>not a url</loc></url>\n\
</urlset>\n";
    let (entries, err) = all(xml);
    assert_eq!(err, None);
    assert_eq!(
        entries,
        [
            "https://a.com/x?a=1&b=2|4|2024-01-02|",
            "https://a.com/c|6||",
            "|9|2024|no <loc> in the entry",
            "not a url|10||not an absolute http or https URL",
        ]
    );
}

#[test]
fn index_entries_are_sitemaps() {
    let xml = b"<sitemapindex><sitemap><loc>https://a.com/s1.xml</loc>\
</sitemap></sitemapindex>";
    let mut s =
        Sitemap::open(&xml[..], "i", &SitemapOptions::default()).unwrap();
    let e = s.next_entry().unwrap().unwrap();
    assert_eq!(
        (e.kind, e.url.as_str()),
        (EntryKind::Sitemap, "https://a.com/s1.xml")
    );
    assert!(s.next_entry().unwrap().is_none());
}

#[test]
fn entities_are_never_expanded() {
    let mut bomb = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n",
    );
    for i in 1..10 {
        let prev =
            if i == 1 { "lol".to_string() } else { format!("lol{}", i - 1) };
        bomb += &format!(
            "<!ENTITY lol{i} \"{}\">\n",
            format!("&{prev};").repeat(10)
        );
    }
    bomb +=
        "]>\n<urlset><url><loc>https://a.com/&lol9;</loc></url></urlset>\n";
    let (entries, err) = all(bomb.as_bytes());
    assert_eq!(err, None);
    assert_eq!(
        entries,
        ["https://a.com/|14||an entity reference XML does not define (DTD entities are not expanded)"]
    );
}

#[test]
fn deep_nesting_is_an_error_with_its_offset() {
    let xml = format!("<urlset>{}", "<a>".repeat(100));
    let (entries, err) = all(xml.as_bytes());
    assert!(entries.is_empty());
    assert_eq!(
        err.as_deref(),
        Some("s: elements nested more than 64 deep at byte offset 197")
    );
}

#[test]
fn a_long_loc_is_cut_in_bounded_memory() {
    let options =
        SitemapOptions { max_event_bytes: 100, ..Default::default() };
    let long = format!(
        "<urlset><url><loc>https://a.com/{}</loc></url>\
         <url><loc>https://a.com/ok</loc></url></urlset>",
        "x".repeat(100_000)
    );
    let (entries, err) = read(long.as_bytes(), &options);
    assert_eq!(err, None);
    assert_eq!(
        entries,
        [
            "|1||longer than an XML text or line may be (1 MiB)",
            "https://a.com/ok|1||"
        ]
    );
    // Many short pieces add up as one text.
    let pieces = format!(
        "<urlset><url><loc>https://a.com/{}</loc></url></urlset>",
        "&amp;".repeat(100)
    );
    assert_eq!(
        read(pieces.as_bytes(), &options).0,
        ["|1||longer than an XML text or line may be (1 MiB)"]
    );
    // A tag that long is an error.
    let tag = format!("<urlset><url {}/></urlset>", "a".repeat(1000));
    assert_eq!(
        read(tag.as_bytes(), &options).1.as_deref(),
        Some("s: a tag, comment or DTD longer than 100 bytes, from byte offset 8: not a sitemap")
    );
}

#[test]
fn malformed_xml_after_the_entries_before_it() {
    let xml = b"<urlset>\n<url><loc>https://a.com/1</loc></url>\n<url><loc>https://a.com/2</lox></url>\n</urlset>";
    let (entries, err) = all(xml);
    assert_eq!(entries, ["https://a.com/1|2||"]);
    assert_eq!(err.as_deref(), Some(
            "s: malformed XML at byte offset 72: ill-formed document: expected `</loc>`, but `</lox>` was found"
        ));
}

#[test]
fn truncated_and_wrong_roots() {
    assert_eq!(
        all(b"<urlset><url><loc>https://a.com/1</loc></url>").1.as_deref(),
        Some(
            "s: the XML ends inside an element (truncated?) at byte offset 45"
        )
    );
    assert_eq!(
        all(b"<?xml version=\"1.0\"?><rss></rss>").1.as_deref(),
        Some("s: root element <rss>, not <urlset> or <sitemapindex>: not a sitemap at byte offset 21")
    );
    assert_eq!(
        all(b"<!DOCTYPE html>\n<html><body>Not found</body></html>").1.as_deref(),
        Some("s is an HTML page, not a sitemap (a web page served in its place?)")
    );
}

#[test]
fn text_sitemaps_one_url_a_line() {
    let (entries, err) = all(
        b"\xEF\xBB\xBFhttps://a.com/1\r\n\n  https://a.com/2  \nftp://a.com/3",
    );
    assert_eq!(err, None);
    assert_eq!(
        entries,
        [
            "https://a.com/1|1||",
            "https://a.com/2|3||",
            "ftp://a.com/3|4||not an absolute http or https URL",
        ]
    );
}

#[test]
fn llms_txt_links_made_absolute() {
    let text = b"# Example\n\n> A site.\n\n## Docs\n\n- [Intro](/docs/intro.md): start\n\
- [API](api.md \"title\") and [Blog](https://blog.example.com/) [top](#top)\n\
```\n[not](/code)\n```\n- [Wiki](<./w/a b.md>)\n";
    let origin = SitemapOptions {
        origin: Some("https://example.com/".into()),
        ..Default::default()
    };
    let (entries, err) = read(text, &origin);
    assert_eq!(err, None);
    assert_eq!(
        entries,
        [
            "https://example.com/docs/intro.md|7||",
            "https://example.com/api.md|8||",
            "https://blog.example.com/|8||",
            "https://example.com/w/a b.md|12||white space or control characters in the URL",
        ]
    );
    // Without an origin: paths from the root.
    let (entries, _) = all(text);
    assert_eq!(entries[0], "/docs/intro.md|7||");
    assert_eq!(entries[1], "/api.md|8||");
}

#[test]
fn gzip_is_read_as_it_is() {
    use std::io::Write;
    let mut gz =
        flate2::write::GzEncoder::new(vec![], flate2::Compression::fast());
    gz.write_all(b"<urlset><url><loc>https://a.com/z</loc></url></urlset>")
        .unwrap();
    let (entries, err) = all(&gz.finish().unwrap());
    assert_eq!(
        (entries, err),
        (vec!["https://a.com/z|1||".to_string()], None)
    );
}

#[test]
fn urls_checked() {
    assert_eq!(check_url("HTTPS://a.com"), None);
    assert_eq!(check_url("http://a.com/x y"), Some(Problem::Space));
    assert_eq!(check_url("/x"), Some(Problem::NotHttp));
    assert_eq!(check_url("https:///x"), Some(Problem::NotHttp));
    for p in Problem::ALL {
        assert_eq!(Problem::from_number(p as u8), Some(p));
    }
}
