//! Inputs that are not what they would be taken for (a compressed Parquet
//! file, a categorical URL column, CSV or an access log read as lines, a
//! crawl log judged by one robots.txt), and what `--emit` and `-c` say of
//! the records they leave out or count.

use std::io::Write;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::Int32Type;
use arrow_array::{
    Array, ArrayRef, DictionaryArray, RecordBatch, StringArray,
};
use arrow_schema::{Field, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::arrow::ArrowWriter;

use crate::util::{setup, Dir, TestCommand};

const ROBOTS: &str = "User-agent: *\nDisallow: /private\n";

fn dir(name: &str) -> (Dir, TestCommand) {
    let (dir, cmd) = setup(name);
    dir.create("robots.txt", ROBOTS);
    (dir, cmd)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(vec![], Default::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// The URLs of the Parquet tests, one in four under `/private`, every
/// ninth null.
fn urls() -> Vec<Option<String>> {
    (0..100)
        .map(|i| match (i % 9, i % 4) {
            (4, _) => None,
            (_, 0) => Some(format!("https://a.com/private/{}", i % 5)),
            _ => Some(format!("https://a.com/page/{}", i % 5)),
        })
        .collect()
}

/// The verdict the robots.txt gives a URL of [`urls`].
fn verdict(url: &Option<String>) -> &'static str {
    match url {
        None => "unknown",
        Some(u) if u.contains("/private") => "disallowed",
        Some(_) => "allowed",
    }
}

/// A Parquet file with an `id` column and the URL column `array`.
fn parquet(array: ArrayRef) -> Vec<u8> {
    let ids: ArrayRef = Arc::new(StringArray::from_iter_values(
        (0..array.len()).map(|i| format!("id{i}")),
    ));
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", ids.data_type().clone(), false),
        Field::new("url", array.data_type().clone(), true),
    ]));
    let batch =
        RecordBatch::try_new(schema.clone(), vec![ids, array]).unwrap();
    let mut out = vec![];
    let mut writer = ArrowWriter::try_new(&mut out, schema, None).unwrap();
    writer.write(&batch).unwrap();
    writer.close().unwrap();
    out
}

/// The `robots_verdict` column of the Parquet file `name` in `dir`.
fn verdicts(dir: &Dir, name: &str) -> Vec<String> {
    let file = std::fs::File::open(dir.path().join(name)).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .unwrap()
        .build()
        .unwrap();
    let mut all = vec![];
    for batch in reader {
        let batch = batch.unwrap();
        let column = batch.column_by_name("robots_verdict").unwrap();
        let column = column.as_string::<i32>();
        all.extend((0..column.len()).map(|i| column.value(i).to_string()));
    }
    all
}

/// A gzip- or zstd-compressed Parquet file, or one on standard input, is
/// read as Parquet (through a temporary file), as its decompressed `PAR1`
/// says; it used to be read as lines of binary URLs, with exit 0.
#[test]
fn compressed_parquet_is_read_as_parquet() {
    let (dir, _) = dir("parquet_gz");
    let urls = urls();
    let array: ArrayRef = Arc::new(StringArray::from(urls.clone()));
    let bytes = parquet(array);
    dir.create("in.parquet.gz", gzip(&bytes));
    dir.create("in.parquet.zst", zstd::encode_all(&bytes[..], 3).unwrap());
    let want: Vec<&str> = urls.iter().map(verdict).collect();
    for (input, out) in
        [("in.parquet.gz", "gz.parquet"), ("in.parquet.zst", "zst.parquet")]
    {
        let output =
            dir.command().args(["robots.txt", input, "-o", out]).output();
        assert!(output.status.success(), "{output:?}");
        assert_eq!(verdicts(&dir, out), want, "{input}");
    }
    // Standard input too, named or found from its bytes.
    let output = dir
        .command()
        .args(["robots.txt", "-", "-o", "stdin.parquet"])
        .stdin(gzip(&bytes))
        .output();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(verdicts(&dir, "stdin.parquet"), want);
    // And in crawl mode.
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", ROBOTS);
    let output = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "in.parquet.gz"])
        .args(["-o", "crawl.parquet"])
        .output();
    assert!(output.status.success(), "{output:?}");
    assert_eq!(verdicts(&dir, "crawl.parquet"), want);
}

