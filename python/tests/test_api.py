"""The Python API: the list and Arrow forms of Matcher and Crawl, bad input,
the process-wide cache, threads and the GIL, and agreement with the
conformance vectors and the command."""

import base64
import gzip
import json
import os
import sys
import threading
import warnings

import pyarrow as pa
import pytest

import robots_batch
from robots_batch import Crawl, Matcher

from conftest import run

ROBOTS = b"""\
User-agent: *
Disallow: /private/
Allow: /private/press/
Disallow: /*.pdf$

User-agent: GPTBot
Disallow: /
"""

URLS = [
    "https://example.com/",
    "https://example.com/private/plans",
    "https://example.com/private/press/release",
    "https://example.com/docs/report.pdf",
    "https://example.com/docs/report.pdf?download=1",
    "https://example.com/robots.txt",
]


def test_list_form_gives_one_verdict_per_url():
    m = Matcher(ROBOTS, "ExampleBot")
    assert m.verdicts(URLS) == [
        "allowed", "disallowed", "allowed", "disallowed", "allowed", "allowed",
    ]
    assert m.agents == ["ExampleBot"]
    assert m.dialect == "rfc9309"


def test_the_readme_example():
    from conftest import ROOT

    robots = open(os.path.join(ROOT, "datasets", "example", "robots.txt"), "rb").read()
    m = Matcher(robots, agents=["GPTBot", "CCBot"])
    assert m.verdicts(["https://www.example.com/", b"/private/\xff"], agent="GPTBot") == [
        "disallowed", "disallowed",
    ]
    assert m.explain(["https://www.example.com/cart/"], agent="CCBot") == [
        robots_batch.Explanation("disallowed", "rule", 5, "Disallow: /cart/", "*"),
    ]
    batch = m.evaluate(pa.array(["https://www.example.com/cart/", None]), explain=True)
    assert batch.schema.names[:6] == [
        "GPTBot", "GPTBot_line", "GPTBot_rule", "GPTBot_group", "GPTBot_reason", "CCBot",
    ]
    assert batch.column("CCBot").to_pylist() == ["disallowed", None]


def test_bytes_none_and_invalid_utf8_pass_through():
    m = Matcher(ROBOTS)
    got = m.verdicts([b"/private/\xff\xfe", None, "/private/press/\u00e9", b"", ""])
    assert got == ["disallowed", None, "allowed", "allowed", "allowed"]
    # bytearray and memoryview are bytes too.
    assert m.verdicts([bytearray(b"/x.pdf"), memoryview(b"/private/a")]) == [
        "disallowed", "disallowed",
    ]


def test_empty_batches():
    m = Matcher(ROBOTS)
    assert m.verdicts([]) == []
    assert m.explain([]) == []
    out = m.evaluate(pa.array([], type=pa.string()))
    assert out.num_rows == 0 and out.schema.names == ["verdict"]
    out = m.evaluate(pa.chunked_array([], type=pa.string()))
    assert out.num_rows == 0
    c = Crawl(fetches=[])
    assert c.verdicts([]) == []
    assert c.evaluate(pa.array([], type=pa.string()), explain=True).num_rows == 0


def test_explain_names_the_rule_group_and_reason():
    m = Matcher(ROBOTS, ["GPTBot", "ExampleBot"])
    e = m.explain(URLS[:3] + ["/robots.txt"], agent="ExampleBot")
    assert e[0] == ("allowed", "no-matching-rule", None, None, "*")
    assert e[1] == ("disallowed", "rule", 2, "Disallow: /private/", "*")
    assert e[2] == ("allowed", "rule", 3, "Allow: /private/press/", "*")
    assert e[3].reason == "implicit-robots-txt"
    g = m.explain(["/a"], agent="GPTBot")[0]
    assert (g.verdict, g.line, g.rule, g.group) == ("disallowed", 7, "Disallow: /", "GPTBot")
    assert Matcher(b"User-agent: X\nDisallow: /\n").explain(["/a"])[0].reason == "no-group"


