"""The DuckDB and Polars recipes (robots_batch.duckdb, robots_batch.polars):
row by row the verdicts of Matcher.evaluate, Crawl.evaluate and the
command, null, non-ASCII and bad URLs included; and docs/PYTHON.md's examples
as written. Each engine's tests skip where it is not installed."""

import csv
import datetime
import io
import json
import os
import re
import subprocess
import sys

import pyarrow as pa
import pytest

import robots_batch
from robots_batch import Crawl, Matcher

from conftest import ROOT, run
from test_api import CRAWL_URLS, CRAWL_WANT, FETCHES, ROBOTS


def _polars():
    return pytest.importorskip(
        "polars", reason="polars is not installed (pip install polars): its recipe is not tested"
    )


def _duckdb():
    return pytest.importorskip(
        "duckdb", reason="duckdb is not installed (pip install duckdb): its recipe is not tested"
    )


URLS = [
    "https://example.com/",
    "https://example.com/private/plans",
    "https://example.com/private/press/release",
    "https://example.com/docs/report.pdf",
    "https://example.com/docs/report.pdf?download=1",
    None,
    "https://example.com/private/\u00e9t\u00e9",
    "https://\u4f8b\u3048.jp/private/x",
    "https://example.com/%E2%82%AC/r.pdf",
    "not a url",
    "",
    "http://[::1/private/",
    "/private/relative",
    "https://example.com/robots.txt",
]

# Each URL as many times over as makes several DuckDB vectors (of 2,048
# rows) and streaming batches.
MANY = URLS * 700


def fetch_rows():
    """FETCHES as columns: url (or origin), status, body, location."""
    return {
        "url": [f.get("url") for f in FETCHES],
        "origin": [f.get("origin") for f in FETCHES],
        "status": [f.get("status") for f in FETCHES],
        "body": [None if f.get("body") is None else (
            f["body"] if isinstance(f["body"], bytes) else f["body"].encode()) for f in FETCHES],
        "location": [f.get("location") for f in FETCHES],
    }


def rows(table):
    """A table's or record batch's rows as tuples."""
    return [tuple(r.values()) for r in table.to_pylist()]


def test_the_recipes_import_without_their_engine():
    # Where neither engine is installed, the modules still import (their
    # engine is imported when called), so robots_batch never needs one.
    code = ("import sys; sys.modules['duckdb'] = sys.modules['polars'] = None; "
            "import robots_batch.duckdb, robots_batch.polars; print('ok')")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout == "ok\n", p.stderr


# --- Polars ---


def test_polars_expression_gives_matcher_verdicts():
    pl = _polars()
    from robots_batch.polars import verdicts

    df = pl.DataFrame({"url": MANY})
    got = df.with_columns(verdict=verdicts(pl.col("url"), robots=ROBOTS, agents="GPTBot"))
    want = Matcher(ROBOTS, "GPTBot").evaluate(pa.array(MANY))
    assert got["verdict"].dtype == pl.String
    assert got["verdict"].to_list() == want.column("verdict").to_pylist()
    assert got["url"].to_list() == MANY
    # Lazy, with the streaming engine cutting the column into batches.
    lazy = df.lazy().with_columns(verdict=verdicts(pl.col("url"), robots=ROBOTS, agents="*"))
    streamed = lazy.collect(engine="streaming")
    assert streamed["verdict"].to_list() == Matcher(ROBOTS).verdicts(MANY)
    assert [v is None for v in streamed["verdict"].to_list()] == [u is None for u in MANY]


def test_polars_series_binary_urls_and_a_matcher_given():
    pl = _polars()
    from robots_batch.polars import verdicts

    m = Matcher(ROBOTS, "ExampleBot", dialect="google")
    raw = [b"/private/\xff\xfe", None, "/private/press/\u00e9".encode(), b"/x.pdf", b""]
    got = verdicts(pl.Series("u", raw, dtype=pl.Binary), m)
    assert isinstance(got, pl.Series) and got.name == "u"
    assert got.to_list() == m.verdicts(raw)
    assert got.to_list() == ["disallowed", None, "allowed", "disallowed", "allowed"]


