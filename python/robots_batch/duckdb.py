"""robots-batch in DuckDB: a vectorized SQL function that gives each URL its
verdict, through Arrow (``create_function(..., type="arrow")``), with one
robots.txt for every URL or each URL judged by its own origin's robots.txt
fetch::

    import duckdb
    import robots_batch.duckdb

    con = duckdb.connect()
    robots_batch.duckdb.register(con, "verdict", robots=robots, agents="GPTBot")
    con.sql("SELECT url, verdict(url) AS verdict FROM 'urls.parquet'")

Needs duckdb (``pip install duckdb``); robots_batch itself does not.
"""

from __future__ import annotations

from typing import Any, Optional, Union

from . import Crawl, _dataframes
from ._dataframes import Judge

__all__ = ["register"]


def register(
    con: Any,
    name: str,
    judge: Optional[Judge] = None,
    *,
    robots: Union[None, bytes, str] = None,
    fetches: Any = None,
    explain: bool = False,
    usage: bool = False,
    time_type: str = "TIMESTAMP",
    **options: Any,
) -> Any:
    """Registers ``name(url VARCHAR)`` on the DuckDB connection ``con``;
    returns ``con``.

    Give exactly one of: ``judge``, a :class:`robots_batch.Matcher` or
    :class:`robots_batch.Crawl` built already; ``robots``, one robots.txt
    for every URL (a Matcher with ``options`` such as ``agents=``,
    ``dialect=``); ``fetches``, robots.txt fetches for each URL's own
    origin (a Crawl with ``options`` such as ``agents=``, ``on_5xx=``;
    a DuckDB relation such as ``con.sql("FROM fetches")`` works too).

    The function returns the columns of ``evaluate`` (``explain``, and
    ``usage`` for a Matcher, add theirs): the ``verdict`` VARCHAR itself
    when it is the only column, else a STRUCT of them all
    (``name(url).reason``, or ``unnest(name(url))`` for columns). A NULL
    URL gets NULL. The judge is compiled once, here; DuckDB hands the
    function a vector of up to 2,048 URLs at a time, matched without the
    GIL (converting the vector and the result still takes it).

    A Crawl that judges each URL at its own fetch time
    (``at_fetch_time=True``, in ``options`` or the Crawl given) makes the
    function ``name(url VARCHAR, fetched time_type)``: ``time_type`` is
    ``TIMESTAMP`` (UTC; a ``DATE`` is cast to it) by default, or
    ``TIMESTAMPTZ``, ``VARCHAR`` (RFC 3339, 14-digit timestamps) or
    ``BIGINT`` (seconds since 1970). A NULL or unreadable time gives
    ``unknown``, reason ``no-time``. ``as_of`` and ``before_first`` go to
    the Crawl as its other options do.
    """
    import pyarrow as pa

    judge = _dataframes.judge(judge, robots, fetches, options)
    # DuckDB's own reading of the result's Arrow type, as the declared
    # return type, so that the two cannot disagree.
    column = _dataframes.empty(judge, explain, usage)
    [return_type] = con.from_arrow(pa.table({"v": column})).types

    if isinstance(judge, Crawl) and judge.at_fetch_time:

        def timed_udf(urls: Any, times: Any) -> Any:
            return _dataframes.evaluate(judge, urls, explain, usage, times)

        # A NULL time comes in (DuckDB would make the result NULL): its URL
        # is unknown, no-time, as everywhere else.
        con.create_function(
            name,
            timed_udf,
            ["VARCHAR", time_type],
            return_type,
            type="arrow",
            null_handling="special",
        )
        return con

    def udf(urls: Any) -> Any:
        return _dataframes.evaluate(judge, urls, explain, usage)

    con.create_function(name, udf, ["VARCHAR"], return_type, type="arrow")
    return con
