"""What the pipeline adapters (datatrove, Ray Data, NeMo Curator) share:
"robots.txt sources + agents + fetch policy" turned into a :class:`Crawl`,
and a batch of URLs turned into one verdict per document.

A :class:`JudgeSpec` holds only options and paths, so that it pickles in a
few hundred bytes (datatrove ships its pipeline to workers with dill, Ray
ships the callable class): each worker builds the :class:`Crawl` from it
the first time it judges, and never receives compiled state.
"""

from __future__ import annotations

import os
import threading
import warnings
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from . import DEFAULT_MAX_ROBOTS_BYTES, Crawl, PathLike, _paths, _robots_batch

__all__ = ["JudgeSpec", "Verdicts", "count", "expand_agents", "timed_spec", "SWISS_AI_AGENTS"]

#: The 15 agents of the Swiss AI (Apertus) robots.txt filter, in their
#: order: the versioned CCBot tokens and ``*`` included, so that
#: ``disallowed_user_agents`` lists the same names as theirs.
SWISS_AI_AGENTS = (
    "AI2Bot",
    "Applebot-Extended",
    "Bytespider",
    "CCBot",
    "CCBot/2.0",
    "CCBot/1.0",
    "ClaudeBot",
    "cohere-training-data-crawler",
    "Diffbot",
    "FacebookBot",
    "Meta-ExternalAgent",
    "Google-Extended",
    "GPTBot",
    "PanguBot",
    "*",
)

def expand_agents(agents: Union[str, Sequence[str]]) -> List[str]:
    """The agents, with the presets expanded as the command's ``--agents``
    does: ``"ai"`` (every AI crawler of the embedded list), ``"ai:CATEGORY"``
    (one category) and ``"swiss-ai"`` (:data:`SWISS_AI_AGENTS`). A str is
    one agent or one preset; duplicates are judged once."""
    given = [agents] if isinstance(agents, str) else list(agents)
    out: List[str] = []
    for agent in given:
        if not isinstance(agent, str):
            raise TypeError(f"an agent must be a str, not {type(agent).__name__}")
        if agent == "ai":
            out += _robots_batch.ai_agent_tokens(None) or []
        elif agent.startswith("ai:"):
            category = agent[3:]
            found = _robots_batch.ai_agent_tokens(category)
            if found is None:
                known = ", ".join(_robots_batch.ai_categories())
                raise ValueError(
                    f"no AI crawler category {category!r}: one of {known}"
                )
            out += found
        elif agent == "swiss-ai":
            out += SWISS_AI_AGENTS
        else:
            out.append(agent)
    if not out:
        raise ValueError("no agent given")
    # Case-insensitive, as agents match groups: the first spelling stays.
    seen = set()
    unique = []
    for agent in out:
        if agent.lower() not in seen:
            seen.add(agent.lower())
            unique.append(agent)
    return unique


def _check_readable(path: str, what: str, directory: bool = False) -> None:
    """Fails now, before any document is read, on a source that is missing
    or unreadable (the worker would otherwise fail mid-pipeline)."""
    if directory:
        if not os.path.isdir(path):
            raise FileNotFoundError(f"{what}: no directory {path!r}")
        os.listdir(path)
        return
    with open(path, "rb") as f:
        f.read(1)


#: The explanation columns of an adapter, by their offset among each
#: agent's columns of :meth:`Crawl.evaluate` (verdict, reason, robots,
#: capture, line, rule).
EXPLAIN_OFFSETS = (
    (2, "robots_source"),
    (3, "robots_capture"),
    (4, "robots_line"),
    (5, "robots_rule"),
)


