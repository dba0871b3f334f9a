//! Sitemaps and llms.txt as input: the hand-written files of
//! tests/data/sitemap (a urlset, an index with a missing child, a text
//! sitemap, an llms.txt, hostile and malformed XML, an HTML page), read
//! by the default command, `crawl`, `check` and `lint --sitemaps`.

use std::io::Write;

use crate::util::{setup, Dir, TestCommand};

/// The files of tests/data/sitemap.
const FILES: [(&str, &str); 9] = [
    ("robots.txt", include_str!("data/sitemap/robots.txt")),
    ("sitemap_index.xml", include_str!("data/sitemap/sitemap_index.xml")),
    ("maps/pages.xml", include_str!("data/sitemap/maps/pages.xml")),
    ("sitemap.txt", include_str!("data/sitemap/sitemap.txt")),
    ("llms.txt", include_str!("data/sitemap/llms.txt")),
    ("billion-laughs.xml", include_str!("data/sitemap/billion-laughs.xml")),
    ("malformed.xml", include_str!("data/sitemap/malformed.xml")),
    ("not-found.html", include_str!("data/sitemap/not-found.html")),
    ("empty.xml", ""),
];

/// A directory holding the files of tests/data/sitemap.
fn site(name: &str) -> (Dir, TestCommand) {
    let (dir, cmd) = setup(name);
    dir.create_dir("maps");
    for (file, text) in FILES {
        dir.create(file, text);
    }
    (dir, cmd)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

const PAGES: &str = "\
url,file,line,lastmod,robots_verdict,robots_error
https://example.com/,maps/pages.xml,5,2025-02-01,allowed,
https://example.com/private/report.pdf,maps/pages.xml,9,,disallowed,
https://example.com/private/press/launch?a=1&b=2,maps/pages.xml,12,,allowed,
https://example.com/docs/intro,maps/pages.xml,13,2025-01-15,allowed,
not a url,maps/pages.xml,14,,unknown,not an absolute http or https URL
";

/// Standard error and output of a run that exits with `code`.
fn run(cmd: &mut TestCommand, code: i32) -> (String, String) {
    let out = cmd.assert_exit_code(code);
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (text(&out.stdout), text(&out.stderr))
}

rbtest!(urlset_rows_with_file_line_and_lastmod, |_dir, _cmd| {
    let (_dir, mut cmd) = site("urlset_rows");
    let (out, err) = run(cmd.args(["robots.txt", "maps/pages.xml"]), 0);
    eqnice!(PAGES, out);
    eqnice!(
        "robots-batch: maps/pages.xml: record 5: not an absolute http or \
         https URL (the only bad record, each judged unknown)\n",
        err
    );
});

rbtest!(urlset_gzip_alike_and_emit, |_dir, _cmd| {
    let (dir, mut cmd) = site("urlset_gzip");
    dir.create("pages.xml.gz", gzip(FILES[2].1.as_bytes()));
    let (out, _) = run(cmd.args(["robots.txt", "pages.xml.gz"]), 0);
    eqnice!(PAGES.replace("maps/pages.xml", "pages.xml.gz"), out);
    let mut emit = dir.command();
    let (out, _) = run(
        emit.args(["--emit", "disallowed", "robots.txt", "pages.xml.gz"]),
        0,
    );
    eqnice!("https://example.com/private/report.pdf\n", out);
});

rbtest!(index_children_from_sitemap_dir, |_dir, _cmd| {
    let (dir, mut cmd) = site("index_children");
    // Without --sitemap-dir the children are URLs like any other.
    let (out, _) = run(cmd.args(["robots.txt", "sitemap_index.xml"]), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         https://example.com/maps/pages.xml,sitemap_index.xml,4,2025-03-01,allowed,\n\
         https://example.com/maps/gone.xml.gz,sitemap_index.xml,8,,allowed,\n",
        out
    );
    let mut cmd = dir.command();
    let args = ["--sitemap-dir", ".", "robots.txt", "sitemap_index.xml"];
    let (out, err) = run(cmd.args(args), 0);
    let expected = PAGES.replace(",maps/pages.xml,", ",./maps/pages.xml,")
        + "https://example.com/maps/gone.xml.gz,sitemap_index.xml,8,,unknown,\
           child sitemap not found in --sitemap-dir (by its URL's path or \
           file name)\n";
    eqnice!(expected, out);
    eqnice!(
        "robots-batch: sitemap_index.xml: a child sitemap not found: \
         https://example.com/maps/gone.xml.gz (listed at sitemap_index.xml:8; \
         looked for ./maps/gone.xml.gz and ./gone.xml.gz)\n\
         robots-batch: sitemap_index.xml: record 5: not an absolute http or \
         https URL (the first of 2 bad records, each judged unknown)\n",
        err
    );
});

rbtest!(text_sitemap_one_url_a_line, |_dir, _cmd| {
    let (_dir, mut cmd) = site("text_sitemap");
    let args = ["--input-format", "sitemap", "robots.txt", "sitemap.txt"];
    let (out, _) = run(cmd.args(args), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         https://example.com/,sitemap.txt,1,,allowed,\n\
         https://example.com/private/a,sitemap.txt,2,,disallowed,\n\
         https://example.com/docs/b,sitemap.txt,4,,allowed,\n",
        out
    );
});

rbtest!(llms_txt_relative_links_made_absolute, |_dir, _cmd| {
    let (dir, mut cmd) = site("llms_txt");
    let args = ["--origin", "https://example.com", "-a", "*,GPTBot"];
    let (out, _) = run(cmd.args(args).args(["robots.txt", "llms.txt"]), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict.*,robots_verdict.GPTBot,robots_error\n\
         https://example.com/docs/intro.md,llms.txt,7,,allowed,disallowed,\n\
         https://example.com/private/notes.md,llms.txt,8,,disallowed,allowed,\n\
         https://example.com/private/press/kit.md,llms.txt,9,,allowed,allowed,\n\
         https://blog.example.com/,llms.txt,13,,allowed,allowed,\n",
        out
    );
    // Without --origin, relative links are paths from the root.
    let mut emit = dir.command();
    let args = ["--emit", "allowed", "robots.txt", "llms.txt"];
    let (out, _) = run(emit.args(args), 0);
    eqnice!(
        "/docs/intro.md\nhttps://example.com/private/press/kit.md\n\
         https://blog.example.com/\n",
        out
    );
});

rbtest!(crawl_judges_each_url_by_its_host, |_dir, _cmd| {
    let (dir, _) = site("crawl_sitemap");
    dir.create_dir("robots");
    dir.create("robots/example.com.txt", FILES[0].1);
    let mut cmd = dir.command();
    let args = ["crawl", "--robots-dir", "robots", "--sitemap-dir", "."];
    let (out, _) = run(cmd.args(args).arg("sitemap_index.xml"), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_reason,robots_error\n\
         https://example.com/,./maps/pages.xml,5,2025-02-01,allowed,no-matching-rule,\n\
         https://example.com/private/report.pdf,./maps/pages.xml,9,,disallowed,rule,\n\
         https://example.com/private/press/launch?a=1&b=2,./maps/pages.xml,12,,allowed,rule,\n\
         https://example.com/docs/intro,./maps/pages.xml,13,2025-01-15,allowed,no-matching-rule,\n\
         not a url,./maps/pages.xml,14,,unknown,,not an absolute http or https URL\n\
         https://example.com/maps/gone.xml.gz,sitemap_index.xml,8,,unknown,,child \
         sitemap not found in --sitemap-dir (by its URL's path or file name)\n",
        out
    );
});

rbtest!(billion_laughs_are_not_expanded, |_dir, _cmd| {
    let (_dir, mut cmd) = site("billion_laughs");
    let (out, _) = run(cmd.args(["robots.txt", "billion-laughs.xml"]), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         https://example.com/,billion-laughs.xml,15,,unknown,an entity \
         reference XML does not define (DTD entities are not expanded)\n\
         https://example.com/fine,billion-laughs.xml,16,,allowed,\n",
        out
    );
});

rbtest!(deep_nesting_stops_with_its_offset, |_dir, _cmd| {
    let (dir, mut cmd) = site("deep_nesting");
    let deep = format!(
        "<urlset><url><loc>https://example.com/a</loc></url>{}",
        "<x>".repeat(1 << 20)
    );
    dir.create("deep.xml", deep);
    let (out, err) = run(cmd.args(["robots.txt", "deep.xml"]), 2);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         https://example.com/a,deep.xml,1,,allowed,\n",
        out
    );
    eqnice!(
        "robots-batch: failed to read deep.xml: deep.xml: elements nested \
         more than 64 deep at byte offset 240\n",
        err
    );
});

rbtest!(a_huge_loc_is_one_bad_row, |_dir, _cmd| {
    let (dir, mut cmd) = site("huge_loc");
    // Three times the 1 MiB an XML text may take, gzip-compressed.
    let huge = format!(
        "<urlset><url><loc>https://example.com/{}</loc></url>\n\
         <url><loc>https://example.com/after</loc></url></urlset>",
        "a".repeat(3 << 20)
    );
    dir.create("huge.xml.gz", gzip(huge.as_bytes()));
    let (out, _) = run(cmd.args(["robots.txt", "huge.xml.gz"]), 0);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         ,huge.xml.gz,1,,unknown,longer than an XML text or line may be (1 MiB)\n\
         https://example.com/after,huge.xml.gz,2,,allowed,\n",
        out
    );
});

