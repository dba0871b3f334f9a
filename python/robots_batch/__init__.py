"""robots-batch for Python: decide, for many URLs at a time, whether a
crawler may fetch them under a robots.txt.

A thin layer over the Rust library that the ``robots-batch`` command is
built on: the same parser, dialects, engines and verdicts. Compile a
robots.txt once, then give it URLs by the thousand, as a Python list or as
an Arrow array (no Python object per URL; matching releases the GIL)::

    >>> import robots_batch
    >>> m = robots_batch.Matcher(b"User-agent: *\\nDisallow: /private/\\n")
    >>> m.verdicts(["https://example.com/", "https://example.com/private/x"])
    ['allowed', 'disallowed']

For URLs of many hosts, :class:`Crawl` judges each URL by its own origin's
robots.txt fetch, with RFC 9309's rules for fetch statuses and redirects.
:mod:`robots_batch.spark` runs either inside Apache Spark.
"""

from __future__ import annotations

import datetime
import os
from typing import (
    TYPE_CHECKING,
    Any,
    Iterable,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from . import _robots_batch
from ._robots_batch import __version__, cache_info

if TYPE_CHECKING:  # pragma: no cover
    import pyarrow as pa

__all__ = [
    "DIALECTS",
    "ENGINES",
    "Crawl",
    "CrawlExplanation",
    "CrawlVerdict",
    "Explanation",
    "Matcher",
    "Time",
    "UsagePrefs",
    "__version__",
    "cache_info",
    "origins",
    "read_sitemap",
]

#: The dialects, the default first (see the project README).
DIALECTS = ("rfc9309", "google", "draft1996", "orig1994")
#: The engines, the default first; all give the same verdicts. ``"dfa"``,
#: the old name of ``"trie"``, is accepted too.
ENGINES = ("trie", "dense", "lazy", "scan", "naive")
#: The parse limit of a robots.txt, in bytes, as the command's default.
DEFAULT_MAX_ROBOTS_BYTES = _robots_batch.default_max_robots_bytes()

URL = Union[str, bytes, None]
Agents = Union[str, Sequence[str]]
PathLike = Union[str, "os.PathLike[str]"]


class Explanation(NamedTuple):
    """Why a URL got its verdict (:meth:`Matcher.explain`)."""

    #: ``allowed`` or ``disallowed``.
    verdict: str
    #: ``rule``, ``no-matching-rule``, ``no-group`` or ``implicit-robots-txt``.
    reason: str
    #: The deciding rule's line number, when a rule decided.
    line: Optional[int]
    #: The deciding rule's line exactly as written, when a rule decided.
    rule: Optional[str]
    #: The group the rules came from (the agent token or ``*``); None when
    #: no group applies.
    group: Optional[str]


class UsagePrefs(NamedTuple):
    """A URL's verdict and AI usage preferences (:meth:`Matcher.usage`),
    from the ``Content-Usage`` and ``Content-Signal`` lines of the groups
    that apply. Each preference is ``allowed``, ``disallowed`` or
    ``unknown``; all are None when the URL may not be fetched."""

    #: ``allowed`` or ``disallowed``.
    verdict: str
    #: AI model training (AIPREF ``train-ai``, Content-Signal ``ai-train``).
    train_ai: Optional[str]
    #: Search (``search`` in both).
    search: Optional[str]
    #: Live input to AI answers (Content-Signal ``ai-input``).
    ai_input: Optional[str]
    #: The line that decided each preference (None when it is unknown).
    train_ai_line: Optional[int]
    search_line: Optional[int]
    ai_input_line: Optional[int]


class CrawlVerdict(NamedTuple):
    """A crawl-log verdict (:meth:`Crawl.verdicts`)."""

    #: ``allowed``, ``disallowed`` or ``unknown``.
    verdict: str
    #: ``rule``, ``no-matching-rule``, ``no-group``, ``implicit-robots-txt``,
    #: ``status-4xx``, ``status-5xx``, ``redirect-limit``,
    #: ``redirect-missing``, ``no-robots`` or ``no-host``; with dated
    #: captures, ``before-first`` (a URL older than every capture, under
    #: ``before_first="unknown"``), ``no-time`` (a fetch time that could
    #: not be read), or any reason with ``;before-first`` after it when the
    #: earliest capture, made after the URL's time, judged it.
    reason: str


class CrawlExplanation(NamedTuple):
    """A crawl-log verdict with its source (:meth:`Crawl.explain`), in the
    order of the command's ``crawl --explain`` columns."""

    verdict: str
    reason: str
    #: The fetch that decided (after redirects): its origin or host.
    robots: Optional[str]
    #: When that capture was made (RFC 3339, UTC), if its date says.
    capture: Optional[str]
    #: The deciding rule's line number and text, when a rule decided.
    line: Optional[int]
    rule: Optional[str]


#: A fetch time: RFC 3339 (``"2024-06-01T12:00:00Z"``), a day
#: (``"2024-06-01"``), a 14-digit WARC or CDX timestamp, an int of seconds
#: since 1970, or a ``datetime``/``date`` (naive ones are UTC).
Time = Union[str, int, "datetime.datetime", "datetime.date", None]


def _record_batch(columns: list, table: bool) -> Any:
    import pyarrow as pa

    names = [name for name, _ in columns]
    arrays = [pa.array(column) for _, column in columns]
    if table:
        return pa.Table.from_arrays(arrays, names=names)
    return pa.RecordBatch.from_arrays(arrays, names=names)


def _is_stream_only(obj: Any) -> bool:
    """True for an object that speaks the Arrow C stream protocol but not
    the array one, as Polars Series and DuckDB relations do."""
    return hasattr(obj, "__arrow_c_stream__") and not hasattr(
        obj, "__arrow_c_array__"
    )


def _evaluate(
    evaluate: Any,
    urls: Any,
    column: str,
    times: Any = None,
    time_column: Optional[str] = None,
    **options: Any,
) -> Any:
    """Runs an Arrow evaluation over an array, a chunked array, a record
    batch or a table (of which ``column`` holds the URLs, and
    ``time_column`` the fetch times if given), with the ``options`` of the
    evaluation (``explain``...); ``times``, one per URL, go with them."""
    import pyarrow as pa

    if time_column is not None and times is not None:
        raise ValueError("give times= or time_column=, not both")
    if _is_stream_only(urls):
        # A stream of arrays (a Polars Series) or of record batches (a
        # Polars DataFrame, a DuckDB relation), read into a table or a
        # chunked array.
        urls = pa.chunked_array(urls)
        if pa.types.is_struct(urls.type):
            urls = pa.Table.from_struct_array(urls)
    if isinstance(urls, (pa.RecordBatch, pa.Table)):
        if time_column is not None:
            times = urls.column(time_column)
        urls = urls.column(column)
    elif time_column is not None:
        raise ValueError("time_column= names a column of a table or record batch of URLs")
    elif isinstance(urls, (list, tuple)):
        urls = pa.array(urls, type=pa.binary() if any(
            isinstance(u, bytes) for u in urls) else pa.string())
    if pa.types.is_dictionary(getattr(urls, "type", None) or pa.null()):
        urls = urls.cast(urls.type.value_type)
    if times is not None:
        times = _times(times)
        options["times"] = times
    if isinstance(urls, pa.ChunkedArray):
        parts = []
        at = 0
        for chunk in urls.chunks:
            if times is not None:
                options["times"] = times.slice(at, len(chunk))
                at += len(chunk)
            parts.append(evaluate(chunk, **options))
        if not parts:
            if times is not None:
                options["times"] = times.slice(0, 0)
            parts = [evaluate(pa.array([], type=urls.type), **options)]
        tables = [_record_batch(p, table=True) for p in parts]
        return pa.concat_tables(tables)
    return _record_batch(evaluate(urls, **options), table=False)


def _times(times: Any) -> Any:
    """Fetch times as one Arrow array (from a chunked array or a Polars
    Series) or a list of Python times (:data:`Time`, each read on its own,
    so that one that is no time gives its URL ``no-time``), sliceable
    beside the URLs' chunks."""
    import pyarrow as pa

    if isinstance(times, pa.ChunkedArray):
        return times.combine_chunks() if times.num_chunks != 1 else times.chunk(0)
    if isinstance(times, pa.Array):
        return times
    if _is_stream_only(times):
        return _times(pa.chunked_array(times))
    if isinstance(times, str):
        raise TypeError("times must be one time per URL, not one str")
    return _PyTimes(list(times))


class _PyTimes:
    """A list of Python times, sliced as an Arrow array is."""

    def __init__(self, values: List[Any]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values)

    def __iter__(self) -> Any:
        return iter(self.values)

    def slice(self, start: int, length: int) -> "_PyTimes":
        return _PyTimes(self.values[start:start + length])


class Matcher:
    """A robots.txt compiled for one or more agents in one dialect.

    :param robots: the robots.txt, as bytes (or str).
    :param agents: the crawler's product token (``"GPTBot"``), or several;
        ``"*"`` (the default) gets the rules of the ``*`` groups only.
    :param dialect: one of :data:`DIALECTS`; ``rfc9309`` by default.
    :param engine: one of :data:`ENGINES`; all give the same verdicts.
    :param max_robots_bytes: the parse limit (0: none), 500 KB by default
        as in RFC 9309.

    A Matcher is immutable and can be shared between threads.

    >>> m = Matcher(b"User-agent: GPTBot\\nDisallow: /\\n", ["GPTBot", "CCBot"])
    >>> m.verdicts(["https://example.com/a"], agent="GPTBot")
    ['disallowed']
    >>> m.explain(["https://example.com/a"], agent="CCBot")[0].reason
    'no-group'
    """

    def __init__(
        self,
        robots: Union[bytes, str],
        agents: Agents = "*",
        dialect: str = "rfc9309",
        *,
        engine: str = "trie",
        max_robots_bytes: int = DEFAULT_MAX_ROBOTS_BYTES,
    ) -> None:
        self._inner = _robots_batch.Matchers(
            robots, agents, dialect, engine, max_robots_bytes
        )

    @property
    def agents(self) -> List[str]:
        """The agents, in the order of the result columns."""
        return self._inner.agents

    @property
    def dialect(self) -> str:
        return self._inner.dialect

    @property
    def strategies(self) -> List[str]:
        """How each agent's rules were compiled (``trie``, ``dense-dfa``,
        ``lazy-dfa``...)."""
        return self._inner.strategies

    def verdicts(
        self, urls: Iterable[URL], agent: Optional[str] = None
    ) -> List[Optional[str]]:
        """``allowed`` or ``disallowed`` for each URL (None for None).

        ``agent`` names which agent's verdicts, when the matcher has
        several. A URL may be absolute or just a path; bytes need not be
        UTF-8.
        """
        return self._inner.verdicts(urls, agent)

    def explain(
        self, urls: Iterable[URL], agent: Optional[str] = None
    ) -> List[Optional[Explanation]]:
        """Each URL's :class:`Explanation` (None for None)."""
        return [
            None if e is None else Explanation._make(e)
            for e in self._inner.explain(urls, agent)
        ]

    def usage(
        self, urls: Iterable[URL], agent: Optional[str] = None
    ) -> List[Optional[UsagePrefs]]:
        """Each URL's :class:`UsagePrefs` (None for None): the command's
        ``--usage`` columns, with ``--explain``'s deciding lines.

        >>> m = Matcher(b"User-agent: *\\nDisallow: /x\\n"
        ...             b"Content-Usage: train-ai=n\\n")
        >>> m.usage(["/a"])[0].train_ai
        'disallowed'
        >>> m.usage(["/x"])[0].train_ai is None
        True
        """
        return [
            None if u is None else UsagePrefs._make(u)
            for u in self._inner.usage(urls, agent)
        ]

    def evaluate(
        self,
        urls: Any,
        *,
        column: str = "url",
        explain: bool = False,
        usage: bool = False,
    ) -> "Union[pa.RecordBatch, pa.Table]":
        """The Arrow form: verdicts for an Arrow array of URLs (string or
        binary, any offset size or view), a ChunkedArray, or the ``column``
        of a RecordBatch or Table.

        Returns a RecordBatch (a Table for chunked input) with a
        ``verdict`` column, with ``explain`` the ``line``, ``rule``,
        ``group`` and ``reason`` columns, and with ``usage`` the AI usage
        preferences ``train_ai``, ``search`` and ``ai_input`` (null when
        the URL may not be fetched; with ``explain`` too, ``train_ai_line``,
        ``search_line`` and ``ai_input_line``); for several agents, the
        columns are ``<agent>``, ``<agent>_line`` and so on (the command's
        ``--layout wide`` with ``_`` for ``.`` and ``-``, which Spark SQL
        would read as a struct's field and a minus). A null URL gets null
        in every column.
        """
        return _evaluate(
            self._inner.evaluate_arrow,
            urls,
            column,
            explain=explain,
            usage=usage,
        )


def _is_arrow(obj: Any) -> bool:
    return hasattr(obj, "__arrow_c_array__") or hasattr(
        obj, "__arrow_c_stream__"
    )


def _struct_arrays(obj: Any) -> List[Any]:
    """The struct arrays of fetches of a RecordBatch, a Table (a chunk
    each, not combined: the Crawl keeps each chunk's bodies where they
    lie) or an array."""
    import pyarrow as pa

    if isinstance(obj, pa.Table):
        obj = obj.to_struct_array()
    if isinstance(obj, pa.ChunkedArray):
        return list(obj.chunks)
    return [obj]


def _dirs(robots_dir: Any) -> Tuple[Optional[str], List[Tuple[Any, str]]]:
    """An undated directory, and dated ones as (date, path) pairs."""
    if robots_dir is None:
        return None, []
    if isinstance(robots_dir, Mapping):
        return None, [(date, os.fspath(d)) for date, d in robots_dir.items()]
    return os.fspath(robots_dir), []


def _paths(paths: Union[None, PathLike, Sequence[PathLike]]) -> List[str]:
    if paths is None:
        return []
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


class Crawl:
    """URLs of many hosts, each judged by its own origin's robots.txt fetch.

    The fetches come from any of the command's sources, together:

    :param robots_dir: a directory of ``<host>.txt`` files, each the
        robots.txt of ``<host>``, fetched with status 200; or a mapping of
        dates (:data:`Time`) to such directories, each file a capture made
        at its directory's date (the command's ``--robots-dir DATE=DIR``).
    :param robots_index: JSON Lines files (gzip allowed) of fetches:
        ``{"url": ".../robots.txt", "status": 200, "body": "..."}``, with
        ``body_base64`` or ``location`` where needed.
    :param robots_warc: WARC files (``.warc`` or ``.warc.gz``) of robots.txt
        fetches, as Common Crawl publishes them.
    :param fetches: an iterable of mappings with ``url`` (of the robots.txt)
        or ``origin``, ``status`` (0 or None: unreachable), ``body`` (bytes
        or str) and ``location``; or the same as Arrow (a RecordBatch, a
        Table or a struct array with those fields), read without a Python
        object per fetch. A fetch may have a ``date``, when it was made
        (:data:`Time`; in Arrow, a string, timestamp, date or integer
        column): every dated capture of an origin is kept, and which one
        judges a URL is chosen as below. Of two fetches of one origin at
        one instant (or two undated), the last one given counts (the first
        one, for Arrow input, where rows repeating a fetch count once). A
        date that is no date raises ``ValueError`` naming the fetch.

    The policy for fetch results follows RFC 9309 by default: a 4xx allows
    everything (``on_4xx``; 401 and 403 by ``on_401_403``), a 5xx, a 429 or
    no answer disallows everything (``on_5xx``), up to ``max_redirects``
    redirects are followed within the fetches given, and a URL whose origin
    has no fetch is ``unknown`` (or ``on_missing``).

    Which capture of an origin judges a URL, as the command's ``crawl``
    chooses: by default the newest; with ``as_of`` (a :data:`Time`; a day
    alone stands for its end), for every URL the newest capture at or
    before that instant; with ``at_fetch_time=True``, each URL at its own
    fetch time, given as ``times=`` to :meth:`verdicts`, :meth:`explain`
    and :meth:`evaluate` (which then require it): the newest capture at
    or before that time. The Crawl then keeps every capture's body, where
    by default it keeps only the newest. A URL older than every capture of
    its origin is judged by the earliest, its reason followed by
    ``;before-first``, or with ``before_first="unknown"`` is ``unknown``
    (reason ``before-first``). A URL whose time cannot be read (None, a
    value that is no time) is ``unknown``, reason ``no-time``; it never
    raises.

    Compiled matchers are kept in a cache bounded by ``cache_bytes``: by
    default 256 MiB, or six times the bodies given (``fetches``,
    ``robots_index``, ``robots_warc``; a directory's files are read when
    first needed and do not count) if that is more, for rules and matchers
    take about 2.7 times their robots.txt's bytes while they scan and 5.3
    times once compiled (counted as allocated), and URLs judged batch by
    batch in random host order would build again and again those of the
    origins that did not fit. With ``shared_cache`` (the default), one cache serves
    every Crawl of the process, so that a robots.txt seen by an earlier
    Crawl (an earlier batch of a Spark partition) is not compiled again;
    its size is the ``cache_bytes`` of the first Crawl that uses it.
    Between calls a Crawl also keeps where the URLs' host spellings lead
    (up to 196,608, about 19 MB) and its buffers, once per call running at
    the same time (up to eight): batch after batch of one log does not
    locate its origins again.

    >>> c = Crawl(fetches=[
    ...     {"url": "https://a.com/robots.txt", "status": 200,
    ...      "body": b"User-agent: *\\nDisallow: /x\\n"},
    ...     {"url": "https://b.com/robots.txt", "status": 503},
    ... ])
    >>> [tuple(v) for v in c.verdicts(["https://a.com/x", "https://b.com/",
    ...                                "https://c.com/", "not a url"])]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('disallowed', 'rule'), ('disallowed', 'status-5xx'),
     ('unknown', 'no-robots'), ('unknown', 'no-host')]
    """

    def __init__(
        self,
        *,
        robots_dir: Union[None, PathLike, Mapping[Time, PathLike]] = None,
        robots_index: Union[None, PathLike, Sequence[PathLike]] = None,
        robots_warc: Union[None, PathLike, Sequence[PathLike]] = None,
        fetches: Optional[Iterable[Any]] = None,
        agents: Agents = "*",
        dialect: str = "rfc9309",
        engine: str = "trie",
        on_4xx: str = "allow",
        on_401_403: str = "allow",
        on_5xx: str = "disallow",
        on_missing: Optional[str] = None,
        max_redirects: int = 5,
        max_robots_bytes: int = DEFAULT_MAX_ROBOTS_BYTES,
        cache_bytes: Optional[int] = None,
        shared_cache: bool = True,
        as_of: Time = None,
        at_fetch_time: bool = False,
        before_first: str = "earliest",
    ) -> None:
        sources = (robots_dir, robots_index, robots_warc, fetches)
        if all(source is None for source in sources):
            # As the command requires a source: without one every URL
            # would be `unknown`, which is never what was meant.
            raise ValueError(
                "Crawl needs a source of robots.txt fetches: robots_dir, "
                "robots_index, robots_warc or fetches (fetches=[] for none)"
            )
        fetch_array = None
        if fetches is not None and _is_arrow(fetches):
            fetch_array, fetches = _struct_arrays(fetches), None
        self._inner = _robots_batch.Crawl(
            agents,
            dialect,
            engine,
            *_dirs(robots_dir),
            _paths(robots_index),
            _paths(robots_warc),
            fetches,
            fetch_array,
            on_4xx,
            on_401_403,
            on_5xx,
            on_missing,
            max_redirects,
            max_robots_bytes,
            cache_bytes,
            shared_cache,
            as_of,
            at_fetch_time,
            before_first,
        )

    def __len__(self) -> int:
        """How many sites (origins and hosts) have a robots.txt fetch, each
        counted once however many dated captures it has
        (:attr:`captures` counts those)."""
        return len(self._inner)

    @property
    def captures(self) -> int:
        """How many captures of their robots.txt the sites hold together:
        ``len(crawl)`` when each has one."""
        return self._inner.captures

    @property
    def as_of(self) -> Optional[str]:
        """The instant every URL is judged as of (RFC 3339, UTC), if one
        is."""
        return self._inner.as_of

    @property
    def at_fetch_time(self) -> bool:
        """Whether each URL is judged at its own fetch time (``times=``)."""
        return self._inner.at_fetch_time

    @property
    def before_first(self) -> str:
        """``earliest`` or ``unknown``: what a URL older than every capture
        of its origin gets."""
        return self._inner.before_first

    @property
    def agents(self) -> List[str]:
        return self._inner.agents

    @property
    def cache_bytes(self) -> int:
        """The bytes of compiled matchers the cache keeps at most: the
        ``cache_bytes`` given, or the default chosen from the bodies."""
        return self._inner.cache_bytes

    def verdicts(
        self,
        urls: Iterable[URL],
        agent: Optional[str] = None,
        *,
        times: Optional[Iterable[Time]] = None,
    ) -> List[Optional[CrawlVerdict]]:
        """Each URL's :class:`CrawlVerdict` (None for None); with
        ``at_fetch_time``, each fetched at its time of ``times`` (a list or
        an Arrow array, one per URL)."""
        return [
            None if v is None else CrawlVerdict._make(v)
            for v in self._inner.verdicts(urls, agent, _list_times(times))
        ]

    def explain(
        self,
        urls: Iterable[URL],
        agent: Optional[str] = None,
        *,
        times: Optional[Iterable[Time]] = None,
    ) -> List[Optional[CrawlExplanation]]:
        """Each URL's :class:`CrawlExplanation` (None for None), at
        ``times`` as :meth:`verdicts`."""
        return [
            None if e is None else CrawlExplanation._make(e)
            for e in self._inner.explain(urls, agent, _list_times(times))
        ]

    def evaluate(
        self,
        urls: Any,
        *,
        column: str = "url",
        explain: bool = False,
        times: Any = None,
        time_column: Optional[str] = None,
    ) -> "Union[pa.RecordBatch, pa.Table]":
        """The Arrow form, as :meth:`Matcher.evaluate`: ``verdict`` and
        ``reason`` columns, and with ``explain`` ``robots``, ``capture``,
        ``line`` and ``rule``; ``<agent>``, ``<agent>_reason``... for
        several agents. With ``at_fetch_time``, each URL's time comes from
        ``times`` (an Arrow array, chunked array or list, one per URL) or
        the ``time_column`` of a table or record batch of URLs: strings,
        timestamps, dates or integers of seconds."""
        return _evaluate(
            self._inner.evaluate_arrow,
            urls,
            column,
            times=times,
            time_column=time_column,
            explain=explain,
        )


def _list_times(times: Any) -> Any:
    """Times for the list form: Arrow arrays as they are (read without a
    Python object each), a chunked array combined, anything else a list."""
    if times is None or isinstance(times, str) or hasattr(times, "__arrow_c_array__"):
        return times
    if _is_stream_only(times) or hasattr(times, "combine_chunks"):
        return _times(times)
    return list(times)


def origins(urls: Any) -> "pa.Array":
    """The origin of each URL of an Arrow array (``https://example.com``,
    with the port only when it is not the scheme's default), null where a
    URL has none: the key that joins URLs to robots.txt fetches."""
    import pyarrow as pa

    [(_, column)] = _robots_batch.origins(urls)
    return pa.array(column)


def read_sitemap(
    path: PathLike,
    *,
    sitemap_dir: Optional[PathLike] = None,
    origin: Optional[str] = None,
) -> "pa.Table":
    """The entries of a sitemap (XML ``urlset`` or ``sitemapindex``, text,
    gzip- or zstd-compressed) or llms.txt, read as the command reads them:
    a table with the columns ``url``, ``file``, ``line``, ``lastmod``,
    ``kind`` (``"url"``, or ``"sitemap"`` for an index's child) and
    ``error`` (why an entry has no URL to judge, else null). With
    ``sitemap_dir``, an index's children are read from that directory (a
    child not found is an entry with an error); with ``origin``, an
    llms.txt's relative links are made absolute against it. The ``url``
    column goes to :meth:`Matcher.evaluate` or :meth:`Crawl.evaluate` as
    any other. Malformed XML or an HTML page raises ``ValueError``."""
    columns = _robots_batch.read_sitemap(
        os.fspath(path),
        None if sitemap_dir is None else os.fspath(sitemap_dir),
        origin,
    )
    return _record_batch(columns, table=True)