class Verdicts:
    """One batch's verdicts, row by row, under the policy's ``on_missing``.

    ``verdict``: ``allowed`` (every agent allowed), ``disallowed`` (at least
    one agent disallowed) or ``unknown`` (no robots.txt for the URL's
    origin, or no URL to judge); ``reason``: the Crawl's reason of the
    deciding agent (the first disallowed one, else the first), or
    ``no-url`` (null or absent) / ``not-a-string`` for a value that is not
    a URL string. With ``on_missing="disallow"`` an unjudged row (no-time
    and before-first ones too) is disallowed to every agent, with
    ``"allow"`` allowed, its reason kept.
    """

    def __init__(self, agents: List[str], result: Any, bad: Dict[int, str],
                 on_missing: Optional[str]) -> None:
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        k = len(agents)
        self.agents = agents
        self.table = result
        self._width = result.num_columns // k
        n = result.num_rows
        verdicts = [result.column(i * self._width) for i in range(k)]
        # An (n, k) matrix of "disallowed", built column by column in Arrow.
        if n:
            matrix = np.column_stack([
                pc.fill_null(pc.equal(c, "disallowed"), False).to_numpy(zero_copy_only=False)
                for c in verdicts
            ])
            # Unknown is per origin (no fetch, no host): alike for every agent.
            unknown = pc.fill_null(pc.equal(verdicts[0], "unknown"), True).to_numpy(
                zero_copy_only=False
            ).copy()
        else:
            matrix = np.zeros((0, k), dtype=bool)
            unknown = np.zeros(0, dtype=bool)
        any_dis = matrix.any(axis=1)
        deciding = np.where(any_dis, matrix.argmax(axis=1), 0)
        # The first agent's reason, but for a disallowed row the reason of
        # its deciding agent: read for those rows only (converting every
        # agent's column to Python would cost more than the judging).
        reason = result.column(1).to_pylist() if n else []
        for agent in range(1, k):
            rows = np.flatnonzero(deciding == agent)
            if len(rows):
                picked = result.column(agent * self._width + 1).take(pa.array(rows))
                for r, why in zip(rows.tolist(), picked.to_pylist()):
                    reason[r] = why
        for i, why in bad.items():
            reason[i] = why
        if on_missing is not None:
            # Rows the Crawl could not judge (no host, no URL) follow the
            # policy as a URL without robots.txt does.
            if on_missing == "disallow":
                matrix[unknown] = True
                any_dis |= unknown
            unknown[:] = False
        self._matrix = matrix
        self._deciding = deciding
        self.reason: List[Optional[str]] = reason
        self.verdict: List[str] = np.where(
            any_dis, "disallowed", np.where(unknown, "unknown", "allowed")
        ).tolist()

    def __len__(self) -> int:
        return len(self.verdict)

    def disallowed(self) -> List[List[str]]:
        """Each row's disallowed agents, as Python lists."""
        import numpy as np

        agents = self.agents
        out: List[List[str]] = [[] for _ in range(len(self.verdict))]
        rows, cols = np.nonzero(self._matrix)
        for r, c in zip(rows.tolist(), cols.tolist()):
            out[r].append(agents[c])
        return out

    def disallowed_array(self) -> Any:
        """Each row's disallowed agents, as an Arrow list<string> array."""
        import numpy as np
        import pyarrow as pa

        rows, cols = np.nonzero(self._matrix)
        offsets = np.zeros(len(self.verdict) + 1, dtype=np.int32)
        np.cumsum(self._matrix.sum(axis=1), out=offsets[1:])
        values = pa.array(self.agents, pa.string()).take(pa.array(cols))
        return pa.ListArray.from_arrays(pa.array(offsets), values)

    def columns(self, explain: bool = False) -> List[Tuple[str, Any]]:
        """The columns an Arrow adapter adds: ``robots_verdict``,
        ``robots_reason``, ``disallowed_user_agents``; with ``explain``
        (the Crawl judged with ``explain=True``) the deciding agent's
        ``robots_source`` (the fetch after redirects), ``robots_capture``
        (when that capture was made), ``robots_line`` and
        ``robots_rule``."""
        import pyarrow as pa
        import pyarrow.compute as pc

        cols = [
            ("robots_verdict", pa.array(self.verdict, pa.string())),
            ("robots_reason", pa.array(self.reason, pa.string())),
            ("disallowed_user_agents", self.disallowed_array()),
        ]
        if explain:
            pick = pa.array(self._deciding, pa.int8())
            for offset, name in EXPLAIN_OFFSETS:
                per_agent = [
                    _flat(self.table.column(a * self._width + offset))
                    for a in range(len(self.agents))
                ]
                column = per_agent[0] if len(per_agent) == 1 else pc.choose(pick, *per_agent)
                cols.append((name, column))
        return cols