/// A URL column of dictionary-encoded strings (a pandas categorical,
/// Arrow's `dictionary_encode()`) is a string column: it used to be
/// refused.
#[test]
fn dictionary_encoded_url_column_is_read() {
    let (dir, mut cmd) = dir("parquet_dictionary");
    let urls = urls();
    let dictionary: DictionaryArray<Int32Type> =
        urls.iter().map(|u| u.as_deref()).collect();
    let bytes = parquet(Arc::new(dictionary));
    dir.create("in.parquet", &bytes);
    let output =
        cmd.args(["robots.txt", "in.parquet", "-o", "out.parquet"]).output();
    assert!(output.status.success(), "{output:?}");
    let want: Vec<&str> = urls.iter().map(verdict).collect();
    assert_eq!(verdicts(&dir, "out.parquet"), want);
    // --emit keeps the column as it was.
    let output = dir
        .command()
        .args(["--emit", "disallowed", "robots.txt", "in.parquet"])
        .args(["-o", "kept.parquet"])
        .output();
    assert!(output.status.success(), "{output:?}");
    let file = std::fs::File::open(dir.path().join("kept.parquet")).unwrap();
    let reader = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    let rows: usize =
        reader.build().unwrap().map(|b| b.unwrap().num_rows()).sum();
    assert_eq!(rows, want.iter().filter(|&&v| v == "disallowed").count());
}

/// The CSV of the `--url-column` tests: the URL in `link`, not first.
const CSV: &str = "id,link,title\n\
                   1,https://a.com/private/x,one\n\
                   2,https://a.com/open,\"two, three\"\n\
                   3,https://b.com/,four\n";

/// `--url-column` or `--url-field` on an input whose bytes say lines makes
/// it CSV (TSV by its tabs): each whole row used to be judged as a URL.
#[test]
fn url_column_makes_lines_records() {
    let (dir, mut cmd) = dir("url_column_csv");
    dir.create("in.csv", CSV);
    let out =
        cmd.args(["--url-column", "link", "robots.txt", "in.csv"]).stdout();
    assert_eq!(
        out,
        "id,link,title,robots_verdict,robots_error\n\
         1,https://a.com/private/x,one,disallowed,\n\
         2,https://a.com/open,\"two, three\",allowed,\n\
         3,https://b.com/,four,allowed,\n"
    );
    let tsv = CSV.replace(',', "\t").replace("\"two\t three\"", "two");
    dir.create("in.tsv.gz", gzip(tsv.as_bytes()));
    let out = dir
        .command()
        .args(["--url-field", "link", "robots.txt", "in.tsv.gz"])
        .stdout();
    assert_eq!(
        out,
        "id\tlink\ttitle\trobots_verdict\trobots_error\n\
         1\thttps://a.com/private/x\tone\tdisallowed\t\n\
         2\thttps://a.com/open\ttwo\tallowed\t\n\
         3\thttps://b.com/\tfour\tallowed\t\n"
    );
    // In crawl mode each row is judged by its host's robots.txt: it used to
    // be `unknown` every one.
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", ROBOTS);
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /\n");
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--url-column", "link"])
        .arg("in.csv")
        .stdout();
    assert_eq!(
        out,
        "id,link,title,robots_verdict,robots_reason,robots_error\n\
         1,https://a.com/private/x,one,disallowed,rule,\n\
         2,https://a.com/open,\"two, three\",allowed,no-matching-rule,\n\
         3,https://b.com/,four,disallowed,rule,\n"
    );
}

