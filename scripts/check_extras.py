"""Runs the guide's (docs/PYTHON.md, docs/PIPELINES.md) Python recipe for one extra of
the package (arrow, duckdb, polars, spark, datatrove or ray), as written there, with FutureWarnings as errors:
scripts/check-extras runs it in a fresh virtual environment that has the
wheel with only that extra.

    python scripts/check_extras.py EXTRA
"""

import gzip
import os
import re
import shutil
import sys
import tempfile
import warnings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The docs page and section of each extra's recipe, and a line that tells
# its block from the others there. (nemo has none: NeMo Curator needs torch.)
RECIPES = {
    "arrow": ("PYTHON.md", "# Python, DuckDB, Polars and Spark", "import pyarrow as pa"),
    "duckdb": ("PYTHON.md", "### DuckDB and Polars", "import duckdb"),
    "polars": ("PYTHON.md", "### DuckDB and Polars", "import polars as pl"),
    "spark": ("PYTHON.md", "### In Spark: `mapInArrow`", "from pyspark.sql import"),
    "datatrove": ("PIPELINES.md", "## datatrove", "LocalPipelineExecutor("),
    "ray": ("PIPELINES.md", "## Ray Data", "with_verdicts(ds"),
}


def recipe(extra):
    """The guide's ```python block for the extra."""
    page, heading, needle = RECIPES[extra]
    with open(os.path.join(ROOT, "docs", page), encoding="utf-8") as f:
        text = f.read()
    level = len(heading.split(" ")[0])
    lines = text[text.index(heading + "\n"):].splitlines(keepends=True)
    # The section ends at the next heading of its level or above (outside
    # the code blocks, whose comments start with `#` too).
    fenced = False
    for n, line in enumerate(lines[1:], 1):
        fenced ^= line.startswith("```")
        hashes = len(line) - len(line.lstrip("#"))
        if not fenced and 0 < hashes <= level and line[hashes:hashes + 1] == " ":
            lines = lines[:n]
            break
    section = "".join(lines)
    blocks = [b for b in re.findall(r"```python\n(.*?)```", section, re.S) if needle in b]
    if len(blocks) != 1:
        sys.exit(f"check_extras: {len(blocks)} docs/{page} blocks for {extra!r}")
    return blocks[0]


def warc_record(uri, body, date):
    """One WARC response record of a robots.txt capture."""
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n" + body
    head = (
        f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {uri}\r\n"
        f"WARC-Date: {date}\r\nContent-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    return head + http + b"\r\n\r\n"


def spark_files(workdir):
    """The files the Spark recipe reads, made from the embedded example: a
    log, its robots.txt, an index of fetches and a WARC file of captures.
    Returns the WARC file's path, which replaces the recipe's."""
    example = os.path.join(ROOT, "datasets", "example")
    shutil.copy(os.path.join(example, "urls.txt"), os.path.join(workdir, "crawl.log"))
    shutil.copy(os.path.join(example, "robots.txt"), workdir)
    with open(os.path.join(example, "robots.txt"), "rb") as f:
        body = f.read()
    import json

    with open(os.path.join(workdir, "robots-index.jsonl"), "w") as f:
        row = {"url": "https://www.example.com/robots.txt", "status": 200,
               "body": body.decode()}
        f.write(json.dumps(row) + "\n")
    warc = os.path.join(workdir, "robotstxt-00000.warc.gz")
    with gzip.open(warc, "wb") as f:
        f.write(warc_record("https://www.example.com/robots.txt", body,
                            "2026-01-01T00:00:00Z"))
    return warc


def pipeline_files(workdir):
    """The files the pipeline recipes read, made from the embedded example:
    a FineWeb-style shard (text, id, url) and a Swiss-AI-style robots.txt
    table (domain, content)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    example = os.path.join(ROOT, "datasets", "example")
    with open(os.path.join(example, "urls.txt"), encoding="utf-8") as f:
        urls = f.read().split()
    os.makedirs(os.path.join(workdir, "data", "fineweb-shard"))
    os.makedirs(os.path.join(workdir, "robots"))
    pq.write_table(pa.table({
        "text": [f"document {i}" for i in range(len(urls))],
        "id": [str(i) for i in range(len(urls))],
        "url": urls,
    }), os.path.join(workdir, "data", "fineweb-shard", "000.parquet"))
    with open(os.path.join(example, "robots.txt"), encoding="utf-8") as f:
        robots = pa.table({"domain": ["www.example.com"], "content": [f.read()]})
    pq.write_table(robots, os.path.join(workdir, "robots", "fineweb-robots.parquet"))
    return len(urls)


def main():
    [extra] = sys.argv[1:]
    code = recipe(extra)
    warnings.simplefilter("error", FutureWarning)
    scope = {}
    if extra == "spark":
        # The workers run this interpreter, which has robots_batch.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        workdir = tempfile.mkdtemp(prefix="check-extras-")
        warc = spark_files(workdir)
        code = re.sub(r'\["/data/CC-MAIN-[^"]*"\]', repr([warc]), code)
        os.chdir(workdir)
    elif extra in ("datatrove", "ray"):
        workdir = tempfile.mkdtemp(prefix="check-extras-")
        n = pipeline_files(workdir)
        os.chdir(workdir)
    else:
        os.chdir(ROOT)
    exec(compile(code, f"docs/PYTHON.md ({extra})", "exec"), scope)
    if extra == "spark":
        got = scope["out"].collect()
        scope["spark"].stop()
        shutil.rmtree(workdir)
        assert got and all(r["verdict"] for r in got), got
    if extra in ("datatrove", "ray"):
        import glob

        kept = glob.glob(os.path.join(workdir, "out", "kept", "*"))
        os.chdir(ROOT)
        shutil.rmtree(workdir)
        # The example's robots.txt disallows some of its URLs, not all.
        assert kept, f"the {extra} recipe wrote nothing of {n} documents"
    print(f"check_extras: the {extra} recipe of docs/{RECIPES[extra][0]} ran")


if __name__ == "__main__":
    main()