def test_several_agents_need_agent_and_give_wide_columns():
    m = Matcher(ROBOTS, ["GPTBot", "CCBot"])
    with pytest.raises(ValueError, match="agent="):
        m.verdicts(URLS)
    with pytest.raises(ValueError, match="not compiled for agent"):
        m.verdicts(URLS, agent="Nobody")
    assert m.verdicts(URLS[:2], agent="GPTBot") == ["disallowed", "disallowed"]
    assert m.verdicts(URLS[:2], agent="CCBot") == ["allowed", "disallowed"]
    out = m.evaluate(pa.array(URLS[:2]), explain=True)
    assert out.schema.names == [
        "GPTBot", "GPTBot_line", "GPTBot_rule", "GPTBot_group", "GPTBot_reason",
        "CCBot", "CCBot_line", "CCBot_rule", "CCBot_group", "CCBot_reason",
    ]
    assert out.column("CCBot").to_pylist() == ["allowed", "disallowed"]
    assert out.column("GPTBot_line").to_pylist() == [7, 7]


ARROW_TYPES = [pa.string(), pa.large_string(), pa.binary(), pa.large_binary()]
if hasattr(pa, "string_view"):
    ARROW_TYPES += [pa.string_view(), pa.binary_view()]


@pytest.mark.parametrize("kind", ARROW_TYPES, ids=str)
def test_arrow_form_takes_every_string_layout(kind):
    m = Matcher(ROBOTS, "ExampleBot")
    values = URLS + [None]
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or str(kind) == "binary_view":
        values = [None if u is None else u.encode() for u in values]
    array = pa.array(values, type=kind)
    out = m.evaluate(array, explain=True)
    assert isinstance(out, pa.RecordBatch)
    assert out.column("verdict").to_pylist() == m.verdicts(URLS) + [None]
    assert out.column("reason").to_pylist()[-1] is None
    # A slice starts at an offset into the same buffers.
    part = m.evaluate(array.slice(1, 3))
    assert part.column("verdict").to_pylist() == m.verdicts(URLS[1:4])


def test_arrow_form_takes_batches_tables_and_chunks():
    m = Matcher(ROBOTS)
    batch = pa.RecordBatch.from_pydict({"id": [1, 2], "link": URLS[:2]})
    assert m.evaluate(batch, column="link").column(0).to_pylist() == ["allowed", "disallowed"]
    table = pa.Table.from_batches([batch, batch])
    out = m.evaluate(table, column="link")
    assert isinstance(out, pa.Table)
    assert out.column("verdict").to_pylist() == ["allowed", "disallowed"] * 2
    chunked = pa.chunked_array([URLS[:1], URLS[1:3]])
    assert m.evaluate(chunked).column(0).to_pylist() == m.verdicts(URLS[:3])
    # Dictionary-encoded URLs are decoded first.
    encoded = pa.array(URLS + URLS).dictionary_encode()
    assert m.evaluate(encoded).column(0).to_pylist() == m.verdicts(URLS + URLS)
    # A plain list works too, converted once.
    assert m.evaluate(URLS).column(0).to_pylist() == m.verdicts(URLS)


def test_agents_the_command_warns_about_warn_here_too():
    # An empty agent names no group: the `*` groups apply, with a warning.
    with pytest.warns(UserWarning, match="empty"):
        empty = Matcher(ROBOTS, "")
    assert empty.verdicts(URLS) == Matcher(ROBOTS, "*").verdicts(URLS)
    with pytest.warns(UserWarning, match='did you mean "GPTBot"'):
        Matcher(ROBOTS, "GPTBot/1.1")
    # The older standards take an agent's name token: no warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Matcher(ROBOTS, "GPTBot/1.1", dialect="draft1996")
        Matcher(ROBOTS, ["GPTBot", "*"])


