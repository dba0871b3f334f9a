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

The fetches may come straight from WARC files of robots.txt captures (as
Common Crawl publishes them), read on the executors from a file system
they share::

    fetches_df = fetches_from_warc(spark, ["/data/....robotstxt....warc.gz"])

With a fetch table small enough to broadcast (the default choice up to
256 MiB of bodies), the URLs are judged in place, as with one robots.txt.

Each executor process keeps the matchers it compiles in one cache bounded
in bytes (``cache_bytes``), keyed by the robots.txt body and the agents,
dialect and limits: a robots.txt met again, in a later batch or on another
origin with the same body, is not compiled again.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from typing import Any, Iterator, List, Optional, Sequence, Tuple, Union

import pyarrow as pa

from . import DEFAULT_MAX_ROBOTS_BYTES, Crawl, Matcher, _robots_batch

__all__ = ["with_verdicts", "verdict_fields", "fetches_from_warc"]

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
            ["robots", "capture", "line", "rule"] if explain else []
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
    cache_bytes: Optional[int] = None,
    strategy: str = "auto",
    broadcast_bytes: Optional[int] = None,
    as_of: Any = None,
    before_first: str = "earliest",
    time_column: Optional[str] = None,
) -> Any:
    """``df`` with verdict columns for the URLs in ``url_column``.

    Give exactly one of:

    * ``robots``: one robots.txt (bytes or str) for every URL. Adds
      ``verdict`` (``allowed``/``disallowed``), and with ``explain``
      ``line``, ``rule``, ``group``, ``reason``, and with ``usage`` the AI
      usage preferences ``train_ai``, ``search``, ``ai_input``, as
      :meth:`Matcher.evaluate`. Rows and partitions stay as they are.
    * ``fetches``: a DataFrame of robots.txt fetches, with ``url`` (the
      robots.txt's URL; another URL is a capture, which counts where a
      redirect leads to it) or ``origin``
      (``https://example.com``), ``status`` (an integer; 0 or null: no
      answer), ``body`` (binary or string) and ``location`` (for 3xx); and
      ``date``, when each was made (a string such as
      ``2024-06-01T12:00:00Z`` or a 14-digit timestamp, a timestamp, a date
      or an integer of seconds), if there are several captures of an
      origin: every capture is kept (:func:`fetches_from_warc` reads Common
      Crawl's WARC files into such a table). Adds ``verdict``
      (``allowed``/``disallowed``/``unknown``) and ``reason``, and with
      ``explain`` ``robots``, ``capture``, ``line``, ``rule``, as
      :meth:`Crawl.evaluate`, under the fetch policy given (RFC 9309's by
      default). The newest capture of an origin judges its URLs; with
      ``as_of``, the newest at or before that date; with ``time_column``
      (a column of ``df``: strings, timestamps, dates or integers of
      seconds), the newest at or before each URL's own fetch time, a time
      that cannot be read giving ``unknown``, ``no-time``. A URL older than
      every capture gets the earliest (reason ``...;before-first``), or
      with ``before_first="unknown"`` is ``unknown``. URLs are joined to their origin's fetch (and the fetches
      its redirects lead to, up to ``max_redirects``) by one of two
      ``strategy``:

      - ``"broadcast"``: the fetches are collected to the driver as Arrow,
        with no shuffle, one per origin and date (and per capture of
        another URL) is kept there,
        and the table is broadcast; each executor's Python worker builds one
        :class:`Crawl` of them, once, and judges its batches of URLs in
        place, about 130,000 rows at a time (an origin's URLs met in one
        call share its matchers): no shuffle, the rows keep their
        partitions and order.
        Memory: three to four times the table on the driver while it is
        sent, one copy per executor (Spark's broadcast block) and one per
        Python worker (the Crawl's), besides the compiled matchers
        (``cache_bytes`` at most per worker; by default, as
        :class:`Crawl`'s, three times the table's bodies, at least 256 MiB,
        so that a worker keeps every origin's matchers it builds).
      - ``"partition"``: the URLs are partitioned by origin and each
        origin's fetches travel once to the partition of its URLs (the
        redirects' origins, not their bodies, are collected to the driver
        to follow them): an executor holds only its origins' fetches, one
        batch of URLs and the matchers' cache. The rows come out
        partitioned and sorted by origin.
      - ``"auto"`` (the default): ``"broadcast"`` when the fetches' bodies
        and a little per row add up to at most ``broadcast_bytes``
        (256 MiB by default, or half of ``spark.driver.maxResultSize`` if
        that is less), told by one aggregate over the fetches, else
        ``"partition"``.

    For several agents the columns are ``<agent>``, ``<agent>_reason``... A null URL gets nulls.
    """
    if (robots is None) == (fetches is None):
        raise ValueError("give exactly one of robots= and fetches=")
    if strategy not in ("auto", "broadcast", "partition"):
        raise ValueError(
            'strategy must be "auto", "broadcast" or "partition", '
            f"not {strategy!r}"
        )
    if usage and robots is None:
        raise ValueError("usage=True needs robots= (not yet fetches=)")
    if robots is not None and (as_of is not None or time_column is not None):
        raise ValueError(
            "as_of= and time_column= choose among dated captures of "
            "fetches=: one robots= has none"
        )
    if time_column is not None and time_column not in df.columns:
        raise ValueError(f"the DataFrame has no column {time_column!r}")
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
        as_of=as_of,
        before_first=before_first,
        at_fetch_time=time_column is not None,
    )
    Crawl(fetches=[], **policy)
    return _with_fetches(
        df, fetches, (url_column, time_column), policy, explain, strategy,
        broadcast_bytes,
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


def _fetch_table(fetches: Any) -> Any:
    """The fetches in the columns ``at`` (the URL fetched, or an origin),
    ``status``, ``body``, ``location`` and, if given, ``date``; and whether
    ``at`` holds origins."""
    from pyspark.sql import functions as F

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
        cols.append(_date_string(fetches.schema["date"].dataType).alias("date"))
    return fetches.select(*cols), at == "origin"


def _date_string(kind: Any) -> Any:
    """The ``date`` column as strings the library reads, whatever its Spark
    type: an instant as its seconds since 1970 (a string of a timestamp
    would be in the session's time zone), a timestamp without a zone or a
    date as written (read as UTC)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    date = F.col("date")
    name = type(kind).__name__
    if isinstance(kind, T.TimestampType):
        return date.cast("long").cast("string")
    if name == "TimestampNTZType":  # pyspark 3.4 and later
        return F.date_format(date, "yyyy-MM-dd'T'HH:mm:ss")
    if isinstance(kind, T.DateType):
        return F.date_format(date, "yyyy-MM-dd")
    return date.cast("string")


# A fetch of an origin's robots.txt (of its path exactly, without a query),
# as the library tells it from a capture of another URL.
_ROBOTS_URL = r"^[^:/?#]+://[^/?#]*/robots\.txt(#.*)?$"


def _keys_of(fetches: Any, origin_form: bool) -> List[Any]:
    """The ``origin``, ``target`` and ``key`` arrays of a batch (or a
    table, combined) of fetch rows, by the library."""
    import pyarrow.compute as pc

    def array(name: str) -> Any:
        column = fetches.column(name)
        if isinstance(column, pa.ChunkedArray):
            column = column.combine_chunks()
        return column

    at = array("at")
    pairs = _robots_batch.fetch_origins(at, array("location"))
    origin, target = [pa.array(c) for _, c in pairs]
    if origin_form:
        return [origin, target, origin]
    robots = pc.match_substring_regex(at, _ROBOTS_URL)
    return [origin, target, pc.if_else(robots, origin, at.cast(pa.string()))]


def _first_per_key(table: pa.Table, origin_form: bool) -> pa.Table:
    """:func:`_keyed` on the driver, over a table of fetch rows already
    there: one fetch per key and date, chosen as the Spark window chooses
    it, in the columns the Crawl reads (:func:`_fetch_columns`). The
    choice is made on the keys alone and the chosen rows taken once: the
    bodies, most of the table, are copied once at most, and not at all
    when every row is chosen."""
    import pyarrow.compute as pc

    origin, _, key = _keys_of(table, origin_form)
    dated = "date" in table.column_names
    # Rows without an origin sort last (False before True) and are left.
    same = ["key", "date"] if dated else ["key"]
    order = [("lost", "ascending")] + [(c, "ascending") for c in same]
    order += [(c, "ascending") for c in ("status", "location", "body")]
    keys = pa.table(
        {"lost": pc.is_null(origin), "key": key}
        | {c: table.column(c) for c, _ in order[2:]}
    )
    sorted_ = pc.sort_indices(keys, sort_keys=order)
    kept = keys.select(["lost"] + same).take(sorted_)
    first = pc.invert(kept.column("lost").combine_chunks())
    if len(kept):
        # A row whose key or date differs from the row before it.
        changed = pa.array([False] * (len(kept) - 1), pa.bool_())
        for name in same:
            column = kept.column(name).combine_chunks()
            after, before = column.slice(1), column.slice(0, len(kept) - 1)
            differs = pc.not_equal(after, before)
            # Null beside a value differs; two nulls do not.
            nulls = pc.not_equal(pc.is_null(after), pc.is_null(before))
            differs = pc.or_(pc.fill_null(differs, False), nulls)
            changed = pc.or_(changed, differs)
        first = pc.and_(
            first, pa.concat_arrays([pa.array([True]), changed])
        )
    chosen = sorted_.filter(first)
    if len(chosen) < table.num_rows:
        table, origin, key = (
            table.take(chosen), origin.take(chosen), key.take(chosen)
        )
    own = pc.equal(key, origin)
    none = pa.nulls(table.num_rows, pa.string())
    columns = {
        "origin": pc.if_else(own, origin, none),
        "url": pc.if_else(own, none, key),
        "status": table.column("status"),
        "body": table.column("body"),
        "location": table.column("location"),
    }
    if dated:
        columns["date"] = table.column("date")
    return pa.table(columns)


def _keyed(f: Any, origin_form: bool) -> Any:
    """One row per fetch key and date: ``origin`` (the fetch's origin),
    ``key`` (the origin for a robots.txt, the URL for a capture of another
    URL, which counts only where a redirect leads), ``target`` (the origin
    a redirect points to), the fetch's columns (its ``date`` among them,
    if given), the first by status, location and body."""
    from pyspark.sql import functions as F
    from pyspark.sql import Window
    from pyspark.sql.types import StringType, StructField, StructType

    keyed_schema = StructType(
        f.schema.fields
        + [
            StructField(n, StringType(), True)
            for n in ("origin", "target", "key")
        ]
    )

    def keys(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield pa.RecordBatch.from_arrays(
                batch.columns + _keys_of(batch, origin_form),
                names=batch.schema.names + ["origin", "target", "key"],
            )

    f = f.mapInArrow(keys, keyed_schema).where(F.col("origin").isNotNull())
    order = [F.col(c).asc_nulls_last() for c in ("status", "location", "body")]
    same = ["key", "date"] if "date" in f.columns else ["key"]
    first = Window.partitionBy(*same).orderBy(*order)
    f = f.withColumn("_n", F.row_number().over(first)).where("_n = 1")
    return f.drop("_n")


def _fetch_columns(dated: bool) -> List[Any]:
    """A keyed fetch row as the Crawl reads it: a robots.txt by its
    origin, a capture by its URL; with its date, if ``dated``."""
    from pyspark.sql import functions as F

    own = F.col("key") == F.col("origin")
    return [
        F.when(own, F.col("origin")).alias("origin"),
        F.when(~own, F.col("key")).alias("url"),
        F.col("status"),
        F.col("body"),
        F.col("location"),
    ] + ([F.col("date")] if dated else [])


# Of an auto choice: the most bytes of fetches broadcast, unless
# spark.driver.maxResultSize allows less (half of it).
DEFAULT_BROADCAST_BYTES = 256 << 20

# What a fetch row costs besides its body, in the size estimate.
_ROW_BYTES = 96


def _broadcast_limit(spark: Any, broadcast_bytes: Optional[int]) -> int:
    if broadcast_bytes is not None:
        return broadcast_bytes
    limit = DEFAULT_BROADCAST_BYTES
    try:
        utils = spark.sparkContext._jvm.org.apache.spark.util.Utils
        most = int(utils.byteStringAsBytes(
            spark.conf.get("spark.driver.maxResultSize", "1g")))
        if most > 0:
            limit = min(limit, most // 2)
    except Exception:  # Spark Connect has no JVM at hand: the default.
        pass
    return limit


def _with_fetches(
    df: Any,
    fetches: Any,
    columns: Tuple[str, Optional[str]],
    policy: dict,
    explain: bool,
    strategy: str,
    broadcast_bytes: Optional[int],
) -> Any:
    from pyspark.sql import functions as F

    f, origin_form = _fetch_table(fetches)
    if strategy == "auto":
        # The bodies' bytes, summed over the fetches as given (before one
        # per origin is kept: an upper bound), by one aggregate job.
        size = f.select(
            F.sum(F.coalesce(F.length("body"), F.lit(0)) + _ROW_BYTES)
        ).first()[0] or 0
        limit = _broadcast_limit(df.sparkSession, broadcast_bytes)
        strategy = "broadcast" if size <= limit else "partition"
    if strategy == "broadcast":
        # Collected as they are, with no shuffle and no Python pass in
        # Spark: the driver keeps one per key in Arrow.
        table = _first_per_key(_collect_arrow(f), origin_form)
        return _broadcast(df, table, columns, policy, explain)
    return _partition(df, _keyed(f, origin_form), columns, policy, explain)


# The Crawl of this process (the executor's Python worker) built from a
# broadcast fetch table, by the broadcast's token: the last job's only, so
# that a worker holds one fetch table at a time.
_CRAWLS: "OrderedDict[str, Crawl]" = OrderedDict()
_CRAWLS_LOCK = threading.Lock()


def _broadcast_crawl(token: str, fetches: Any, policy: dict) -> Crawl:
    """The Crawl of broadcast ``fetches`` (Arrow IPC bytes), built once per
    process: every task of the job on this worker shares it."""
    with _CRAWLS_LOCK:
        crawl = _CRAWLS.get(token)
        if crawl is None:
            table = pa.ipc.open_stream(fetches.value).read_all()
            # Its own cache, sized for the table (Crawl's default): the
            # process-wide one keeps the size of the first Crawl that made
            # it, and a copy of every body as its key.
            crawl = Crawl(fetches=table, shared_cache=False, **policy)
            del table
            # The Crawl keeps the bodies where they lie, in the
            # broadcast's bytes: the broadcast object lets go of them, so
            # that they go with the Crawl (they are read again from the
            # broadcast's file if ever needed).
            fetches.__dict__.pop("_value", None)
            _CRAWLS[token] = crawl
            while len(_CRAWLS) > 1:
                _CRAWLS.popitem(last=False)
        else:
            _CRAWLS.move_to_end(token)
        return crawl


# The Arrow types of the fetch rows (_fetch_table's columns).
_FETCH_TYPES = {
    "at": pa.string(),
    "status": pa.int32(),
    "body": pa.binary(),
    "location": pa.string(),
    "date": pa.string(),
}


def _collect_arrow(f: Any) -> pa.Table:
    """The fetch rows ``f`` on the driver, as Arrow."""
    if hasattr(f, "toArrow"):
        return f.toArrow()
    batches = f._collect_as_arrow()  # pyspark 3.5
    if batches:
        return pa.Table.from_batches(batches)
    return pa.table({c: pa.array([], _FETCH_TYPES[c]) for c in f.columns})


def _broadcast(
    df: Any,
    table: pa.Table,
    columns: Tuple[str, Optional[str]],
    policy: dict,
    explain: bool,
) -> Any:
    import uuid

    from pyspark.sql.types import StructType

    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    del table
    spark = df.sparkSession
    fetches = spark.sparkContext.broadcast(sink.getvalue().to_pybytes())
    del sink
    token = uuid.uuid4().hex
    schema = StructType(
        df.schema.fields
        + verdict_fields(policy["agents"], crawl=True, explain=explain)
    )

    # Read on the driver, now: the workers get these with the closure.
    gather = (_GATHER_ROWS, _GATHER_BYTES)

    url_column, time_column = columns

    def run(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        crawl = _broadcast_crawl(token, fetches, policy)
        for group in _gathered(batches, url_column, *gather):
            result = crawl.evaluate(
                _joined(group, url_column),
                explain=explain,
                times=None if time_column is None else _joined(group, time_column),
            )
            at = 0
            for batch in group:
                yield _append(batch, result.slice(at, batch.num_rows))
                at += batch.num_rows

    return df.mapInArrow(run, schema)


def _joined(batches: List[pa.RecordBatch], column: str) -> Any:
    """The column ``column`` of ``batches``, as one array."""
    arrays = [b.column(column) for b in batches]
    return arrays[0] if len(arrays) == 1 else pa.concat_arrays(arrays)


# Of the broadcast path: a worker judges Spark's Arrow batches (10,000
# rows each by default) this many rows at a time, or this many bytes of
# URLs, whichever comes first. A Crawl judges each call grouped by origin,
# so an origin's URLs spread over several batches then share its matchers
# while they are in the cache; the rows go back in their own batches.
_GATHER_ROWS = 1 << 17
_GATHER_BYTES = 16 << 20


def _gathered(
    batches: Iterator[pa.RecordBatch],
    url_column: str,
    rows: int,
    nbytes: int,
) -> Iterator[List[pa.RecordBatch]]:
    """``batches`` in consecutive groups of at least ``rows`` rows or
    ``nbytes`` bytes of URLs (the last group maybe fewer)."""
    group: List[pa.RecordBatch] = []
    n = size = 0
    for batch in batches:
        group.append(batch)
        n += batch.num_rows
        size += batch.column(url_column).nbytes
        if n >= rows or size >= nbytes:
            yield group
            group, n, size = [], 0, 0
    if group:
        yield group


def _partition(
    df: Any,
    f: Any,
    columns: Tuple[str, Optional[str]],
    policy: dict,
    explain: bool,
) -> Any:
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField, StructType

    url_column, time_column = columns
    fetch = F.struct(*_fetch_columns("date" in f.columns))
    own = f.select(F.col("origin").alias(_ORIGIN), fetch.alias("fetch"))

    # The fetches a verdict may need besides its origin's own (and its
    # origin's captures): those its redirects lead to, one more than the
    # limit (so that the library can tell "over the limit" from "target
    # missing"). The redirects' origins (no bodies) are followed on the
    # driver, which is plumbing: the library applies the policy to the
    # chain.
    edges: dict = {}
    for a, b in (
        f.where(F.col("status").between(300, 399))
        .where(F.col("target").isNotNull())
        .select("origin", "target")
        .distinct()
        .collect()
    ):
        edges.setdefault(a, set()).add(b)
    extra = []
    for start in edges:
        seen, frontier = {start}, [start]
        for _ in range(policy["max_redirects"] + 1):
            frontier = [t for a in frontier for t in edges.get(a, ()) if t not in seen]
            seen.update(frontier)
            extra += [(start, t) for t in frontier]
            if not frontier:
                break
    if extra:
        spark = df.sparkSession
        hops = spark.createDataFrame(extra, f"{_ORIGIN} string, hop string")
        bodies = f.select(F.col("origin").alias("hop"), fetch.alias("fetch"))
        own = own.unionByName(
            hops.join(bodies, "hop").select(_ORIGIN, "fetch")
        )
    chain = own.groupBy(_ORIGIN).agg(F.collect_list("fetch").alias(_CHAIN))

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
                times = None if time_column is None else own.column(time_column)
                result = crawl.evaluate(urls, explain=explain, times=times)
                own = pa.RecordBatch.from_arrays(
                    [own.column(n) for n in names], names=names
                )
                yield _append(own, result)
            # Sorted by origin: only the last origin's URLs may come in the
            # next batch.
            last = batch.column(_ORIGIN)[-1].as_py() if batch.num_rows else None
            chains = {last: chains[last]} if last in chains else {}

    return rows.mapInArrow(judge, out_schema)


# The Arrow types of fetches_from_warc's columns, as Spark takes them.
_WARC_TYPES = {
    "url": pa.string(),
    "status": pa.int32(),
    "body": pa.binary(),
    "location": pa.string(),
    "date": pa.string(),
}


def fetches_from_warc(
    spark: Any,
    paths: Union[str, Sequence[str]],
    *,
    max_robots_bytes: int = DEFAULT_MAX_ROBOTS_BYTES,
    batch_rows: int = 1024,
) -> Any:
    """A DataFrame of the robots.txt fetches in WARC files (``.warc`` or
    ``.warc.gz``, as Common Crawl publishes them), read by the executors,
    one task per file, by the library's WARC reader: the columns ``url``
    (the robots.txt's, or another URL captured), ``status`` (0: no usable
    answer), ``body`` (binary, at most what ``max_robots_bytes`` parses),
    ``location`` and ``date`` (the ``WARC-Date``), ready for
    ``with_verdicts(fetches=...)``.

    Each path must be readable by the executors as a local file (a
    shared file system, or copied there first: the reader takes no
    ``s3://`` URL). Every dated capture of a robots.txt is a row, as
    ``robots-batch crawl --robots-warc`` keeps them all; ``with_verdicts``
    judges by the newest, as of a date, or at each URL's fetch time. A
    task holds one file's fetches at a time.
    """
    from pyspark.sql.types import (
        BinaryType, IntegerType, StringType, StructField, StructType,
    )

    paths = [paths] if isinstance(paths, str) else [str(p) for p in paths]
    schema = StructType([
        StructField("url", StringType(), True),
        StructField("status", IntegerType(), True),
        StructField("body", BinaryType(), True),
        StructField("location", StringType(), True),
        StructField("date", StringType(), True),
    ])
    # One partition per file, so that the files are read side by side.
    files = spark.createDataFrame(
        spark.sparkContext.parallelize([(p,) for p in paths], max(len(paths), 1)),
        "path string",
    )

    def read(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            for path in batch.column("path").to_pylist():
                if path is None:
                    continue
                cols = _robots_batch.read_warc(path, max_robots_bytes)
                names = [name for name, _ in cols]
                arrays = [pa.array(c) for _, c in cols]
                # Spark takes binary, not large binary, and batches of a
                # bounded number of bodies.
                table = pa.Table.from_arrays(arrays, names=names)
                for part in table.to_batches(max_chunksize=batch_rows):
                    yield pa.RecordBatch.from_arrays(
                        [part.column(n).cast(_WARC_TYPES[n]) for n in names],
                        names=names,
                    )

    return files.mapInArrow(read, schema)