/// Where the URL's field or column cannot be (lines said so, lines that
/// are no CSV, a WARC), naming one is an error, not ignored.
#[test]
fn url_field_without_records_is_an_error() {
    let (dir, _) = dir("url_field_lines");
    dir.create("urls.txt", "https://a.com/private\nhttps://a.com/x\n");
    let err = dir
        .command()
        .args(["--url-field", "u", "robots.txt", "urls.txt"])
        .assert_error();
    assert!(err.contains("--url-field names the URL's field"), "{err}");
    assert!(err.contains("--input-format"), "{err}");
    let err = dir
        .command()
        .args(["--input-format", "lines", "--url-column", "link"])
        .args(["robots.txt", "urls.txt"])
        .assert_error();
    assert!(err.contains("is read as lines (given)"), "{err}");
    dir.create_dir("robots");
    let err = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--url-field", "u"])
        .arg("urls.txt")
        .assert_error();
    assert!(err.contains("--url-field names the URL's field"), "{err}");
}

/// The lines of an access log in the combined log format.
const LOG: &str = "\
203.0.113.9 - - [10/Oct/2024:13:55:36 +0000] \"GET /private/a HTTP/1.1\" 200 512 \"-\" \"CCBot/2.0\"\n\
203.0.113.9 - - [10/Oct/2024:13:55:37 +0000] \"GET /b HTTP/1.1\" 200 512 \"-\" \"GPTBot/1.0\"\n\
198.51.100.2 - frank [10/Oct/2024:13:55:38 +0000] \"GET / HTTP/1.1\" 404 0 \"-\" \"Mozilla/5.0\"\n";

/// An access log or CSV read as lines of URLs gets a hint on standard
/// error, as a robots.txt given for the URLs does; the rows are unchanged.
#[test]
fn records_read_as_lines_get_a_hint() {
    let (dir, _) = dir("lines_hints");
    dir.create("access.log.gz", gzip(LOG.as_bytes()));
    dir.create("in.csv", CSV);
    let out = dir.command().args(["robots.txt", "access.log.gz"]).output();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "robots-batch: access.log.gz: looks like a web server access log, \
         read as lines of URLs, each whole line judged as one (give \
         --input-format access-log)\n"
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 4);
    let out = dir.command().args(["robots.txt", "in.csv"]).output();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        stderr,
        "robots-batch: in.csv: looks like CSV with a header, read as lines \
         of URLs, each whole row judged as one (give --input-format csv \
         --url-column NAME)\n"
    );
    // In crawl mode, which judges no access log, the hint says where to.
    dir.create_dir("robots");
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "access.log.gz"])
        .output();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("looks like a web server access log"), "{stderr}");
    assert!(stderr.contains("the default command"), "{stderr}");
    // A site's own URLs, with commas in them, get none.
    dir.create("urls.txt", "https://a.com/a,b\nhttps://www.a.com/c,d\n/e,f\n");
    dir.command().args(["robots.txt", "urls.txt"]).stdout();
}

/// URLs of many hosts judged by one robots.txt: a hint at `crawl`.
#[test]
fn many_hosts_hint_at_crawl() {
    let (dir, _) = dir("many_hosts");
    let urls: String = (0..300)
        .map(|i| format!("https://host{}.example/p/{i}\n", i % 150))
        .collect();
    dir.create("log.txt", &urls);
    let out = dir.command().args(["robots.txt", "log.txt"]).output();
    assert!(out.status.success(), "{out:?}");
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("robots-batch: log.txt: URLs of ")
            && stderr.contains("hosts in its first lines, all judged by the one robots.txt given")
            && stderr.contains("use `robots-batch crawl`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // A few hosts (a site's www. and cdn.) get none, nor does crawl mode.
    let few: String = (0..300)
        .map(|i| {
            format!("https://{}a.com/p/{i}\n", ["", "www.", "cdn."][i % 3])
        })
        .collect();
    dir.create("site.txt", &few);
    dir.command().args(["robots.txt", "site.txt"]).stdout();
    dir.create_dir("robots");
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "log.txt"])
        .output();
    assert!(out.stderr.is_empty(), "{out:?}");
}