class StreamOnly:
    """Speaks the Arrow C stream protocol and nothing else, as a Polars
    Series or a DuckDB relation does."""

    def __init__(self, inner):
        self.inner = inner

    def __arrow_c_stream__(self, requested_schema=None):
        return self.inner.__arrow_c_stream__(requested_schema)


def test_evaluate_takes_arrow_streams():
    m = Matcher(ROBOTS, ["GPTBot", "*"])
    chunks = pa.chunked_array([pa.array(URLS[:2]), pa.array(URLS[2:])])
    want = m.evaluate(pa.array(URLS))
    for stream in (StreamOnly(chunks), StreamOnly(pa.table({"url": URLS, "n": range(len(URLS))}))):
        got = m.evaluate(stream)
        assert isinstance(got, pa.Table)
        assert got.to_pylist() == want.to_pylist()


def test_evaluate_takes_a_polars_series():
    pl = pytest.importorskip("polars", reason="polars is not installed")
    m = Matcher(ROBOTS, "GPTBot")
    got = m.evaluate(pl.Series("url", URLS))
    assert got.column("verdict").to_pylist() == m.verdicts(URLS)
    got = m.evaluate(pl.DataFrame({"url": URLS}))
    assert got.column("verdict").to_pylist() == m.verdicts(URLS)


def test_bad_input_is_a_clear_error():
    with pytest.raises(TypeError, match="bytes or str"):
        Matcher(12)
    with pytest.raises(ValueError, match="no agent"):
        Matcher(ROBOTS, [])
    with pytest.raises(ValueError, match="dialect"):
        Matcher(ROBOTS, dialect="rfc2616")
    with pytest.raises(ValueError, match="trie, dense, lazy, scan, naive"):
        Matcher(ROBOTS, engine="regex")
    m = Matcher(ROBOTS)
    with pytest.raises(ValueError, match="URL 1 is a str with no UTF-8 form"):
        m.verdicts(["https://example.com/", "https://example.com/\udc80"])
    with pytest.raises(TypeError, match="not one str"):
        m.verdicts("https://example.com/")
    with pytest.raises(TypeError, match="str, bytes or None"):
        m.verdicts(["/a", 3])
    with pytest.raises(TypeError, match="Arrow"):
        m._inner.evaluate_arrow(object(), False)
    with pytest.raises(TypeError, match="string or binary"):
        m.evaluate(pa.array([1, 2]))
    with pytest.raises(ValueError, match="on_5xx"):
        Crawl(fetches=[], on_5xx="maybe")
    with pytest.raises(ValueError, match="Crawl needs a source"):
        Crawl(agents="x")
    with pytest.raises(ValueError, match="absolute http"):
        Crawl(fetches=[{"url": "robots.txt", "status": 200}])
    with pytest.raises(OSError, match="nowhere"):
        Crawl(robots_dir="/nowhere/at/all")


def test_engines_and_dialects_agree_on_a_hostile_file():
    rules = "".join(f"Disallow: /*a{i}*b{i}*c$\nAllow: /*a{i}*b\n" for i in range(300))
    robots = ("User-agent: *\n" + rules).encode()
    urls = [f"/x/a{i}/y/b{i}/z{'c' if i % 3 else ''}" for i in range(0, 600, 7)]
    urls += ["/" + "a1b1" * 2000 + "c"]
    for dialect in robots_batch.DIALECTS:
        want = Matcher(robots, dialect=dialect, engine="naive").verdicts(urls)
        for engine in robots_batch.ENGINES:
            assert Matcher(robots, dialect=dialect, engine=engine).verdicts(urls) == want


def test_dfa_is_the_old_name_of_the_trie():
    default = Matcher(ROBOTS)
    assert default.strategies == ["trie"]
    for name in ("dfa", "DFA", "trie"):
        m = Matcher(ROBOTS, engine=name)
        assert m.strategies == ["trie"]
        assert m.verdicts(URLS) == default.verdicts(URLS)


