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
    """
    import polars as pl

    judge = _dataframes.judge(judge, robots, fetches, options)
    dtype = pl.from_arrow(_dataframes.empty(judge, explain, usage)).dtype

    def batch(series: "pl.Series") -> "pl.Series":
        column = _dataframes.evaluate(judge, series.to_arrow(), explain, usage)
        return pl.Series(series.name, column, dtype=dtype)

    if isinstance(urls, pl.Series):
        return batch(urls)
    if not isinstance(urls, pl.Expr):
        raise TypeError(
            f"expected a polars Expr or Series of URLs, not {type(urls).__name__}"
        )
    # Elementwise: each URL's verdict depends on that URL only, so Polars
    # may split the column into batches (and stream them) as it likes.
    return urls.map_batches(batch, return_dtype=dtype, is_elementwise=True)