class JudgeSpec:
    """Sources, agents and policy, checked now and built into a
    :class:`Crawl` lazily, once per process that judges.

    Sources (one or more, as :class:`Crawl` takes them): ``robots_dir``,
    ``robots_index``, ``robots_warc``, ``fetches``, and ``robots_parquet``:
    Parquet files of ``domain, content`` (Swiss AI's robots.txt snapshot),
    where a row is the robots.txt fetched with status 200 from
    ``http://DOMAIN/`` and ``https://DOMAIN/``: it applies to the URLs whose
    host (with its port, if the domain has one) is the domain exactly, as
    the snapshot is looked up by the URL's netloc; not to its subdomains. A
    row whose content is null is no fetch.

    Dated captures are chosen as :class:`Crawl` chooses them: ``as_of``,
    ``before_first``, and ``at_fetch_time`` (which the adapters set when
    given the column or field of each document's fetch time).
    """

    def __init__(
        self,
        agents: Union[str, Sequence[str]],
        *,
        robots_dir: Any = None,
        robots_index: Union[None, PathLike, Sequence[PathLike]] = None,
        robots_warc: Union[None, PathLike, Sequence[PathLike]] = None,
        fetches: Any = None,
        robots_parquet: Union[None, PathLike, Sequence[PathLike]] = None,
        dialect: str = "rfc9309",
        engine: str = "trie",
        on_4xx: str = "allow",
        on_401_403: str = "allow",
        on_5xx: str = "disallow",
        on_missing: Optional[str] = None,
        max_redirects: int = 5,
        max_robots_bytes: int = DEFAULT_MAX_ROBOTS_BYTES,
        cache_bytes: Optional[int] = None,
        as_of: Any = None,
        before_first: str = "earliest",
        at_fetch_time: bool = False,
    ) -> None:
        self.agents = expand_agents(agents)
        self.policy: Dict[str, Any] = dict(
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
            at_fetch_time=at_fetch_time,
        )
        # A directory, or dates mapped to directories (dated captures).
        self.robots_dir: Any = robots_dir
        if isinstance(robots_dir, Mapping):
            self.robots_dir = {date: os.fspath(d) for date, d in robots_dir.items()}
        elif robots_dir is not None:
            self.robots_dir = os.fspath(robots_dir)
        self.robots_index = _paths(robots_index)
        self.robots_warc = _paths(robots_warc)
        self.robots_parquet = _paths(robots_parquet)
        self.fetches = fetches
        if (
            self.robots_dir is None
            and not (self.robots_index or self.robots_warc or self.robots_parquet)
            and fetches is None
        ):
            raise ValueError(
                "no robots.txt source: give robots_dir, robots_index, "
                "robots_warc, robots_parquet or fetches"
            )
        if self.robots_parquet and fetches is not None:
            raise ValueError("give robots_parquet= or fetches=, not both")
        # The options are checked by the library itself, on no fetches: a
        # bad dialect or policy fails here rather than in every worker.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            Crawl(fetches=[], agents=self.agents, **self.policy)
        if isinstance(self.robots_dir, dict):
            for path in self.robots_dir.values():
                _check_readable(path, "robots_dir", directory=True)
        elif self.robots_dir is not None:
            _check_readable(self.robots_dir, "robots_dir", directory=True)
        for path in self.robots_index:
            _check_readable(path, "robots_index")
        for path in self.robots_warc:
            _check_readable(path, "robots_warc")
        for path in self.robots_parquet:
            _parquet_columns(path)
        self._crawl: Optional[Crawl] = None
        self._lock = threading.Lock()

    def __getstate__(self) -> Dict[str, Any]:
        # Never the compiled Crawl (nor the lock): the worker builds its own.
        state = self.__dict__.copy()
        state["_crawl"] = None
        del state["_lock"]
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def built(self) -> bool:
        """Whether this process has built the Crawl."""
        return self._crawl is not None

    def crawl(self) -> Crawl:
        """The Crawl, built on first use in this process."""
        if self._crawl is None:
            with self._lock:
                if self._crawl is None:
                    self._crawl = self._build()
        return self._crawl

    def _build(self) -> Crawl:
        fetches = self.fetches
        if self.robots_parquet:
            fetches = parquet_fetches(self.robots_parquet)
        # The presets hold names the library warns about (CCBot/1.0, read
        # as CCBot): said once at construction is enough, not per worker.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return Crawl(
                robots_dir=self.robots_dir,
                robots_index=self.robots_index or None,
                robots_warc=self.robots_warc or None,
                fetches=fetches,
                agents=self.agents,
                **self.policy,
            )

    def judge(self, urls: Any, explain: bool = False, times: Any = None) -> Verdicts:
        """The verdicts of a batch of URLs: a Python list (any values: a
        non-string is ``unknown``, ``not-a-string``) or an Arrow array;
        with ``at_fetch_time``, fetched at ``times`` (a list or an Arrow
        array, one per URL: a time that cannot be read is ``unknown``,
        ``no-time``)."""
        array, bad = _url_array(urls)
        result = self.crawl().evaluate(array, explain=explain, times=times)
        return Verdicts(self.agents, result, bad, self.policy["on_missing"])


def timed_spec(
    agents: Union[str, Sequence[str]],
    time_name: Optional[str],
    option: str,
    options: Dict[str, Any],
) -> JudgeSpec:
    """The spec of an adapter whose option ``option`` (``time_column``,
    ``time_key``...) names where each document's fetch time is: given, the
    URLs are judged at those times."""
    if "at_fetch_time" in options:
        raise TypeError(
            f"give {option}= (where each document's fetch time is), which "
            "judges each URL at it, rather than at_fetch_time="
        )
    return JudgeSpec(agents, at_fetch_time=time_name is not None, **options)


