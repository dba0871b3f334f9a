"""What the DuckDB and Polars recipes share: which judge (a Matcher for one
robots.txt, a Crawl for each URL's own origin) and one Arrow column of
results for one Arrow array of URLs."""

from __future__ import annotations

from typing import Any, Optional, Union

from . import Crawl, Matcher

Judge = Union[Matcher, Crawl]


def judge(
    given: Optional[Judge],
    robots: Union[None, bytes, str],
    fetches: Any,
    options: dict,
) -> Judge:
    """The judge given, or one built from ``robots`` (a :class:`Matcher`) or
    ``fetches`` (a :class:`Crawl`) with the constructor's ``options``."""
    chosen = [x is not None for x in (given, robots, fetches)]
    if sum(chosen) != 1:
        raise ValueError(
            "give exactly one of: a Matcher or Crawl, robots=... (one "
            "robots.txt for every URL) or fetches=... (each URL by its "
            "own origin's robots.txt)"
        )
    if given is not None:
        if not isinstance(given, (Matcher, Crawl)):
            raise TypeError(
                f"expected a robots_batch.Matcher or Crawl, not "
                f"{type(given).__name__}"
            )
        if options:
            # Options here would be silently ignored: the judge is built.
            raise TypeError(
                "options such as agents= go to the Matcher or Crawl given, "
                f"not here: {', '.join(sorted(options))}"
            )
        return given
    if robots is not None:
        return Matcher(robots, **options)
    return Crawl(fetches=_table(fetches), **options)


def _table(fetches: Any) -> Any:
    """Fetches from another engine (a Polars DataFrame, a DuckDB relation),
    which speak only the Arrow C stream protocol, read into one Arrow table
    so that Crawl reads them without a Python object per fetch."""
    if hasattr(fetches, "__arrow_c_stream__") and not hasattr(
        fetches, "__arrow_c_array__"
    ):
        import pyarrow as pa

        if not isinstance(fetches, (pa.Table, pa.ChunkedArray)):
            return pa.table(fetches)
    return fetches


def timed(judge: Judge, times: bool) -> None:
    """Checks that ``judge`` judges at fetch time exactly when the engine
    gives times (``times``): a Crawl with ``at_fetch_time=True``."""
    at_fetch_time = isinstance(judge, Crawl) and judge.at_fetch_time
    if times and not at_fetch_time:
        raise ValueError(
            "fetch times judge each URL by the capture in effect then: they "
            "need a Crawl with at_fetch_time=True (fetches=... builds one)"
        )
    if at_fetch_time and not times:
        raise ValueError(
            "the Crawl judges each URL at its fetch time "
            "(at_fetch_time=True): give the times too"
        )


def evaluate(
    judge: Judge, urls: Any, explain: bool, usage: bool, times: Any = None
) -> Any:
    """The judge's result columns for an Arrow array (or chunked array) of
    URLs, as one Arrow column: the column itself when there is one (a
    Matcher's ``verdict`` for one agent), else a struct of them all, null
    where the URL is. ``times``, one per URL, go to a Crawl that judges at
    fetch time."""
    import pyarrow as pa

    options = {"explain": explain}
    if times is not None:
        options["times"] = times
    if usage:
        if isinstance(judge, Crawl):
            raise ValueError("usage=True needs a Matcher: a Crawl has no usage form")
        options["usage"] = True
    if isinstance(urls, pa.ChunkedArray) and urls.num_chunks <= 1:
        # The engines pass a batch as one chunk (or none): one array in
        # gives one array out, which both take back as it is.
        urls = urls.chunk(0) if urls.num_chunks else pa.array([], type=urls.type)
    out = judge.evaluate(urls, **options)
    if out.num_columns == 1:
        return out.column(0)
    if isinstance(out, pa.Table):
        struct = pa.struct(list(out.schema))
        batches = [_struct(batch) for batch in out.to_batches()]
        return pa.chunked_array(batches, type=struct)
    return _struct(out)


def _struct(batch: Any) -> Any:
    """A record batch as a struct array, null where the URL was: the first
    column, a verdict, is null exactly there."""
    import pyarrow as pa
    import pyarrow.compute as pc

    return pa.StructArray.from_arrays(
        batch.columns, fields=list(batch.schema), mask=pc.is_null(batch.column(0))
    )

def empty(judge: Judge, explain: bool, usage: bool) -> Any:
    """The result column for no URLs: its type is the type of every
    result, which the engines' functions declare ahead of the data."""
    import pyarrow as pa

    times = None
    if isinstance(judge, Crawl) and judge.at_fetch_time:
        times = pa.array([], type=pa.string())
    return evaluate(judge, pa.array([], type=pa.string()), explain, usage, times)
