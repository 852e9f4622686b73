"""Forgetting: memories removed with everything only they justified.

A forgotten memory leaves recall first (marked, keeping what it touches), then takes with it
its sentences and vectors, its term postings (each term's document frequency lowered, a term no
memory uses deleted), the relations it stated, its mentions, its witness of simplices (a
simplex no memory witnesses any more is removed from the trie), its session when no memory is
left in it, and the entities nothing mentions any more. What remains is settled as if the
memory had never been ingested: a session that lost memories is witnessed again from those it
keeps, an entity's aliases, frequency and times are recomputed from the memories that still
mention it, and an entity whose name only forgotten memories used takes the name the others
call it by. Each erasure is logged (who, what kind, how many, when) without what was erased."""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import time
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import supersession
from .complex import Complex
from .consolidation import mark_stale, refresh
from .simplex import normalise
from .store import Store
from .vectors import as_param

log = logging.getLogger(__name__)

Embed = Callable[[Sequence[str]], np.ndarray]
BATCH = 500  # memories per statement: a forget of a whole user never holds one transaction
USER_BATCH = 5000  # nodes of one kind per statement when a whole user goes


@dataclass
class Forgotten:
    """What a forget removed."""

    user: str
    kind: str  # what was named: memories, conversation, entity, before, everything
    memories: int = 0
    sentences: int = 0
    postings: int = 0
    terms: int = 0
    simplices: int = 0
    entities: int = 0
    renamed: int = 0
    sessions: set[str] = field(default_factory=set)  # touched; those that kept memories are witnessed again
    nodes: int = 0  # every node of the user, when everything went
    seconds: float = 0.0
    missing: list[str] = field(default_factory=list)  # ids named that are no memory of the user

    def to_dict(self) -> dict:
        out = asdict(self)
        out["sessions"] = len(self.sessions)
        return out


def forget_memories(store: Store, cx: Complex, uids: Sequence[str], embed: Embed, kind: str = "memories") -> Forgotten:
    """Forget these memories (uids; those that are no memory of the user are named in
    `missing`). The caller holds the user's lease.

    In an order that a run interrupted anywhere, then given the memories still marked
    (`leftovers`), finishes exactly: mark them (out of recall, each keeping its footprint), take
    back what they stated and observed, witness their sessions again from what the sessions
    keep, settle the entities they mentioned, and only then delete the memories and the sessions
    left empty."""
    started = time.perf_counter()
    user, out = cx.user, Forgotten(cx.user, kind)
    touched: set[int] = set()
    found: set[str] = set()
    for i in range(0, len(uids), BATCH):
        for row in store.run("mark_forgetting", user_id=user, uids=list(uids[i:i + BATCH])):
            out.sessions.add(row["session"])
            touched.update(row["vids"] or [])
            found.add(row["uid"])
    out.missing = [uid for uid in uids if uid not in found]
    stated: set[supersession.Key] = set()
    for i in range(0, len(uids), BATCH):
        batch = list(uids[i:i + BATCH])
        stated.update(supersession.keys_of(store, user, batch))
        mark_stale(store, user, batch)  # while their links to the abstracts they belong to exist
    supersession.settle(store, user, stated)  # the facts they stated: the versions left, without them
    if not out.sessions:
        return out
    for i in range(0, len(uids), BATCH):
        batch = list(uids[i:i + BATCH])
        out.simplices += cx.unwitness(batch)
        terms = store.run("forget_terms", user_id=user, uids=batch)[0]
        out.postings += int(terms["postings"] or 0)
        out.terms += int(terms["terms"] or 0)
    sessions = sorted(out.sessions)
    cx.rewitness_sessions(sessions)  # from the memories they keep: the forgotten mention nothing now
    _settle(store, cx, sorted(touched), embed, out)
    if store.settings.witness_window > 0:
        cx.witness("window", store.settings.witness_window)
    store.run("prune_sessions", user_id=user, sessions=sessions)
    for i in range(0, len(uids), BATCH):
        gone = store.run("forget_memories", user_id=user, uids=list(uids[i:i + BATCH]))[0]
        out.memories += int(gone["memories"] or 0)
        out.sentences += int(gone["sentences"] or 0)
    store.run("count_memories", user_id=user, force=True)
    refresh(store, user)  # the abstracts they belonged to, derived from the memories left
    cx.clear_cache()
    out.seconds = time.perf_counter() - started
    return out


def _settle(store: Store, cx: Complex, vids: list[int], embed: Embed, out: Forgotten) -> None:
    rows = store.run("settle_entities", user_id=cx.user, vids=vids) if vids else []
    unused = [r["vid"] for r in rows if r["frequency"] == 0 and not r["labelled"]]
    if unused:
        out.entities += int(store.run("delete_entities", user_id=cx.user, vids=unused)[0]["entities"] or 0)
    # a name only forgotten memories used: the entity takes the earliest name still in use
    renames = [(r["vid"], r["aliases"][0]) for r in rows
               if r["frequency"] > 0 and r["aliases"] and r["name"] not in r["aliases"]]
    if renames:
        vectors = embed([name for _, name in renames])
        store.run("rename_entities", user_id=cx.user, rows=[
            {"vid": vid, "name": name, "norm": normalise(name), "embedding": as_param(vector)}
            for (vid, name), vector in zip(renames, vectors)])
        out.renamed += len(renames)


def leftovers(store: Store, user: str) -> list[str]:
    """The memories a forget marked and did not get to delete (it was interrupted)."""
    return [row["uid"] for row in store.run("forget_leftovers", user_id=user)]


def forget_user(store: Store, user: str) -> Forgotten:
    """Every node of the user, the user itself last. The caller holds the user's lease."""
    started = time.perf_counter()
    out = Forgotten(user, "everything")
    rows = store.run("user_memories", user_id=user)
    out.memories = int(rows[0]["memories"] or 0) if rows else 0
    while True:
        deleted = sum(int(row["deleted"]) for row in store.run_each("forget_user", user_id=user, batch=USER_BATCH))
        out.nodes += deleted
        if not deleted:
            break
    out.nodes += int(store.run("forget_user_node", user_id=user)[0]["deleted"])
    out.seconds = time.perf_counter() - started
    return out


def log_erasure(path: Path, forgotten: Forgotten) -> None:
    """One JSON line per erasure: when, by whom (the account that ran it), whose memory (a
    digest of the user id, not the id), what kind and how many. Never what was erased."""
    whose = hashlib.sha256(forgotten.user.encode()).hexdigest()
    record = {"at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "by": _account(),
              "user_sha256": whose, "kind": forgotten.kind,
              "memories": forgotten.memories, "entities": forgotten.entities, "simplices": forgotten.simplices,
              "nodes": forgotten.nodes}
    log.info("erased %s: %d memories (%s)", forgotten.kind, forgotten.memories, whose[:12])
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
    except OSError as exc:
        log.warning("could not append to the erasure log %s: %s", path, exc)


def _account() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "unknown"