def test_conformance_vectors_pass_through_python(shared):
    cases = {}
    with open(os.path.join(shared, "conformance", "vectors.jsonl"), encoding="utf-8") as f:
        for line in f:
            v = json.loads(line)
            robots = v["robots"].encode() if "robots" in v else base64.b64decode(v["robots_base64"])
            for dialect, want in v["expect"].items():
                cases.setdefault((robots, v["agent"], dialect), []).append((v["url"], want, v["id"]))
    failed = []
    total = 0
    for (robots, agent, dialect), items in cases.items():
        with warnings.catch_warnings():
            # The vectors use agents that are not product tokens on purpose.
            warnings.simplefilter("ignore", UserWarning)
            m = Matcher(robots, agent, dialect, max_robots_bytes=0)
        urls = [u for u, _, _ in items]
        got = m.verdicts(urls)
        arrow = m.evaluate(pa.array(urls)).column(0).to_pylist()
        for (u, want, vid), g, a in zip(items, got, arrow):
            total += 1
            if g != want or a != want:
                failed.append((vid, dialect, u, want, g, a))
    assert total > 1000
    assert failed == []


def _real_urls(shared, n):
    path = os.path.join(shared, "datasets", "urls", "anubhavp28_robots_benchmark_site_links.txt")
    with open(path, "rb") as f:
        return [line.rstrip(b"\r\n") for _, line in zip(range(n), f)]


def test_python_api_equals_the_command(shared, binary, tmp_path):
    robots = os.path.join(shared, "datasets", "robots", "amazon.com.txt")
    urls = _real_urls(shared, 20000)
    urls_file = tmp_path / "urls.txt"
    urls_file.write_bytes(b"\n".join(urls) + b"\n")
    out = run(binary, "--no-header", "--explain", "-a", "GPTBot,Googlebot", robots, str(urls_file))
    import csv, io

    rows = list(csv.reader(io.StringIO(out.decode("utf-8", "replace"))))
    assert len(rows) == len(urls)
    m = Matcher(open(robots, "rb").read(), ["GPTBot", "Googlebot"])
    batch = m.evaluate(pa.array(urls, type=pa.binary()), explain=True)
    for agent in ("GPTBot", "Googlebot"):
        assert batch.column(agent).to_pylist() == m.verdicts(urls, agent=agent)
    header = run(binary, "--explain", "-a", "GPTBot,Googlebot", robots, "/dev/null").decode().strip().split(",")
    for name in header[1:]:
        col = header.index(name)
        want = [r[col] for r in rows]
        # The command's `<agent>.line` is Python's `<agent>_line`.
        column = batch.column(name.replace(".", "_"))
        got = ["" if v is None else str(v) for v in column.to_pylist()]
        assert got == want, name


FETCHES = [
    {"url": "https://ok.com/robots.txt", "status": 200, "body": b"User-agent: *\nDisallow: /x\n"},
    {"url": "http://ok.com/robots.txt", "status": 301, "location": "https://ok.com/robots.txt"},
    {"url": "https://rel.com/robots.txt", "status": 302, "location": "/robots-new.txt"},
    {"url": "https://gone.com/robots.txt", "status": 404},
    {"url": "https://auth.com/robots.txt", "status": 403},
    {"url": "https://busy.com/robots.txt", "status": 429},
    {"url": "https://down.com/robots.txt", "status": 500},
    {"url": "https://dns.com/robots.txt", "status": 0},
    {"origin": "https://nostatus.com"},
    {"url": "https://away.com/robots.txt", "status": 301, "location": "https://nowhere.com/robots.txt"},
    {"url": "https://loop1.com/robots.txt", "status": 301, "location": "https://loop2.com/robots.txt"},
    {"url": "https://loop2.com/robots.txt", "status": 301, "location": "https://loop1.com/robots.txt"},
] + [
    {"url": f"https://hop{i}.com/robots.txt", "status": 301, "location": f"https://hop{i + 1}.com/robots.txt"}
    for i in range(6)
] + [
    {"url": "https://hop6.com/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /\n"},
]