rbtest!(malformed_xml_after_the_rows_before_it, |_dir, _cmd| {
    let (_dir, mut cmd) = site("malformed_xml");
    let (out, err) = run(cmd.args(["robots.txt", "malformed.xml"]), 2);
    eqnice!(
        "url,file,line,lastmod,robots_verdict,robots_error\n\
         https://example.com/one,malformed.xml,3,,allowed,\n\
         https://example.com/two,malformed.xml,4,,allowed,\n",
        out
    );
    eqnice!(
        "robots-batch: failed to read malformed.xml: malformed.xml: malformed \
         XML at byte offset 170: ill-formed document: expected `</url>`, but \
         `</lastmod>` was found\n",
        err
    );
});

rbtest!(html_page_named_as_such, |_dir, _cmd| {
    let (_dir, mut cmd) = site("html_page");
    let args = ["--input-format", "sitemap", "robots.txt", "not-found.html"];
    eqnice!(
        "robots-batch: failed to read not-found.html: not-found.html is an \
         HTML page, not a sitemap (a web page served in its place?)",
        cmd.args(args).assert_error()
    );
});

rbtest!(check_judges_the_urls_listed, |_dir, _cmd| {
    let (_dir, mut cmd) = site("check_sitemaps");
    let args = ["check", "robots.txt", "/x", "--sitemaps", "maps/pages.xml"];
    let (out, _) = run(cmd.args(args), 1);
    eqnice!(
        "allowed    /x\n\
         allowed    https://example.com/\n\
         disallowed https://example.com/private/report.pdf\n\
         allowed    https://example.com/private/press/launch?a=1&b=2\n\
         allowed    https://example.com/docs/intro\n\
         unknown    not a url (not an absolute http or https URL)\n",
        out
    );
});