def test_polars_explain_and_usage_give_a_struct_of_evaluate_columns():
    pl = _polars()
    from robots_batch.polars import verdicts

    robots = ROBOTS + b"Content-Usage: train-ai=n\n"
    m = Matcher(robots, ["GPTBot", "ExampleBot"])
    df = pl.DataFrame({"url": MANY})
    got = df.select(v=verdicts(pl.col("url"), m, explain=True, usage=True)).unnest("v")
    want = m.evaluate(pa.array(MANY), explain=True, usage=True)
    assert got.columns == want.schema.names
    assert got.rows() == rows(want)
    assert "GPTBot_train_ai" in got.columns and "ExampleBot_rule" in got.columns
    # A null URL is a null struct, not a struct of nulls.
    structs = df.select(v=verdicts(pl.col("url"), m, explain=True))["v"]
    assert structs.is_null().to_list() == [u is None for u in MANY]
    assert verdicts(pl.Series("u", [None, None], dtype=pl.String), m).null_count() == 2
    one = df.select(verdicts(pl.col("url"), robots=ROBOTS, explain=True).struct.field("rule"))
    assert one.to_series().to_list() == Matcher(ROBOTS).evaluate(
        pa.array(MANY), explain=True).column("rule").to_pylist()


def test_polars_each_url_by_its_origin_fetches_from_a_polars_frame():
    pl = _polars()
    from robots_batch.polars import verdicts

    fetches = pl.DataFrame(fetch_rows(), schema_overrides={"body": pl.Binary})
    urls = CRAWL_URLS * 300
    df = pl.DataFrame({"url": urls})
    got = df.select(v=verdicts(pl.col("url"), fetches=fetches, agents="GPTBot")).unnest("v")
    assert got.columns == ["verdict", "reason"]
    assert got.rows() == [(None, None) if w is None else w for w in CRAWL_WANT] * 300
    crawl = Crawl(fetches=FETCHES, agents=["GPTBot", "CCBot"], on_401_403="disallow")
    got = df.select(v=verdicts(pl.col("url"), crawl, explain=True)).unnest("v")
    assert got.rows() == rows(crawl.evaluate(pa.array(urls), explain=True))


def test_polars_bad_arguments_are_clear_errors():
    pl = _polars()
    from robots_batch.polars import verdicts

    with pytest.raises(ValueError, match="exactly one of"):
        verdicts(pl.col("url"))
    with pytest.raises(ValueError, match="exactly one of"):
        verdicts(pl.col("url"), robots=ROBOTS, fetches=FETCHES)
    with pytest.raises(TypeError, match="go to the Matcher"):
        verdicts(pl.col("url"), Matcher(ROBOTS), agents="GPTBot")
    with pytest.raises(TypeError, match="Matcher or Crawl"):
        verdicts(pl.col("url"), ROBOTS)
    with pytest.raises(TypeError, match="Expr or Series"):
        verdicts(["https://example.com/"], robots=ROBOTS)
    with pytest.raises(ValueError, match="usage=True needs a Matcher"):
        verdicts(pl.col("url"), fetches=FETCHES, usage=True)
    # Polars passes the error on as it is (older versions wrap it).
    with pytest.raises((TypeError, pl.exceptions.ComputeError), match="string or binary"):
        pl.DataFrame({"url": [1, 2]}).select(verdicts(pl.col("url"), robots=ROBOTS))


# --- DuckDB ---


def duckdb_urls(duckdb, urls, threads=2):
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    table = pa.table({"i": pa.array(range(len(urls)), pa.int64()), "url": pa.array(urls, pa.string())})
    con.register("urls_arrow", table)
    # A native table, so that DuckDB scans it in parallel.
    con.execute("CREATE TABLE urls AS FROM urls_arrow")
    return con


def test_duckdb_function_gives_matcher_verdicts():
    duckdb = _duckdb()
    import robots_batch.duckdb

    con = duckdb_urls(duckdb, MANY)
    assert robots_batch.duckdb.register(con, "verdict", robots=ROBOTS, agents="GPTBot") is con
    got = con.sql("SELECT url, verdict(url) AS v FROM urls ORDER BY i").fetchall()
    want = Matcher(ROBOTS, "GPTBot").verdicts(MANY)
    assert [v for _, v in got] == want
    assert [u for u, _ in got] == MANY
    assert con.sql("SELECT typeof(verdict('/a'))").fetchall() == [("VARCHAR",)]
    counts = dict(con.sql("SELECT verdict(url), count(*) FROM urls GROUP BY ALL").fetchall())
    assert counts == {v: want.count(v) for v in set(want)}


