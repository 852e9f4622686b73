"""Plain values: a vertex set turned into the simplex tree's words, and the results."""

from __future__ import annotations

import json
import numbers
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from itertools import combinations
from math import comb
from typing import Any, Iterable

from .errors import InputError, SimplexTooLarge, TooManyFaces
from .keys import bounded

Vertex = int | str


def normalise(name: str) -> str:
    """The key an entity name is matched by: NFKC, case-folded, whitespace collapsed, bounded."""
    return bounded(" ".join(unicodedata.normalize("NFKC", name).casefold().split()))


def word_key(vids: Iterable[int]) -> str:
    return ",".join(str(v) for v in vids)


def key_vids(key: str) -> tuple[int, ...]:
    """The ascending vids of a word from its key ("3,7,12")."""
    return tuple(int(v) for v in key.split(","))


def trie_nodes(vids: tuple[int, ...]) -> list[dict]:
    """Every prefix of an ascending word, as the rows insert_simplices.cypher expects."""
    return [
        {
            "key": word_key(vids[:depth]),
            "parent": word_key(vids[: depth - 1]) if depth > 1 else None,
            "vertex": vids[depth - 1],
            "depth": depth,
            "path": list(vids[:depth]),
            "ring": f"{vids[depth - 1]}:{depth}",
        }
        for depth in range(1, len(vids) + 1)
    ]


def check_vertices(vertices: Iterable[Vertex], limit: int) -> list[Vertex]:
    """Validate a vertex set from a caller: non-empty, names or vids, at most `limit`."""
    if isinstance(vertices, (str, bytes)):
        raise InputError("a simplex is a collection of vertices, not a single string; wrap it in a list")
    items = list(dict.fromkeys(_plain(v) for v in vertices))
    if not items:
        raise InputError("a simplex needs at least one vertex")
    for item in items:
        if isinstance(item, bool) or not isinstance(item, (int, str)):
            raise InputError(f"vertex {item!r} is neither a name nor an integer vid")
        if isinstance(item, str) and not normalise(item):
            raise InputError("a vertex name is empty or only whitespace")
        if isinstance(item, int) and item < 1:
            raise InputError(f"vid {item} is not a valid vid (vids start at 1)")
    if len(items) > limit:
        raise SimplexTooLarge(len(items), limit)
    return items


def _plain(vertex):
    """numpy integers count as vids; bool is not an integer here."""
    if isinstance(vertex, numbers.Integral) and not isinstance(vertex, bool):
        return int(vertex)
    return vertex


def subsets(vids: tuple[int, ...], *, min_size: int = 1, max_size: int | None = None,
            limit: int) -> list[tuple[int, ...]]:
    """All sub-words of an ascending word by size, refusing (never cutting) past `limit`."""
    top = len(vids) if max_size is None else min(max_size, len(vids))
    total = sum(comb(len(vids), k) for k in range(min_size, top + 1))
    if total > limit:
        raise TooManyFaces(total, limit)
    return [face for k in range(min_size, top + 1) for face in combinations(vids, k)]


def to_epoch(moment: datetime | float | int | None) -> float:
    if moment is None:
        return datetime.now(timezone.utc).timestamp()
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.timestamp()
    return float(moment)


def from_epoch(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, timezone.utc)


@dataclass(frozen=True)
class Simplex:
    """A stored simplex: its vertices (ascending vids with their names) and what observed it."""

    vids: tuple[int, ...]
    names: tuple[str, ...]
    kind: str | None = None
    count: int = 0
    first_seen: datetime | None = None
    last_seen: datetime | None = None
    witnesses: tuple[str, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def dimension(self) -> int:
        return len(self.vids) - 1

    @property
    def key(self) -> str:
        return word_key(self.vids)

    def __contains__(self, vertex: Vertex) -> bool:
        return vertex in self.vids or vertex in self.names

    def __len__(self) -> int:
        return len(self.vids)

    @classmethod
    def _trusted(cls, vids, names, kind, count, first_seen, last_seen, witnesses, meta) -> "Simplex":
        """Built without the frozen dataclass's __init__, which sets each field through
        object.__setattr__ (about three times slower): cofaces build thousands per call. Only for
        fields already of the right types."""
        simplex = object.__new__(cls)
        simplex.__dict__.update(vids=vids, names=names, kind=kind, count=count, first_seen=first_seen,
                                last_seen=last_seen, witnesses=witnesses, meta=meta)
        return simplex

    @classmethod
    def from_row(cls, row: dict, names: dict[int, str] | None = None) -> "Simplex":
        """From a statement's row: vids from `path` (a list) or `key` ("3,7,12"); names from the
        row's `names` ([depth, name] pairs) or, when given, the `names` map of vid to name."""
        vids = tuple(row["path"]) if row.get("path") is not None else key_vids(row["key"])
        if names is not None:
            ordered = tuple(names.get(v, str(v)) for v in vids)
        else:
            ordered = tuple(name for _, name in sorted(row.get("names") or [], key=lambda pair: pair[0]))
        meta = json.loads(row["meta"]) if row.get("meta") else {}
        return cls(
            vids=vids,
            names=ordered,
            kind=row.get("kind"),
            count=int(row.get("count") or 0),
            first_seen=from_epoch(row.get("first_seen")),
            last_seen=from_epoch(row.get("last_seen")),
            witnesses=tuple(sorted(row.get("witnesses") or [])),
            meta=meta,
        )

    def to_dict(self) -> dict:
        return {
            "vertices": list(self.names),
            "vids": list(self.vids),
            "dimension": self.dimension,
            "kind": self.kind,
            "count": self.count,
            "first_seen": self.first_seen.isoformat() if self.first_seen else None,
            "last_seen": self.last_seen.isoformat() if self.last_seen else None,
            "witnesses": list(self.witnesses),
            "meta": self.meta,
        }


@dataclass(frozen=True)
class Face:
    """A face of a queried simplex; `stored` when it was itself observed."""

    vids: tuple[int, ...]
    names: tuple[str, ...]
    stored: bool
    count: int = 0

    @property
    def dimension(self) -> int:
        return len(self.vids) - 1

    def to_dict(self) -> dict:
        return {"vertices": list(self.names), "vids": list(self.vids), "dimension": self.dimension,
                "stored": self.stored, "count": self.count}