CRAWL_URLS = [
    "https://ok.com/x", "http://ok.com/x", "http://ok.com/y", "https://rel.com/x",
    "https://gone.com/x", "https://auth.com/x", "https://busy.com/x", "https://down.com/x",
    "https://dns.com/x", "https://nostatus.com/x", "https://away.com/x", "https://loop1.com/x",
    "https://hop1.com/x", "https://hop0.com/x", "https://missing.com/x", "mailto:x@y.z", None,
]

CRAWL_WANT = [
    ("disallowed", "rule"), ("disallowed", "rule"), ("allowed", "no-matching-rule"),
    # A relative Location resolves against the URL fetched (RFC 3986):
    # https://rel.com/robots-new.txt, of which there is no capture.
    ("allowed", "redirect-missing"), ("allowed", "status-4xx"), ("allowed", "status-4xx"),
    ("disallowed", "status-5xx"), ("disallowed", "status-5xx"), ("disallowed", "status-5xx"),
    ("disallowed", "status-5xx"), ("allowed", "redirect-missing"), ("allowed", "redirect-limit"),
    ("disallowed", "rule"), ("allowed", "redirect-limit"), ("unknown", "no-robots"),
    ("unknown", "no-host"), None,
]


def test_crawl_applies_the_fetch_policy():
    c = Crawl(fetches=FETCHES)
    assert len(c) == len(FETCHES)
    assert [None if v is None else tuple(v) for v in c.verdicts(CRAWL_URLS)] == CRAWL_WANT
    strict = Crawl(fetches=FETCHES, on_401_403="disallow", on_4xx="disallow", on_5xx="allow",
                   on_missing="allow", max_redirects=6)
    got = strict.verdicts(["https://auth.com/", "https://gone.com/", "https://down.com/",
                           "https://missing.com/", "https://hop0.com/"])
    assert [tuple(v) for v in got] == [
        ("disallowed", "status-4xx"), ("disallowed", "status-4xx"), ("allowed", "status-5xx"),
        ("allowed", "no-robots"), ("disallowed", "rule"),
    ]
    e = c.explain(["http://ok.com/x"])[0]
    assert e == ("disallowed", "rule", "https://ok.com", None, 2, "Disallow: /x")


def test_crawl_takes_only_robots_txt_captures_as_robots_txt():
    # A capture of another URL is no origin's robots.txt; it counts where a
    # redirect from a robots.txt leads to it. In dicts and Arrow alike.
    fetches = [
        {"url": "https://page.com/index.html", "status": 200, "body": "User-agent: *\nDisallow: /\n"},
        {"url": "https://moved.com/robots.txt", "status": 301, "location": "/new/robots.txt"},
        {"url": "https://moved.com/new/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /x\n"},
        {"origin": "https://origin.com", "status": 200, "body": "User-agent: *\nDisallow: /\n"},
    ]
    urls = ["https://page.com/x", "https://moved.com/x", "https://moved.com/y", "https://origin.com/z"]
    want = [("unknown", "no-robots"), ("disallowed", "rule"), ("allowed", "no-matching-rule"),
            ("disallowed", "rule")]
    assert [tuple(v) for v in Crawl(fetches=fetches).verdicts(urls)] == want
    keys = ("url", "status", "body", "location")
    urls_only = pa.Table.from_pylist(
        [{k: f.get(k) for k in keys} for f in fetches if "url" in f])
    got = Crawl(fetches=urls_only).verdicts(urls[:3])
    assert [tuple(v) for v in got] == want[:3]
    with pytest.raises(ValueError, match="max_redirects is at most 100"):
        Crawl(fetches=fetches, max_redirects=101)