def test_duckdb_explain_and_usage_give_a_struct_of_evaluate_columns():
    duckdb = _duckdb()
    import robots_batch.duckdb

    robots = ROBOTS + b"Content-Usage: train-ai=n\n"
    m = Matcher(robots, ["GPTBot", "ExampleBot"])
    con = duckdb_urls(duckdb, MANY)
    robots_batch.duckdb.register(con, "why", m, explain=True, usage=True)
    got = con.sql("SELECT unnest(why(url)) FROM urls ORDER BY i")
    want = m.evaluate(pa.array(MANY), explain=True, usage=True)
    assert got.columns == want.schema.names
    # A NULL URL is a NULL struct, which unnest gives as NULL columns.
    assert got.fetchall() == rows(want)
    nulls = con.sql("SELECT why(url) IS NULL FROM urls ORDER BY i").fetchall()
    assert nulls == [(u is None,) for u in MANY]
    # A vector of NULLs only, and no rows at all.
    assert con.sql("SELECT why(NULL::VARCHAR)").fetchall() == [(None,)]
    assert con.sql("SELECT why(url) FROM urls WHERE false").fetchall() == []
    robots_batch.duckdb.register(con, "rule_of", robots=ROBOTS, explain=True)
    got = con.sql("SELECT rule_of(url).rule, rule_of(url).line FROM urls ORDER BY i").fetchall()
    one = Matcher(ROBOTS).evaluate(pa.array(MANY), explain=True)
    assert got == list(zip(one.column("rule").to_pylist(), one.column("line").to_pylist()))


def test_duckdb_each_url_by_its_origin_fetches_from_a_duckdb_table():
    duckdb = _duckdb()
    import robots_batch.duckdb

    urls = CRAWL_URLS * 300
    con = duckdb_urls(duckdb, urls)
    con.register("fetches_arrow", pa.table(fetch_rows()))
    con.execute("CREATE TABLE fetches AS FROM fetches_arrow")
    robots_batch.duckdb.register(con, "crawl_verdict", fetches=con.sql("FROM fetches"), agents="GPTBot")
    got = con.sql("SELECT crawl_verdict(url).verdict, crawl_verdict(url).reason FROM urls ORDER BY i")
    assert got.fetchall() == [(None, None) if w is None else w for w in CRAWL_WANT] * 300
    crawl = Crawl(fetches=FETCHES, agents=["GPTBot", "CCBot"], on_5xx="allow")
    robots_batch.duckdb.register(con, "judged", crawl, explain=True)
    got = con.sql("SELECT unnest(judged(url)) FROM urls ORDER BY i").fetchall()
    assert got == rows(crawl.evaluate(pa.array(urls), explain=True))


def test_duckdb_bad_arguments_are_clear_errors():
    duckdb = _duckdb()
    import robots_batch.duckdb

    con = duckdb.connect()
    with pytest.raises(ValueError, match="exactly one of"):
        robots_batch.duckdb.register(con, "v")
    with pytest.raises(TypeError, match="go to the Matcher"):
        robots_batch.duckdb.register(con, "v", Crawl(fetches=[]), on_5xx="allow")
    with pytest.raises(ValueError, match="dialect"):
        robots_batch.duckdb.register(con, "v", robots=ROBOTS, dialect="rfc2616")


# --- both against the command ---


def test_both_equal_the_command_row_by_row(binary, tmp_path):
    """Every non-null URL (a file has no null line) through the command,
    with --explain, against both engines' struct columns."""
    pl, duckdb = _polars(), _duckdb()
    import robots_batch.duckdb
    from robots_batch.polars import verdicts

    robots = tmp_path / "robots.txt"
    robots.write_bytes(ROBOTS)
    urls = [u for u in MANY if u is not None]
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    out = run(binary, "--no-header", "--explain", "-a", "GPTBot,ExampleBot", str(robots), str(urls_file))
    want = list(csv.reader(io.StringIO(out.decode("utf-8"))))
    assert [r[0] for r in want] == urls
    m = Matcher(ROBOTS, ["GPTBot", "ExampleBot"])
    polars_rows = pl.DataFrame({"url": urls}).select(
        v=verdicts(pl.col("url"), m, explain=True)).unnest("v").rows()
    con = duckdb_urls(duckdb, urls)
    robots_batch.duckdb.register(con, "why", m, explain=True)
    duck_rows = con.sql("SELECT unnest(why(url)) FROM urls ORDER BY i").fetchall()
    as_text = lambda row: ["" if v is None else str(v) for v in row]
    for want_row, p, d in zip(want, polars_rows, duck_rows):
        assert as_text(p) == want_row[1:], want_row[0]
        assert as_text(d) == want_row[1:], want_row[0]
    assert len(polars_rows) == len(duck_rows) == len(want)


