"""Consolidation: episodic memories grouped into abstract memories, extractively, no LLM.

A group is the memories that mention one specific entity within one span of time (a fixed
bucket of `SPAN_DAYS`, so that a memory's groups follow from the memory alone and an update
touches only them). A speaker, or an entity in more than COMMON_SHARE of the user's memories,
says nothing about what its memories share, and a group of more than `MAX_MEMBERS` is too
broad to summarise: neither is an abstract, nor is a group of fewer than two.

An abstract is an `(:Abstract {user_id, key, vid, bucket, text, entities, first_seen, last_seen,
size})` node linked `-[:SUMMARIZES]->` to its members. Its own label, not a Memory of kind
"abstract": it is derived state, rebuildable from the memories at any time, so recall's
channels, the memory counts (BM25's N), listings, exports and the benchmarks never see it, and
nothing it does can change what exists. Its text is extractive: the entity, the span, and the
members' sentences nearest the members' centroid (embedding space), oldest first.

Kept current incrementally: after an ingest, the groups its memories belong to are derived
again. `Memory.add` of a few messages, an agent's live path, defers that: it notes the new
memories on the user's node (`defer`) and derives their groups with the next pass, when
`DEFERRED_MAX` wait, at the next transcript ingest, `consolidate` or `Memory.abstracts`, on
`Memory.close`, and when `graphmem mcp` is idle; until then an abstract may lack the newest
few messages, never say what was forgotten. The simplices of those memories' sessions (each
session's most mentioned entities, witnessed by all its memories: Complex.rewitness_sessions)
wait with them, because witnessing a session reads all of it, a cost that grows with the
session; each memory's own simplex is written at once. The note survives a crash. A forget marks the
abstracts of the memories it takes (`mark_stale`, before they go) and the next `refresh`
derives those again, deleting one left with fewer than two members, so that no forgotten
sentence stays in an abstract. Deriving a group twice writes the same abstract."""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Iterable, Sequence

import numpy as np

from .complex import Complex
from .recall.tuning import COMMON_SHARE
from .store import Store
from .vectors import units

log = logging.getLogger(__name__)

# One group's span of time: a fixed bucket, not a sliding window, so that which groups a memory
# belongs to never depends on the other memories (an update derives only those groups again).
SPAN_DAYS = 365
SPAN = SPAN_DAYS * 86400.0
# More members than this: too broad to summarise or to lend from (and too costly to read).
MAX_MEMBERS = 40
# How many central sentences an abstract quotes, and how many co-mentioned entities it names.
SENTENCES = 3
ENTITIES = 5
# Groups derived per statement.
BATCH = 200
# Memories `Memory.add` may leave waiting before it derives their groups itself.
DEFERRED_MAX = 32


@dataclass
class Abstract:
    """An abstract memory: what a group of memories that share an entity and a time says."""

    key: str  # "vid:bucket", unique per user
    text: str
    entities: list[str]  # the group's entity first, then those its members mention most
    first_seen: str | None  # ISO times of the oldest and newest member
    last_seen: str | None
    size: int
    members: list[str] = field(default_factory=list)  # memory ids

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_row(cls, row: dict) -> "Abstract":
        return cls(row["key"], row["text"], list(row["entities"] or []), _iso(row["first_seen"]),
                   _iso(row["last_seen"]), int(row["size"] or 0), sorted(row["members"] or []))


@dataclass
class Held:
    """Vectors the caller holds already, as stored (an ingest's, of the memories it has just
    written), read from here instead of from the store: reading a sentence's vector back is most
    of a consolidation's time."""

    memories: dict[str, np.ndarray] = field(default_factory=dict)  # uid -> its vector
    sentences: dict[str, dict[int, np.ndarray]] = field(default_factory=dict)  # uid -> n -> its sentence's


@dataclass
class Consolidated:
    """What a consolidation did."""

    groups: int = 0  # derived
    written: int = 0  # abstracts created or updated
    deleted: int = 0