/// A crawl log of three hosts, one without a robots.txt, and a bad record.
fn crawl_log(dir: &Dir) {
    dir.create_dir("robots");
    dir.create("robots/a.com.txt", ROBOTS);
    dir.create("robots/b.com.txt", "User-agent: *\nDisallow: /\n");
    let mut log = String::new();
    for i in 0..10 {
        log.push_str(&format!("{{\"url\":\"https://a.com/{i}\"}}\n"));
        log.push_str(&format!("{{\"url\":\"https://a.com/private/{i}\"}}\n"));
        log.push_str(&format!("{{\"url\":\"https://b.com/{i}\"}}\n"));
        log.push_str(&format!("{{\"url\":\"https://c.com/{i}\"}}\n"));
    }
    log.push_str("{\"link\":\"https://a.com/\"}\n");
    dir.create("log.jsonl", &log);
    let lines: String = log
        .lines()
        .filter_map(|l| l.strip_prefix("{\"url\":\"")?.strip_suffix("\"}"))
        .map(|u| format!("{u}\n"))
        .collect();
    dir.create("log.txt", lines);
}

/// `--emit` says on standard error how many records it left out, and why:
/// the unknown verdicts (naming `--on-missing`) and bad records; it used to
/// say nothing of the unknown ones.
#[test]
fn emit_says_what_it_left_out() {
    let (dir, _) = dir("emit_left_out");
    crawl_log(&dir);
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--emit", "allowed"])
        .arg("log.jsonl")
        .output();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 10);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.ends_with(
            "robots-batch: log.jsonl: --emit allowed kept 10 of 41 records, \
             left out 31: 20 disallowed, 10 unknown (no robots.txt known for \
             their host, which --on-missing allow or disallow decides, or no \
             host), 1 bad records (no URL)\n"
        ),
        "{stderr}"
    );
    // Lines of URLs alike.
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--emit", "disallowed"])
        .arg("log.txt")
        .output();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "robots-batch: log.txt: --emit disallowed kept 20 of 40 lines, left \
         out 20: 10 allowed, 10 unknown (no robots.txt known for their host, \
         which --on-missing allow or disallow decides, or no host)\n"
    );
    // With --on-missing deciding them, nothing is left out unsaid.
    let out = dir
        .command()
        .args(["crawl", "--robots-dir", "robots", "--emit", "allowed"])
        .args(["--on-missing", "allow", "log.txt"])
        .output();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 20);
}

/// `-c` counts records: each agent's verdicts alone, the records kept
/// with `--emit`; it used to be refused.
#[test]
fn count_counts_records() {
    let (dir, _) = dir("count_records");
    let mut jsonl = String::new();
    for i in 0..30 {
        let path = if i % 3 == 0 { "/private" } else { "/open" };
        jsonl.push_str(&format!("{{\"url\":\"https://a.com{path}/{i}\"}}\n"));
    }
    dir.create("in.jsonl", &jsonl);
    dir.create("robots2.txt", "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n");
    let out = dir
        .command()
        .args(["-c", "-a", "*,GPTBot", "robots2.txt", "in.jsonl"])
        .stdout();
    assert_eq!(out, "agent,allowed,disallowed\n*,20,10\nGPTBot,0,30\n");
    let out = dir
        .command()
        .args(["-c", "--emit", "disallowed", "robots.txt", "in.jsonl"])
        .stdout();
    assert_eq!(out, "10\n");
    // Parquet alike, into -o.
    let urls = urls();
    let array: ArrayRef = Arc::new(StringArray::from(urls.clone()));
    dir.create("in.parquet", parquet(array));
    let out = dir
        .command()
        .args(["-c", "--no-header", "robots.txt", "in.parquet", "-o", "n.csv"])
        .output();
    assert!(out.status.success(), "{out:?}");
    let allowed = urls.iter().filter(|u| verdict(u) == "allowed").count();
    let disallowed =
        urls.iter().filter(|u| verdict(u) == "disallowed").count();
    assert_eq!(
        std::fs::read_to_string(dir.path().join("n.csv")).unwrap(),
        format!("*,{allowed},{disallowed}\n")
    );
    // Nothing kept: grep's exit code 1.
    let out = dir
        .command()
        .args(["-c", "--emit", "allowed", "robots.txt", "-"])
        .stdin("{\"url\":\"/private\"}\n")
        .assert_exit_code(1);
    assert_eq!(out.stdout, b"0\n");
}