def test_both_equal_crawl_mode_of_the_command(binary, tmp_path):
    pl, duckdb = _polars(), _duckdb()
    import robots_batch.duckdb
    from robots_batch.polars import verdicts

    index = tmp_path / "index.jsonl"
    with open(index, "w") as f:
        for fetch in FETCHES:
            row = {"url": fetch.get("url") or fetch["origin"] + "/robots.txt"}
            for key in ("status", "location"):
                if fetch.get(key) is not None:
                    row[key] = fetch[key]
            if fetch.get("body") is not None:
                body = fetch["body"]
                row["body"] = body.decode() if isinstance(body, bytes) else body
            f.write(json.dumps(row) + "\n")
    urls = [u for u in CRAWL_URLS + URLS if u is not None] * 40
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n", encoding="utf-8")
    out = run(binary, "crawl", "--no-header", "--explain", "--robots-index", str(index),
              "-a", "GPTBot", str(urls_file))
    want = [r[1:] for r in csv.reader(io.StringIO(out.decode("utf-8")))]
    assert len(want) == len(urls)
    fetches = pl.read_ndjson(index)
    polars_rows = pl.DataFrame({"url": urls}).select(
        v=verdicts(pl.col("url"), fetches=fetches, agents="GPTBot", explain=True)).unnest("v").rows()
    con = duckdb_urls(duckdb, urls)
    robots_batch.duckdb.register(
        con, "judged", fetches=con.sql(f"FROM read_json('{index}')"), agents="GPTBot", explain=True)
    duck_rows = con.sql("SELECT unnest(judged(url)) FROM urls ORDER BY i").fetchall()
    as_text = lambda row: ["" if v is None else str(v) for v in row]
    assert [as_text(r) for r in polars_rows] == want
    assert [as_text(r) for r in duck_rows] == want


# --- docs/PYTHON.md's examples, as written ---


def readme_blocks(path, start, end):
    """The ```python blocks of a Markdown file between two headings."""
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    text = text[text.index(start):]
    text = text[: text.index(end)] if end else text
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_the_readme_examples_run_as_written(monkeypatch):
    _polars(), _duckdb()
    blocks = readme_blocks("docs/PYTHON.md", "## DuckDB and Polars", "## In Spark")
    assert len(blocks) >= 2
    monkeypatch.chdir(ROOT)
    scope = {}
    for block in blocks:
        exec(compile(block, "docs/PYTHON.md", "exec"), scope)
    # The examples end in the results their comments give.
    assert scope["blocked"] == [("https://www.example.com/cart/",)]
    assert scope["df"]["verdict"].to_list() == ["disallowed", "allowed", None]
    assert scope["why"].columns == ["verdict", "line", "rule", "group", "reason"]
    judged = scope["con"].sql("SELECT judged(url).verdict, judged(url).reason FROM urls").fetchall()
    assert sorted(judged, key=str) == [("allowed", "rule"), ("disallowed", "rule"), (None, None)]
    # Dated captures.
    assert [tuple(v) for v in scope["newest"]] == [("disallowed", "rule")]
    assert [tuple(v) for v in scope["in_march"]] == [("allowed", "rule")]
    assert [(e.verdict, e.reason, e.capture) for e in scope["then"]] == [
        ("allowed", "rule", "2024-01-01T00:00:00Z"), ("disallowed", "rule", "2024-06-01T00:00:00Z"),
        ("allowed", "rule;before-first", "2024-01-01T00:00:00Z")]
    assert scope["docs"]["robots"].to_list() == [
        {"verdict": "allowed", "reason": "rule"}, {"verdict": "disallowed", "reason": "rule"}]


# --- dated captures ---