def consolidate(store: Store, user: str, uids: Sequence[str] | None = None,
                held: Held | None = None) -> Consolidated:
    """Derive again the groups the given memories belong to (None: every group of the user's,
    a rebuild), those of the memories waiting (`defer`, whose sessions' simplices are witnessed
    again first) and those a forget marked stale. The caller holds the user's lease, and may
    hold some memories' vectors (`held`)."""
    every = uids is None
    waiting = deferred(store, user)
    if waiting:  # their sessions first: a group is derived from memories, a session's simplex too
        sessions = [r["session"] for r in store.run("memory_sessions", user_id=user, uids=waiting)]
        Complex(store, user).rewitness_sessions(sessions)
    groups = {(r["vid"], r["bucket"]) for r in store.run("abstract_groups", user_id=user,
                                                         uids=list(uids or []) + waiting, all=every, span=SPAN)}
    groups |= {(r["vid"], r["bucket"]) for r in store.run("abstracts_to_refresh", user_id=user, all=every)}
    done = derive(store, user, sorted(groups), held)
    if every or waiting:
        store.run("clear_deferred", user_id=user, uids=waiting, all=every)
    return done


def defer(store: Store, user: str, uids: Sequence[str]) -> int:
    """Leave the given memories' groups, and their sessions' simplices, to a later pass; how
    many memories now wait."""
    rows = store.run("defer_consolidation", user_id=user, uids=list(uids))
    return int(rows[0]["waiting"]) if rows else 0


def deferred(store: Store, user: str) -> list[str]:
    """The memories whose groups wait to be derived again."""
    rows = store.run("deferred_consolidation", user_id=user)
    return list(rows[0]["uids"]) if rows else []


def refresh(store: Store, user: str) -> Consolidated:
    """Derive again the abstracts a forget marked stale (after it, or after one interrupted)."""
    return consolidate(store, user, [])


def mark_stale(store: Store, user: str, uids: Sequence[str]) -> None:
    """Mark the abstracts of memories about to be forgotten, while their links still exist."""
    if uids:
        store.run("mark_abstracts_stale", user_id=user, uids=list(uids))


def abstracts(store: Store, user: str) -> list[Abstract]:
    """The user's abstracts, oldest first."""
    return [Abstract.from_row(r) for r in store.run("list_abstracts", user_id=user)]


def derive(store: Store, user: str, groups: Iterable[tuple[int, int]], held: Held | None = None) -> Consolidated:
    out, held = Consolidated(), held or Held()
    todo = list(groups)
    if not todo:
        return out
    total = _memories(store, user)
    for i in range(0, len(todo), BATCH):
        batch = todo[i:i + BATCH]
        out.groups += len(batch)
        rows = store.run("abstract_members", user_id=user, max_members=MAX_MEMBERS, groups=[
            {"key": _key(vid, bucket), "vid": vid, "since": bucket * SPAN, "until": (bucket + 1) * SPAN}
            for vid, bucket in batch])
        sized = {r["key"]: r for r in rows if int(r["size"]) >= 2 and not _common(r["frequency"], total)}
        uids = sorted({uid for r in sized.values() for uid, _ in r["members"]})
        vectors = {r["uid"]: r for r in _read(store, "abstract_vectors", user, uids, held)}
        names = sorted({r["name"] for r in sized.values()} | {n for v in vectors.values() for n, _ in v["mentioned"]})
        speakers = {r["name"] for r in store.run("recall_speakers", user_id=user, names=names)} if names else set()
        keep, drop = [], []
        for vid, bucket in batch:
            row = sized.get(_key(vid, bucket))
            if row is None or row["name"] in speakers:
                drop.append(_key(vid, bucket))
            else:
                keep.append((vid, bucket, row))
        if drop:
            out.deleted += int(store.run("delete_abstracts", user_id=user, keys=drop)[0]["deleted"] or 0)
        if keep:
            centres = [_centre(row, vectors) for _, _, row in keep]
            central = sorted({uid for _, uids in centres for uid in uids})
            sentences = {r["uid"]: r for r in _read(store, "abstract_sentences", user, central, held)}
            written = [_abstract(vid, bucket, row, centre, vectors, sentences, total, speakers)
                       for (vid, bucket, row), centre in zip(keep, centres)]
            store.run("write_abstracts", user_id=user, rows=written)
            out.written += len(written)
    log.debug("consolidated %s: %s", user[:12], out)
    return out