def _url_array(urls: Any) -> Tuple[Any, Dict[int, str]]:
    """``urls`` as an Arrow array the Crawl takes, and the rows that hold no
    URL string, with why (``no-url``: null or absent; ``not-a-string``)."""
    import pyarrow as pa

    bad: Dict[int, str] = {}
    if isinstance(urls, pa.ChunkedArray):
        urls = urls.combine_chunks() if urls.num_chunks != 1 else urls.chunk(0)
    if isinstance(urls, pa.Array):
        t = urls.type
        if pa.types.is_dictionary(t):
            urls, t = urls.cast(t.value_type), t.value_type
        if (
            pa.types.is_string(t) or pa.types.is_large_string(t)
            or pa.types.is_binary(t) or pa.types.is_large_binary(t)
            or str(t) in ("string_view", "binary_view")
        ):
            if urls.null_count:
                for i in _null_rows(urls):
                    bad[i] = "no-url"
            return urls, bad
        # A column of numbers, structs...: nothing in it is a URL.
        for i, value in enumerate(urls.is_null().to_pylist()):
            bad[i] = "no-url" if value else "not-a-string"
        return pa.nulls(len(urls), pa.string()), bad
    clean: List[Optional[str]] = []
    for i, url in enumerate(urls):
        if isinstance(url, str):
            clean.append(url)
        else:
            bad[i] = "no-url" if url is None else "not-a-string"
            clean.append(None)
    return pa.array(clean, type=pa.string()), bad


def _null_rows(array: Any) -> List[int]:
    import pyarrow.compute as pc

    return pc.indices_nonzero(array.is_null()).to_pylist()


#: The reasons of a row no robots.txt judged, which the stats count.
UNJUDGED = ("no-url", "not-a-string", "no-host", "no-robots", "no-time", "before-first")


def count(verdicts: Verdicts) -> Dict[str, int]:
    """A batch's counts for a framework's stats: ``robots_<verdict>`` and
    ``robots_<reason>`` for the rows no robots.txt judged."""
    from collections import Counter

    out = {f"robots_{v}": n for v, n in Counter(verdicts.verdict).items()}
    for reason, n in Counter(verdicts.reason).items():
        if reason in UNJUDGED:
            out[f"robots_{reason}"] = n
    return out


def _flat(column: Any) -> Any:
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray):
        return column.combine_chunks()
    return column



def _parquet_columns(path: str) -> None:
    """Checks that a robots_parquet file is there and has ``domain`` and
    ``content``: reading only its footer."""
    import pyarrow.parquet as pq

    schema = pq.read_schema(path)
    missing = [c for c in ("domain", "content") if c not in schema.names]
    if missing:
        raise ValueError(
            f"robots_parquet {path!r} has no column {', '.join(missing)}: "
            f"it needs domain and content (it has {', '.join(schema.names)})"
        )


def parquet_fetches(paths: Sequence[str]) -> Any:
    """The fetches of Parquet files of ``domain, content``: for each row
    with content, a 200 of ``http://DOMAIN`` and one of ``https://DOMAIN``
    (the snapshot is keyed by netloc, whatever the scheme). Of a domain
    given twice the first row counts, as for any Arrow fetches."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    tables = [pq.read_table(p, columns=["domain", "content"]) for p in paths]
    table = pa.concat_tables(tables, promote_options="permissive") if len(tables) > 1 else tables[0]
    table = table.filter(pc.and_(pc.is_valid(table["domain"]), pc.is_valid(table["content"])))
    domain = pc.utf8_lower(pc.utf8_trim_whitespace(table["domain"].cast(pa.string())))
    body = table["content"]
    if not (pa.types.is_binary(body.type) or pa.types.is_large_binary(body.type)):
        body = body.cast(pa.large_string()).cast(pa.large_binary())
    else:
        body = body.cast(pa.large_binary())
    n = table.num_rows
    origins = pa.concat_arrays([
        pc.binary_join_element_wise("http://", domain, "").combine_chunks(),
        pc.binary_join_element_wise("https://", domain, "").combine_chunks(),
    ]) if n else pa.array([], pa.string())
    bodies = pa.concat_arrays(body.chunks * 2) if n else pa.array([], pa.large_binary())
    return pa.table({
        "origin": origins,
        "status": pa.repeat(pa.scalar(200, pa.int32()), 2 * n),
        "body": bodies,
    })

