//! Hints on standard error when an input read as lines of URLs looks like
//! something else: an access log or CSV (each whole line would be judged
//! as a URL), or a crawl log of many hosts judged by one robots.txt.

use robots_batch::sniff;

/// How many leading bytes (decompressed) the hints look at: enough lines
/// to see a crawl log's many hosts.
pub(crate) const HINT_BYTES: usize = 16 << 10;

/// Among the URLs of the first [`HINT_BYTES`], this many hosts or more
/// hint at a crawl log: a site's own URL list names a few (`www.`, `cdn.`).
pub(crate) const MANY_HOSTS: usize = 20;

/// Says on standard error what `head`, the first bytes of the input
/// `name` read as lines of URLs, looks like when it looks like records; or
/// else, when `one_robots` (the default command, not `crawl`), that URLs
/// of many hosts are judged by one robots.txt.
pub(crate) fn lines_hints(name: &str, head: &[u8], one_robots: bool) {
    if sniff::looks_like_access_log(head) {
        let fix = match one_robots {
            true => "give --input-format access-log",
            // Crawl mode judges URLs by their origin; a log's paths have none.
            false => {
                "judge it with the default command and the site's \
                 robots.txt, --input-format access-log"
            }
        };
        message!(
            "{name}: looks like a web server access log, read as lines of \
             URLs, each whole line judged as one ({fix})"
        );
        return;
    }
    if let Some(delimiter) = sniff::looks_like_csv(head) {
        let (kind, format) = match delimiter {
            b'\t' => ("TSV", "tsv"),
            _ => ("CSV", "csv"),
        };
        message!(
            "{name}: looks like {kind} with a header, read as lines of URLs, \
             each whole row judged as one (give --input-format {format} \
             --url-column NAME)"
        );
        return;
    }
    let hosts = sniff::distinct_hosts(head);
    if one_robots && hosts >= MANY_HOSTS {
        message!(
            "{name}: URLs of {hosts} hosts in its first lines, all judged by \
             the one robots.txt given (to judge each URL by its own site's \
             robots.txt, use `robots-batch crawl`)"
        );
    }
}