rbtest!(lint_reports_listed_urls_the_robots_txt_blocks, |_dir, _cmd| {
    let (dir, mut cmd) = site("lint_sitemaps");
    let args =
        ["lint", "--sitemap-dir", ".", "--origin", "https://example.com"];
    let files = ["--sitemaps", "sitemap_index.xml", "llms.txt"];
    let (out, err) = run(cmd.args(args).arg("robots.txt").args(files), 1);
    eqnice!(
        "robots.txt:10: sitemap-disallowed: the sitemap \
         https://example.com/private/sitemap-old.xml is disallowed for * by \
         line 3: Disallow: /private/\n\
         robots.txt:11: sitemap-other-host: the sitemap \
         https://cdn.example.net/sitemap.txt is on cdn.example.net, not on \
         the robots.txt's host example.com\n\
         ./maps/pages.xml:9: listed-disallowed: \
         https://example.com/private/report.pdf is listed, and disallowed \
         for * by line 3: Disallow: /private/\n\
         ./maps/pages.xml:14: bad-entry: \"not a url\": not an absolute http \
         or https URL\n\
         sitemap_index.xml:8: bad-entry: \
         \"https://example.com/maps/gone.xml.gz\": child sitemap not found \
         in --sitemap-dir (by its URL's path or file name)\n\
         llms.txt:8: listed-disallowed: https://example.com/private/notes.md \
         is listed, and disallowed for * by line 3: Disallow: /private/\n\
         6 findings\n\
         groups: 2\n  line 2: * (2 rules)\n  line 6: GPTBot (1 rule)\n\
         sitemaps: 3\n\
         \x20 line 9: https://example.com/sitemap_index.xml\n\
         \x20 line 10: https://example.com/private/sitemap-old.xml\n\
         \x20 line 11: https://cdn.example.net/sitemap.txt\n\
         crawl-delays: 0\n",
        out
    );
    eqnice!(
        "robots-batch: sitemap_index.xml: a child sitemap not found: \
         https://example.com/maps/gone.xml.gz (listed at \
         sitemap_index.xml:8; looked for ./maps/gone.xml.gz and \
         ./gone.xml.gz)\n",
        err
    );
    // Per agent asked, in JSON.
    let mut json = dir.command();
    let args = ["lint", "--format", "json", "-a", "GPTBot", "robots.txt"];
    let (out, _) = run(json.args(args).args(["--sitemaps", "llms.txt"]), 1);
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    eqnice!(
        "[{\"agent\":\"\",\"code\":\"sitemap-other-host\",\"file\":\"robots.txt\",\
         \"line\":11,\"message\":\"the sitemap https://cdn.example.net/sitemap.txt \
         is on cdn.example.net, not on the robots.txt's host example.com\",\
         \"rule\":null,\"rule_line\":null,\"url\":\"https://cdn.example.net/sitemap.txt\"},\
         {\"agent\":\"GPTBot\",\"code\":\"listed-disallowed\",\"file\":\"llms.txt\",\
         \"line\":7,\"message\":\"/docs/intro.md is listed, and disallowed for \
         GPTBot by line 7: Disallow: /docs/\",\"rule\":\"Disallow: /docs/\",\
         \"rule_line\":7,\"url\":\"/docs/intro.md\"}]",
        report["sitemap_findings"].to_string()
    );
});