def test_crawl_arrow_fetches_equal_dict_fetches():
    table = pa.Table.from_pylist([
        {"url": f.get("url"), "origin": f.get("origin"), "status": f.get("status"),
         "body": f["body"].encode() if isinstance(f.get("body"), str) else f.get("body"),
         "location": f.get("location")}
        for f in FETCHES
    ])
    for fetches in (table, table.to_batches()[0], table.to_struct_array()):
        c = Crawl(fetches=fetches)
        got = c.evaluate(pa.array(CRAWL_URLS))
        want = Crawl(fetches=FETCHES).verdicts(CRAWL_URLS)
        assert got.column("verdict").to_pylist() == [None if w is None else w.verdict for w in want]
        assert got.column("reason").to_pylist() == [None if w is None else w.reason for w in want]


def test_crawl_keeps_arrow_bodies_where_they_lie():
    """A Crawl of an Arrow table keeps each chunk's bodies in the table's
    buffers (of every string and binary layout): it judges as a Crawl of
    dicts does after the table is gone, and of a URL fetched in two
    chunks the first counts, as within one."""
    import gc

    rows = [
        {"url": f.get("url"), "origin": f.get("origin"), "status": f.get("status"),
         "body": f["body"].encode() if isinstance(f.get("body"), str) else f.get("body"),
         "location": f.get("location")}
        for f in FETCHES
    ]
    want = Crawl(fetches=FETCHES).verdicts(CRAWL_URLS)
    later = dict(rows[0], body=b"User-agent: *\nDisallow: /\n")
    for body_type in (pa.binary(), pa.large_binary(), pa.string(), pa.binary_view()):
        schema = pa.schema([("url", pa.string()), ("origin", pa.string()),
                            ("status", pa.int32()), ("body", body_type), ("location", pa.string())])

        def batch(part):
            if pa.types.is_string(body_type):
                part = [dict(r, body=None if r["body"] is None else r["body"].decode()) for r in part]
            return pa.RecordBatch.from_pylist(part, schema=schema)

        half = len(rows) // 2
        table = pa.Table.from_batches([batch(rows[:half]), batch(rows[half:] + [later])])
        assert table.column("body").num_chunks == 2
        c = Crawl(fetches=table)
        del table
        gc.collect()
        got = c.verdicts(CRAWL_URLS)
        assert [tuple(g) if g else g for g in got] == [tuple(w) if w else w for w in want], body_type


def _warc_record(uri, status, body, date):
    http = f"HTTP/1.1 {status} X\r\nContent-Type: text/plain\r\n\r\n".encode() + body
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\n"
        f"WARC-Target-URI: {uri}\r\nWARC-Date: {date}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def test_crawl_reads_every_source(tmp_path):
    d = tmp_path / "dir"
    d.mkdir()
    (d / "a.com.txt").write_bytes(b"User-agent: *\nDisallow: /a\n")
    index = tmp_path / "index.jsonl.gz"
    with gzip.open(index, "wt") as f:
        f.write(json.dumps({"url": "https://b.com/robots.txt", "status": 200,
                            "body_base64": base64.b64encode(b"User-agent: *\nDisallow: /b\xff\n").decode()}) + "\n")
    warc = tmp_path / "robots.warc.gz"
    with open(warc, "wb") as f:
        for rec in (_warc_record("https://c.com/robots.txt", 200, b"User-agent: *\nDisallow: /old\n", "2020-01-01T00:00:00Z"),
                    _warc_record("https://c.com/robots.txt", 200, b"User-agent: *\nDisallow: /c\n", "2024-01-01T00:00:00Z")):
            f.write(gzip.compress(rec))
    c = Crawl(robots_dir=d, robots_index=index, robots_warc=[warc])
    got = c.verdicts(["http://a.com/a", "https://b.com/b\xff".encode("latin-1"), "https://c.com/c", "https://c.com/old"])
    assert [v.verdict for v in got] == ["disallowed", "disallowed", "disallowed", "allowed"]


