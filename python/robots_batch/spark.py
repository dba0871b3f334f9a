"""robots-batch inside Apache Spark: verdict columns for a DataFrame of URLs,
computed with ``mapInArrow`` (Arrow batches straight into the Rust library,
no Python object per URL).

One robots.txt for every URL::

    from robots_batch.spark import with_verdicts
    out = with_verdicts(urls_df, robots=open("robots.txt", "rb").read(),
                        agents="GPTBot")

Or each URL judged by its own origin's robots.txt fetch, from a DataFrame
of fetches with the columns ``url`` (of the robots.txt, or ``origin``),
``status``, ``body`` and, for redirects, ``location``::

    out = with_verdicts(urls_df, fetches=fetches_df, agents="GPTBot")

Each executor process keeps the matchers it compiles in one cache bounded
in bytes (``cache_bytes``), keyed by the robots.txt body and the agents,
dialect and limits: a robots.txt met again, in a later batch or on another
origin with the same body, is not compiled again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Iterator, List, Optional, Sequence, Union

import pyarrow as pa

from . import DEFAULT_MAX_ROBOTS_BYTES, Crawl, Matcher, _robots_batch

__all__ = ["with_verdicts", "verdict_fields"]

# Internal column names; a DataFrame that has them already is refused.
_ORIGIN = "_robots_batch_origin"
_CHAIN = "_robots_batch_chain"
_KIND = "_robots_batch_kind"


def verdict_fields(
    agents: Union[str, Sequence[str]],
    *,
    crawl: bool,
    explain: bool,
    usage: bool = False,
) -> List[Any]:
    """The Spark fields :func:`with_verdicts` adds, in order."""
    from pyspark.sql.types import IntegerType, StringType, StructField

    agents = [agents] if isinstance(agents, str) else list(agents)
    if crawl:
        names = ["verdict", "reason"] + (
            ["robots", "line", "rule"] if explain else []
        )
    else:
        names = ["verdict"] + (
            ["line", "rule", "group", "reason"] if explain else []
        )
        if usage:
            names += ["train_ai", "search", "ai_input"]
            if explain:
                names += ["train_ai_line", "search_line", "ai_input_line"]
    fields = []
    for agent in agents:
        for name in names:
            if len(agents) == 1:
                column = name
            elif name == "verdict":
                column = agent
            else:
                column = f"{agent}_{name}"
            kind = IntegerType() if name.endswith("line") else StringType()
            fields.append(StructField(column, kind, True))
    return fields


# Compiled single-robots.txt matchers of this process (the executor's
# Python worker), by body digest and settings: a handful at most.
_MATCHERS: "OrderedDict[tuple, Matcher]" = OrderedDict()
_MATCHERS_LOCK = threading.Lock()


def _matcher(robots: bytes, settings: tuple) -> Matcher:
    key = (hashlib.sha256(robots).digest(), settings)
    with _MATCHERS_LOCK:
        if key in _MATCHERS:
            _MATCHERS.move_to_end(key)
            return _MATCHERS[key]
    agents, dialect, engine, max_robots_bytes = settings
    m = Matcher(
        robots,
        list(agents),
        dialect,
        engine=engine,
        max_robots_bytes=max_robots_bytes,
    )
    with _MATCHERS_LOCK:
        _MATCHERS[key] = m
        while len(_MATCHERS) > 16:
            _MATCHERS.popitem(last=False)
    return m


def _append(batch: pa.RecordBatch, result: Any) -> pa.RecordBatch:
    """``batch`` with the columns of ``result`` after its own. (Spark takes
    string columns back even when it sends large strings.)"""
    return pa.RecordBatch.from_arrays(
        list(batch.columns) + list(result.columns),
        names=batch.schema.names + result.schema.names,
    )


def with_verdicts(
    df: Any,
    *,
    robots: Optional[Union[bytes, str]] = None,
    fetches: Any = None,
    url_column: str = "url",
    agents: Union[str, Sequence[str]] = "*",
    dialect: str = "rfc9309",
    engine: str = "trie",
    explain: bool = False,
    usage: bool = False,
    on_4xx: str = "allow",
    on_401_403: str = "allow",
    on_5xx: str = "disallow",
    on_missing: Optional[str] = None,
    max_redirects: int = 5,
    max_robots_bytes: int = DEFAULT_MAX_ROBOTS_BYTES,
    cache_bytes: int = 256 << 20,
) -> Any:
    """``df`` with verdict columns for the URLs in ``url_column``.

    Give exactly one of:

    * ``robots``: one robots.txt (bytes or str) for every URL. Adds
      ``verdict`` (``allowed``/``disallowed``), and with ``explain``
      ``line``, ``rule``, ``group``, ``reason``, and with ``usage`` the AI
      usage preferences ``train_ai``, ``search``, ``ai_input``, as
      :meth:`Matcher.evaluate`. Rows and partitions stay as they are.
    * ``fetches``: a DataFrame of robots.txt fetches, one row per origin,
      with ``url`` (the robots.txt's URL) or ``origin``
      (``https://example.com``), ``status`` (an integer; 0 or null: no
      answer), ``body`` (binary or string) and ``location`` (for 3xx); a
      ``date`` column, if present, keeps the latest fetch of an origin.
      Adds ``verdict`` (``allowed``/``disallowed``/``unknown``) and
      ``reason``, and with ``explain`` ``robots``, ``line``, ``rule``, as
      :meth:`Crawl.evaluate`, under the fetch policy given (RFC 9309's by
      default). URLs are joined to their origin's fetch (and the fetches
      its redirects lead to, up to ``max_redirects``: the redirects'
      origin and target keys, not their bodies, are collected to the
      driver to follow them). The result is partitioned by origin: each
      origin's fetches travel once to the partition of its URLs, where
      they are compiled once (the rows come out in that order).

    For several agents the columns are ``<agent>``, ``<agent>.reason``...
    (backquote them in Spark SQL). A null URL gets nulls.
    """
    if (robots is None) == (fetches is None):
        raise ValueError("give exactly one of robots= and fetches=")
    if usage and robots is None:
        raise ValueError("usage=True needs robots= (not yet fetches=)")
    agent_list = [agents] if isinstance(agents, str) else list(agents)
    for name in (_ORIGIN, _CHAIN, _KIND):
        if name in df.columns:
            raise ValueError(f"the DataFrame already has a column {name!r}")
    if url_column not in df.columns:
        raise ValueError(f"the DataFrame has no column {url_column!r}")
    # Checks the settings here, on the driver, rather than in every task.
    Matcher(b"", agent_list, dialect, engine=engine)
    if robots is not None:
        return _with_robots(
            df, robots, url_column, agent_list, dialect, engine, explain,
            max_robots_bytes, usage,
        )
    policy = dict(
        agents=agent_list,
        dialect=dialect,
        engine=engine,
        on_4xx=on_4xx,
        on_401_403=on_401_403,
        on_5xx=on_5xx,
        on_missing=on_missing,
        max_redirects=max_redirects,
        max_robots_bytes=max_robots_bytes,
        cache_bytes=cache_bytes,
    )
    Crawl(fetches=[], **policy)
    return _with_fetches(
        df, fetches, url_column, policy, explain
    )


def _with_robots(
    df: Any,
    robots: Union[bytes, str],
    url_column: str,
    agents: List[str],
    dialect: str,
    engine: str,
    explain: bool,
    max_robots_bytes: int,
    usage: bool = False,
) -> Any:
    from pyspark.sql.types import StructType

    body = robots.encode() if isinstance(robots, str) else bytes(robots)
    settings = (tuple(agents), dialect, engine, max_robots_bytes)
    schema = StructType(
        df.schema.fields
        + verdict_fields(agents, crawl=False, explain=explain, usage=usage)
    )

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        m = _matcher(body, settings)
        for batch in batches:
            urls = batch.column(url_column)
            result = m.evaluate(urls, explain=explain, usage=usage)
            yield _append(batch, result)

    return df.mapInArrow(run, schema)


def _with_fetches(
    df: Any,
    fetches: Any,
    url_column: str,
    policy: dict,
    explain: bool,
) -> Any:
    from pyspark.sql import functions as F
    from pyspark.sql import Window
    from pyspark.sql.types import StringType, StructField, StructType

    at = "url" if "url" in fetches.columns else "origin"
    if at not in fetches.columns:
        raise ValueError("fetches need a column 'url' or 'origin'")
    cols = [
        F.col(at).cast("string").alias("at"),
        (F.col("status").cast("int") if "status" in fetches.columns
         else F.lit(None).cast("int")).alias("status"),
        (F.col("body").cast("binary") if "body" in fetches.columns
         else F.lit(None).cast("binary")).alias("body"),
        (F.col("location").cast("string") if "location" in fetches.columns
         else F.lit(None).cast("string")).alias("location"),
    ]
    if "date" in fetches.columns:
        cols.append(F.col("date").cast("string").alias("date"))
    f = fetches.select(*cols)

    # Each fetch's origin, and where a redirect points, by the library.
    keyed_schema = StructType(
        f.schema.fields
        + [
            StructField("origin", StringType(), True),
            StructField("target", StringType(), True),
        ]
    )

    def keys(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            pairs = _robots_batch.fetch_origins(
                batch.column("at"), batch.column("location")
            )
            extra = [pa.array(c) for _, c in pairs]
            yield pa.RecordBatch.from_arrays(
                batch.columns + extra,
                names=batch.schema.names + ["origin", "target"],
            )

    f = f.mapInArrow(keys, keyed_schema).where(F.col("origin").isNotNull())
    # One fetch per origin, the same one every time this is computed (it
    # is twice): the latest by date if there are dates, then the first by
    # status, location and body.
    order = [F.col("date").desc_nulls_last()] if "date" in f.columns else []
    order += [F.col(c).asc_nulls_last() for c in ("status", "location", "body")]
    first = Window.partitionBy("origin").orderBy(*order)
    f = f.withColumn("_n", F.row_number().over(first)).where("_n = 1")
    f = f.drop("_n", *(["date"] if "date" in f.columns else []))
    fetch = F.struct(
        F.col("origin"), F.col("status"), F.col("body"), F.col("location")
    )
    own = f.select(F.col("origin").alias(_ORIGIN), fetch.alias("fetch"))

    # The fetches a verdict may need besides the origin's own: those its
    # redirects lead to, one more than the limit (so that the library can
    # tell "over the limit" from "target missing"). The redirects' keys
    # (origin, target; no bodies) are followed on the driver, which is
    # plumbing: the library applies the policy to the chain.
    edges = dict(
        f.where(F.col("status").between(300, 399))
        .select("origin", "target")
        .collect()
    )
    extra = []
    for start in edges:
        at, seen = start, {start}
        for _ in range(policy["max_redirects"] + 1):
            at = edges.get(at)
            if at is None or at in seen:
                break
            seen.add(at)
            extra.append((start, at))
    if extra:
        spark = df.sparkSession
        hops = spark.createDataFrame(extra, f"{_ORIGIN} string, key string")
        bodies = f.select(F.col("origin").alias("key"), fetch.alias("fetch"))
        targets = hops.join(bodies, "key").select(_ORIGIN, "fetch")
        chain = (
            own.unionByName(targets)
            .groupBy(_ORIGIN)
            .agg(F.collect_list("fetch").alias(_CHAIN))
        )
    else:
        chain = own.select(_ORIGIN, F.array("fetch").alias(_CHAIN))

    # Each URL's origin, by the library.
    urls_schema = StructType(
        df.schema.fields + [StructField(_ORIGIN, StringType(), True)]
    )

    def origins(
        batches: Iterator[pa.RecordBatch],
    ) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            [(_, column)] = _robots_batch.origins(batch.column(url_column))
            yield pa.RecordBatch.from_arrays(
                batch.columns + [pa.array(column)],
                names=batch.schema.names + [_ORIGIN],
            )

    # One row per origin with its chain, beside the URL rows (not joined to
    # them, which would copy the robots.txt bodies into every URL row of
    # the shuffle): partitioned and sorted by origin, each origin's chain
    # row comes just before its URLs.
    urls = (
        df.mapInArrow(origins, urls_schema)
        .withColumn(_KIND, F.lit(1))
        .withColumn(_CHAIN, F.lit(None).cast(chain.schema[_CHAIN].dataType))
    )
    chain_rows = chain.select(
        *[F.lit(None).cast(c.dataType).alias(c.name) for c in df.schema],
        F.col(_ORIGIN),
        F.lit(0).alias(_KIND),
        F.col(_CHAIN),
    )
    rows = (
        urls.unionByName(chain_rows)
        .repartition(_ORIGIN)
        .sortWithinPartitions(_ORIGIN, _KIND)
    )
    out_schema = StructType(
        df.schema.fields
        + verdict_fields(policy["agents"], crawl=True, explain=explain)
    )
    names = list(df.columns)

    def judge(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        import pyarrow.compute as pc

        chains = {}  # origin -> its fetches (a struct array)
        for batch in batches:
            kind = batch.column(_KIND)
            heads = batch.filter(pc.equal(kind, 0))
            for origin, chain in zip(
                heads.column(_ORIGIN).to_pylist(), heads.column(_CHAIN)
            ):
                chains[origin] = chain.values
            own = batch.filter(pc.equal(kind, 1))
            if own.num_rows:
                present = pc.unique(own.column(_ORIGIN)).to_pylist()
                parts = [chains[o] for o in present if o in chains]
                crawl = Crawl(
                    fetches=pa.concat_arrays(parts) if parts else [],
                    **policy,
                )
                urls = own.column(url_column)
                result = crawl.evaluate(urls, explain=explain)
                own = pa.RecordBatch.from_arrays(
                    [own.column(n) for n in names], names=names
                )
                yield _append(own, result)
            # Sorted by origin: only the last origin's URLs may come in the
            # next batch.
            last = batch.column(_ORIGIN)[-1].as_py() if batch.num_rows else None
            chains = {last: chains[last]} if last in chains else {}

    return rows.mapInArrow(judge, out_schema)
