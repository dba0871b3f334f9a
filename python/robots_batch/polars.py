"""robots-batch in Polars: an expression that gives each URL of a column its
verdict, through Arrow (``map_batches``), with one robots.txt for every URL
or each URL judged by its own origin's robots.txt fetch::

    import polars as pl
    from robots_batch.polars import verdicts

    df.with_columns(verdict=verdicts(pl.col("url"), robots=robots, agents="GPTBot"))

Needs polars (``pip install polars``); robots_batch itself does not.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import _dataframes
from ._dataframes import Judge

__all__ = ["verdicts"]


def verdicts(
    urls: Any,
    judge: Optional[Judge] = None,
    *,
    robots: Union[None, bytes, str] = None,
    fetches: Any = None,
    explain: bool = False,
    usage: bool = False,
    time_column: Any = None,
    **options: Any,
) -> Any:
    """The verdicts of a column of URLs (string or binary), as a Polars
    expression for a ``pl.Expr``, or as a Series for a ``pl.Series``.

    Give exactly one of: ``judge``, a :class:`robots_batch.Matcher` or
    :class:`robots_batch.Crawl` built already; ``robots``, one robots.txt
    for every URL (a Matcher with ``options`` such as ``agents=``,
    ``dialect=``); ``fetches``, robots.txt fetches for each URL's own
    origin (a Crawl with ``options`` such as ``agents=``, ``on_5xx=``;
    a Polars DataFrame of fetches works too).

    The result is the columns of ``evaluate`` (``explain``, and ``usage``
    for a Matcher, add theirs): the ``verdict`` string itself when it is
    the only column, else a struct of them all (``.struct.field("reason")``
    or ``DataFrame.unnest`` takes it apart). A null URL gets null. The
    judge is compiled once, when the expression is built, and each batch
    is matched without the GIL.

    ``time_column`` (a column name or an expression; a Series beside a
    Series of URLs) gives each URL's fetch time (strings, datetimes, dates
    or integers of seconds): the URLs are then judged by the capture of
    their origin in effect at those times (the Crawl built with
    ``at_fetch_time=True``, or given so), a time that cannot be read
    giving ``unknown``, ``no-time``. ``as_of`` and ``before_first`` go to
    the Crawl as its other options do.
    """
    import polars as pl

    timed = time_column is not None
    if timed and judge is None and robots is None:
        options = {**options, "at_fetch_time": True}
    judge = _dataframes.judge(judge, robots, fetches, options)
    _dataframes.timed(judge, timed)
    dtype = pl.from_arrow(_dataframes.empty(judge, explain, usage)).dtype

    def batch(series: "pl.Series", times: Any = None) -> "pl.Series":
        column = _dataframes.evaluate(judge, series.to_arrow(), explain, usage, times)
        return pl.Series(series.name, column, dtype=dtype)

    if isinstance(urls, pl.Series):
        if timed and not isinstance(time_column, pl.Series):
            raise TypeError("beside a Series of URLs, time_column must be a Series")
        return batch(urls, time_column.to_arrow() if timed else None)
    if not isinstance(urls, pl.Expr):
        raise TypeError(
            f"expected a polars Expr or Series of URLs, not {type(urls).__name__}"
        )
    if timed:
        times = pl.col(time_column) if isinstance(time_column, str) else time_column

        def timed_batch(pair: "pl.Series") -> "pl.Series":
            both = pair.struct.unnest()
            url, when = both.get_column("url"), both.get_column("time")
            return batch(url, when.to_arrow()).alias(pair.name)

        # Each URL's verdict depends on that row only, as without times.
        pair = pl.struct(urls.alias("url"), times.alias("time"))
        return pair.map_batches(timed_batch, return_dtype=dtype, is_elementwise=True).alias(
            _output_name(urls)
        )
    # Elementwise: each URL's verdict depends on that URL only, so Polars
    # may split the column into batches (and stream them) as it likes.
    return urls.map_batches(batch, return_dtype=dtype, is_elementwise=True)


def _output_name(expr: Any) -> str:
    """The name an expression's column gets (``url`` for ``pl.col("url")``),
    which the struct of URLs and times would otherwise take."""
    import polars as pl

    try:
        return expr.meta.output_name()
    except pl.exceptions.ComputeError:  # no one name (pl.all())
        return "verdict"