def test_crawl_cache_holds_the_matchers_of_the_bodies_given(tmp_path):
    mib = 1 << 20
    small = [{"url": "https://a.com/robots.txt", "status": 200, "body": b"User-agent: *\nDisallow: /a\n"}]
    assert Crawl(fetches=small).cache_bytes == 256 * mib
    assert Crawl(fetches=small, cache_bytes=5000).cache_bytes == 5000
    # 200 bodies of 500,000 bytes: six times them is more than 256 MiB.
    body = (b"User-agent: *\n" + b"Disallow: /x\n" * 38461)[:500_000]
    assert len(body) == 500_000
    many = [{"url": f"https://h{i}.com/robots.txt", "status": 200, "body": body} for i in range(200)]
    assert Crawl(fetches=many).cache_bytes == 6 * 200 * 500_000
    assert Crawl(fetches=pa.array(many)).cache_bytes == 6 * 200 * 500_000
    # A directory's files are read when first needed: they do not count.
    d = tmp_path / "dir"
    d.mkdir()
    for i in range(200):
        (d / f"h{i}.com.txt").write_bytes(body)
    assert Crawl(robots_dir=d).cache_bytes == 256 * mib


def test_crawl_equals_the_command(binary, tmp_path):
    index = tmp_path / "index.jsonl"
    with open(index, "w") as f:
        for fetch in FETCHES:
            row = {"url": fetch.get("url") or fetch["origin"] + "/robots.txt"}
            if fetch.get("status") is not None:
                row["status"] = fetch["status"]
            body = fetch.get("body")
            if body is not None:
                row["body"] = body.decode() if isinstance(body, bytes) else body
            if fetch.get("location"):
                row["location"] = fetch["location"]
            f.write(json.dumps(row) + "\n")
    urls = [u for u in CRAWL_URLS if u is not None] * 50
    urls_file = tmp_path / "urls.txt"
    urls_file.write_text("\n".join(urls) + "\n")
    out = run(binary, "crawl", "--no-header", "--explain", "--robots-index", str(index),
              "-a", "GPTBot", str(urls_file)).decode()
    import csv, io

    rows = list(csv.reader(io.StringIO(out)))
    got = Crawl(robots_index=index, agents="GPTBot").evaluate(pa.array(urls), explain=True)
    assert len(rows) == len(urls) == got.num_rows
    cols = {name: got.column(name).to_pylist() for name in got.schema.names}
    for i, row in enumerate(rows):
        mine = [cols[c][i] for c in ("verdict", "reason", "robots", "capture", "line", "rule")]
        assert [("" if v is None else str(v)) for v in mine] == row[1:], row


def test_shared_cache_compiles_a_body_once():
    body = b"User-agent: *\nDisallow: /only-in-this-test-" + os.urandom(8).hex().encode() + b"\n"
    fetches = [{"url": f"https://h{i}.com/robots.txt", "status": 200, "body": body} for i in range(3)]
    before = robots_batch.cache_info()[0]
    Crawl(fetches=fetches).verdicts(["https://h0.com/a", "https://h1.com/a"])
    after_one = robots_batch.cache_info()[0]
    assert after_one == before + 1
    # Another Crawl, other origins, same body: no new entry.
    Crawl(fetches=fetches).verdicts(["https://h2.com/a"])
    assert robots_batch.cache_info()[0] == after_one
    # Other settings are another key.
    Crawl(fetches=fetches, agents="GPTBot").verdicts(["https://h2.com/a"])
    assert robots_batch.cache_info()[0] == after_one + 1
    Crawl(fetches=fetches, agents="CCBot", shared_cache=False).verdicts(["https://h2.com/a"])
    assert robots_batch.cache_info()[0] == after_one + 1