def _read(store: Store, name: str, user: str, uids: Sequence[str], held: Held) -> list[dict]:
    """The rows of `name` (abstract_vectors or abstract_sentences) for `uids`, with the vectors
    of the memories `held` holds taken from it, not read."""
    have = [uid for uid in uids if uid in held.memories]
    rest = [uid for uid in uids if uid not in held.memories]
    rows = store.run(name, user_id=user, uids=rest, vectors=True) if rest else []
    for row in store.run(name, user_id=user, uids=have, vectors=False) if have else []:
        uid = row["uid"]
        if "embedding" in row:
            row["embedding"] = held.memories[uid]
        if "sentences" in row:
            of = held.sentences.get(uid, {})
            row["sentences"] = [[s[0], s[1], of.get(s[0])] for s in row["sentences"] if s]
        rows.append(row)
    return rows


def _common(frequency: int | None, total: int) -> bool:
    """In more than COMMON_SHARE of the user's memories, and in more than a group can hold (in a
    small memory every entity is in a large share of it; the speakers are told apart by name)."""
    return (frequency or 0) > max(COMMON_SHARE * total, MAX_MEMBERS)


def _members(row: dict) -> list:
    """[uid, observed_at] of each member, oldest first."""
    return sorted(row["members"], key=lambda m: (m[1], m[0]))


def _centre(row: dict, vectors: dict[str, dict]) -> tuple[np.ndarray, list[str]]:
    """The members' centroid (unit) and the SENTENCES members nearest it, oldest first."""
    members = _members(row)
    known = [vectors[uid]["embedding"] for uid, _ in members if uid in vectors and vectors[uid]["embedding"] is not None]
    width = len(known[0]) if known else 1
    matrix = np.asarray([vectors[uid]["embedding"] if uid in vectors and vectors[uid]["embedding"] is not None
                         else np.zeros(width) for uid, _ in members], dtype=float)
    centroid = units(matrix.mean(axis=0)[None])[0]
    nearest = np.argsort(-(units(matrix) @ centroid), kind="stable")[:SENTENCES]
    return centroid, [members[j][0] for j in sorted(int(j) for j in nearest)]


def _abstract(vid: int, bucket: int, row: dict, centre: tuple[np.ndarray, list[str]], vectors: dict[str, dict],
              sentences_of: dict[str, dict], total: int, speakers: set[str]) -> dict:
    members = _members(row)
    centroid, central = centre
    quoted = {uid: _central_sentence(sentences_of[uid], centroid) for uid in central if uid in sentences_of}
    mentioned: dict[str, int] = {}
    for uid, _ in members:
        for name, frequency in {(n, f) for n, f in (vectors[uid]["mentioned"] if uid in vectors else [])}:
            if name != row["name"] and name not in speakers and not _common(frequency, total):
                mentioned[name] = mentioned.get(name, 0) + 1
    others = sorted(mentioned, key=lambda n: (-mentioned[n], n))[:ENTITIES - 1]
    first, last = members[0][1], members[-1][1]
    span = _day(first) if _day(first) == _day(last) else f"{_day(first)} to {_day(last)}"
    sentences = [quoted[uid] for uid in central if quoted.get(uid)]
    text = f"{row['name']}, {span}, {len(members)} memories: " + " ".join(sentences)
    return {"key": _key(vid, bucket), "vid": vid, "bucket": bucket, "text": text, "entities": [row["name"], *others],
            "first_seen": float(first), "last_seen": float(last), "size": len(members),
            "members": [m[0] for m in members]}


def _central_sentence(row: dict, centroid: np.ndarray) -> str:
    sentences = [s for s in row["sentences"] if s and s[2] is not None]
    if not sentences:
        text = (row["text"] or "").strip()
        return f"{row['speaker']}: {text}" if row["speaker"] and text else text
    best = max(sentences, key=lambda s: (float(units(np.asarray([s[2]], dtype=float))[0] @ centroid), -s[0]))
    return str(best[1]).strip()


def _memories(store: Store, user: str) -> int:
    rows = store.run("user_memories", user_id=user)
    return int(rows[0]["memories"] or 0) if rows else 0


def _key(vid: int, bucket: int) -> str:
    return f"{vid}:{bucket}"


def _day(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, timezone.utc).date().isoformat()


def _iso(epoch: float | None) -> str | None:
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat() if epoch is not None else None