def test_polars_time_column_judges_each_url_at_its_fetch_time():
    pl = _polars()
    from test_captures import FETCHES
    from robots_batch.polars import verdicts

    df = pl.DataFrame({
        "link": ["https://a.com/private/x"] * 4,
        "fetched": ["2024-02-01", "2024-07-01T12:00:00Z", None, "soon"],
    })
    got = df.select(v=verdicts(pl.col("link"), fetches=FETCHES, time_column="fetched")).unnest("v")
    want = [("allowed", "rule"), ("disallowed", "rule"), ("unknown", "no-time"),
            ("unknown", "no-time")]
    assert got.rows() == want
    # A Polars frame of fetches, dates as Polars datetimes; times as an
    # expression; a Series beside a Series.
    dated = pl.DataFrame({
        "url": ["https://a.com/robots.txt"] * 2, "status": [200, 200],
        "body": [FETCHES[0]["body"], FETCHES[1]["body"]],
        "date": [datetime.datetime(2024, 6, 1), datetime.datetime(2024, 1, 1)],
    })
    when = pl.Series([datetime.datetime(2024, 2, 1), datetime.datetime(2024, 7, 1), None, None])
    got = df.with_columns(when=when.dt.replace_time_zone("UTC")).select(
        verdicts(pl.col("link"), fetches=dated, time_column=pl.col("when"), explain=True)
    ).unnest("link")
    assert got.select("verdict", "reason", "capture").rows() == [
        ("allowed", "rule", "2024-01-01T00:00:00Z"), ("disallowed", "rule", "2024-06-01T00:00:00Z"),
        ("unknown", "no-time", None), ("unknown", "no-time", None)]
    series = verdicts(df["link"], fetches=dated, time_column=df["fetched"])
    assert series.struct.unnest().rows() == want
    # Without times, the newest capture; as of a date, the one then.
    newest = df.select(v=verdicts(pl.col("link"), fetches=FETCHES)).unnest("v")
    assert newest.rows() == [("disallowed", "rule")] * 4
    as_of = df.select(v=verdicts(pl.col("link"), fetches=FETCHES, as_of="2024-02-01")).unnest("v")
    assert as_of.rows() == [("allowed", "rule")] * 4
    with pytest.raises(ValueError, match="at_fetch_time=True"):
        verdicts(pl.col("link"), robots=b"User-agent: *\n", time_column="fetched")
    with pytest.raises(ValueError, match="give the times too"):
        verdicts(pl.col("link"), Crawl(fetches=FETCHES, at_fetch_time=True))


def test_duckdb_function_takes_the_fetch_time_as_a_second_argument():
    duckdb = _duckdb()
    import robots_batch.duckdb
    from test_captures import FETCHES

    con = duckdb.connect()
    con.sql("CREATE TABLE docs AS SELECT * FROM (VALUES "
            "(1, 'https://a.com/private/x', TIMESTAMP '2024-02-01 00:00:00'), "
            "(2, 'https://a.com/private/x', TIMESTAMP '2024-07-01 00:00:00'), "
            "(3, 'https://a.com/private/x', NULL), "
            "(4, NULL, TIMESTAMP '2024-07-01 00:00:00')) t(i, url, fetched)")
    robots_batch.duckdb.register(con, "judged", fetches=FETCHES, at_fetch_time=True, explain=True)
    got = con.sql("SELECT j.verdict, j.reason, j.capture FROM "
                  "(SELECT i, judged(url, fetched) AS j FROM docs) ORDER BY i").fetchall()
    assert got == [("allowed", "rule", "2024-01-01T00:00:00Z"),
                   ("disallowed", "rule", "2024-06-01T00:00:00Z"),
                   ("unknown", "no-time", None), (None, None, None)]
    # Strings of times, read by the library; a Crawl given as of a date.
    robots_batch.duckdb.register(con, "at_text", fetches=FETCHES, at_fetch_time=True,
                                 time_type="VARCHAR")
    got = con.sql("SELECT at_text('https://a.com/private/x', t).reason FROM "
                  "(VALUES ('20240201000000'), ('2024-06-01'), ('soon')) v(t)").fetchall()
    assert got == [("rule",), ("rule",), ("no-time",)]
    robots_batch.duckdb.register(con, "as_of", Crawl(fetches=FETCHES, as_of="2024-02-01"))
    assert con.sql("SELECT as_of('https://a.com/private/x').verdict").fetchall() == [("allowed",)]
