"""What the pipeline adapter tests (datatrove, Ray Data, NeMo Curator)
share: a directory of robots.txt files with the cases where parsers
differ, documents whose URLs reach them (and some that have no URL), the
same fetches as a Swiss-AI-style Parquet table, and the verdicts of the
release command for them, which every adapter must reproduce."""

import csv
import io
import json
import os
import random

from conftest import run

# The robots.txt files, by host: longest match, a BOM, groups that a blank
# line or Crawl-delay does not end under RFC 9309, an Allow that beats a
# Disallow of equal length, a wildcard with an end anchor.
ROBOTS = {
    "a.example": (
        b"User-agent: *\nDisallow: /private/\nAllow: /private/public\n\n"
        b"User-agent: GPTBot\nDisallow: /\n"
    ),
    "b.example": b"\xef\xbb\xbfUser-agent: CCBot\nDisallow: /no\n",
    "c.example": b"User-agent: GPTBot\nCrawl-delay: 5\nDisallow: /x\n",
    "d.example": b"User-agent: GPTBot\n\nUser-agent: CCBot\nDisallow: /shared\n",
    "e.example": b"User-agent: *\nAllow: /page\nDisallow: /*.php$\n",
    "www.f.example": b"User-agent: *\nDisallow: /\nAllow: /open/\n",
    "g.example": b"User-agent: ClaudeBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
}

AGENTS = ["GPTBot", "CCBot", "*"]

PATHS = [
    "/", "/private/x", "/private/public/y", "/no", "/no/more", "/x", "/x/y",
    "/shared/a", "/page.php", "/page", "/other.php", "/open/", "/open/a",
    "/closed", "/%70rivate/z", "/private/\u00e9t\u00e9",
]

# Values in the URL field that are not URLs of a host: each must come out
# `unknown` with its reason, never raise.
BAD = [None, 12345, "not a url", "", "/relative/path", ["https://a.example/"]]


def urls(n=400, seed=59):
    """``n`` URLs over the hosts (both schemes, a subdomain and a host
    without robots.txt too), in random order."""
    rng = random.Random(seed)
    hosts = list(ROBOTS) + ["sub.a.example", "f.example", "none.example"]
    out = []
    for i in range(n):
        scheme = rng.choice(["http", "https"])
        out.append(f"{scheme}://{rng.choice(hosts)}{rng.choice(PATHS)}?i={i}")
    return out


def documents(n=400):
    """Documents as dicts (``id``, ``text``, ``url``), with the bad values
    spread among them; a few have no ``url`` key at all."""
    docs = []
    good = urls(n)
    for i, url in enumerate(good):
        docs.append({"id": f"doc-{i}", "text": f"text {i}", "url": url})
        if i % 50 == 7:
            for j, bad in enumerate(BAD):
                docs.append({"id": f"bad-{i}-{j}", "text": "x", "url": bad})
            docs.append({"id": f"nourl-{i}", "text": "x"})
    return docs


def write_robots_dir(path):
    os.makedirs(path, exist_ok=True)
    for host, body in ROBOTS.items():
        with open(os.path.join(path, f"{host}.txt"), "wb") as f:
            f.write(body)
    return path


def write_robots_parquet(path):
    """The same robots.txt files as a ``domain, content`` table (content as
    text, as Swiss AI publish it)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({
            "domain": list(ROBOTS),
            "content": [b.decode("utf-8") for b in ROBOTS.values()],
        }),
        path,
    )
    return path


def command_verdicts(binary, tmp_path, url_list, agents, *source):
    """Each URL's verdict per agent by ``robots-batch crawl``:
    ``{url: {agent: verdict}}`` for the URL strings that are one line."""
    lines = [u for u in url_list if isinstance(u, str) and "\n" not in u and u]
    path = tmp_path / "command-urls.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["crawl", "--no-header", *source]
    for agent in agents:
        args += ["-a", agent]
    out = run(binary, *args, str(path)).decode("utf-8")
    rows = list(csv.reader(io.StringIO(out)))
    k = len(agents)
    assert len(rows) == len(lines) * k, (len(rows), len(lines), k)
    got = {}
    for i, url in enumerate(lines):
        # One row per URL and agent, in the agents' order; the verdict is
        # the last column but one (`url,[agent,]verdict,reason`).
        got[url] = {agent: rows[i * k + j][-2] for j, agent in enumerate(agents)}
    return got


def expected(docs, verdicts, agents):
    """Each document's ``disallowed_user_agents`` under the command's
    verdicts (in the agents' order; empty for a value that is no URL)."""
    out = {}
    for doc in docs:
        url = doc.get("url")
        per_agent = verdicts.get(url) if isinstance(url, str) else None
        out[doc["id"]] = [a for a in agents if per_agent and per_agent[a] == "disallowed"]
    return out


def write_jsonl(path, docs):
    with open(path, "w", encoding="utf-8") as f:
        for doc in docs:
            f.write(json.dumps(doc) + "\n")