def test_crawls_keep_their_own_origins_between_calls():
    """A Crawl keeps the origins its calls located for its next calls; two
    Crawls naming one host by other fetches, called in turn and from
    threads, each keep their own."""
    def fetches(order, rules):
        return [{"url": f"https://{h}/robots.txt", "status": 200,
                 "body": f"User-agent: *\nDisallow: /{rules[h]}\n"} for h in order]

    hosts = ["a.com", "b.com", "c.com"]
    one = Crawl(fetches=fetches(hosts, {"a.com": "x", "b.com": "y", "c.com": "z"}))
    two = Crawl(fetches=fetches(hosts[::-1], {"a.com": "y", "b.com": "z", "c.com": "x"}))
    urls = [f"https://{h}/{p}" for h in hosts for p in "xyz"]

    def want(rules):
        return [("disallowed", "rule") if u.endswith("/" + rules[u.split("/")[2]])
                else ("allowed", "no-matching-rule") for u in urls]

    want_one = want({"a.com": "x", "b.com": "y", "c.com": "z"})
    want_two = want({"a.com": "y", "b.com": "z", "c.com": "x"})
    for k in range(3):
        batch = urls[k:] + urls[:k]
        assert [tuple(v) for v in one.verdicts(batch)] == want_one[k:] + want_one[:k]
        assert [tuple(v) for v in two.verdicts(batch)] == want_two[k:] + want_two[:k]
    results = {}

    def work(k, crawl):
        results[k] = [crawl.evaluate(pa.array(urls)).column("verdict").to_pylist() for _ in range(20)]

    threads = [threading.Thread(target=work, args=(k, (one, two)[k % 2])) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, got in results.items():
        assert all(g == [v for v, _ in (want_one, want_two)[k % 2]] for g in got)


def test_threads_share_one_matcher():
    m = Matcher(ROBOTS, ["ExampleBot", "GPTBot"])
    urls = [f"/private/{i}" if i % 2 else f"/docs/{i}.pdf" for i in range(20000)]
    want = m.verdicts(urls, agent="ExampleBot")
    results = [None] * 8

    def work(k):
        results[k] = m.evaluate(pa.array(urls)).column("ExampleBot").to_pylist()

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == want for r in results)


def test_matching_releases_the_gil():
    # With a switch interval of 1000 s, no thread switch happens while the
    # main thread holds the GIL: the counter can move during the call only
    # if the call lets the GIL go.
    m = Matcher(ROBOTS)
    urls = pa.array([f"https://example.com/private/{i}/x.pdf" for i in range(300000)] * 4)
    count = [0]
    stop = threading.Event()

    def counter():
        while not stop.is_set():
            count[0] += 1
            stop.wait(0.0001)

    old = sys.getswitchinterval()
    t = threading.Thread(target=counter)
    t.start()
    try:
        sys.setswitchinterval(1000)
        before = count[0]
        m._inner.evaluate_arrow(urls, False)
        during = count[0] - before
    finally:
        sys.setswitchinterval(old)
        stop.set()
        t.join()
    assert during > 0


def test_origins_are_the_join_key():
    got = robots_batch.origins(pa.array(["HTTPS://Example.COM:443/a", "http://x.org:8080/",
                                         "/path", None, "ftp://f.com/"]))
    assert got.to_pylist() == ["https://example.com", "http://x.org:8080", None, None, None]


def test_origins_are_one_per_host_however_spelled():
    # As the WHATWG URL standard reads hosts, trailing dots dropped; a host
    # it rejects is no origin.
    got = robots_batch.origins(pa.array([
        "http://BÜCHER.de./x", "http://xn--bcher-kva.de/", "http://b%C3%BCcher.de:80/",
        "http://a.com\\@evil.com/x", "http://0x7f.1/", "http://[0:0::1]/", "http://xn--a.com/",
    ]))
    assert got.to_pylist() == [
        "http://xn--bcher-kva.de", "http://xn--bcher-kva.de", "http://xn--bcher-kva.de",
        "http://a.com", "http://127.0.0.1", "http://[::1]", None,
    ]
