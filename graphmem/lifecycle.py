"""A memory's lifecycle: how often recall returned it, and the maintenance pass that moves it
through four states (after the SuperLocalMemory paper's): active, warm, cold, archived.

Accesses. Recall notes the memories it returned (`note_recalled`) in a buffer held per
`Store`; recall pays only that append. The buffer is written in UNWIND statements of up to
32 memories of one user (record_accesses.cypher: `accesses` += n, `last_accessed` = the
latest, on the memory's RECALLED_FOR relationship to its user, which FalkorDB does not
re-index as it does the memory) by a short-lived background thread once it holds
`access_flush_size` memories or is `access_flush_seconds` old, and in the caller's thread by
`flush_accesses`: on `Memory.close()` and before every maintenance pass. A write that fails
(the server restarting) keeps its batch, with its id, for the next flush; the id left on each
relationship makes a batch written twice count once.

The rule. A memory's disuse is the time since it was last said or recalled, in days, divided
by its use, 1 + log2(1 + accesses) (never recalled: 1; recalled once: 2, three times: 3, seven
times: 4), and multiplied by `lifecycle_superseded_speedup` (4) when a newer memory
supersedes it (a `(:Memory)-[:SUPERSEDES]->` edge points at it for every thing it said), so a
replaced fact cools faster. With the default settings a memory is

    active     while its disuse is under 14 days   (lifecycle_warm_days)
    warm       from 14 days to 60                  (lifecycle_cold_days)
    cold       from 60 days to a year              (lifecycle_archive_days)
    archived   after a year

so a fact never recalled is archived a year after it was said, one recalled seven times four
years after its last recall, and a superseded one never recalled after three months. A standing
instruction ("always answer in French") cools no further than cold until a newer one
supersedes it: it applies to questions that may come years later, and archived it would stop
applying without a word. The state is a function of the memory and the time: recalling an
archived memory (`include_archived`) brings it back at the next pass. A memory without a time
(a transcript without dates) that was never recalled stays active. "Said" is when the
conversation says it was said: an old transcript ingested today starts old (`graphmem
maintain --dry-run` first shows what a pass would do).

Archived memories leave recall (`include_archived=True` brings them back) and are never
deleted: `Memory.memories(state="archived")` and `graphmem list --state archived` list them,
and only `forget` removes them. The pass (`maintain`) writes only the memories whose state
changes, so running it twice with the same `now` changes nothing the second time."""

from __future__ import annotations

import logging
import math
import threading
import time
import uuid
import weakref
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Iterable

from .errors import GraphmemError, UnknownUser
from .keys import check_time, check_user
from .records import STATES
from .settings import Settings
from .store import Store
from .supersession import all_retired

log = logging.getLogger(__name__)

DAY = 86400.0
PAGE = 5000  # memories read per statement by the maintenance pass
# Memories written per statement, under the graph's write lock: in small statements, a recall
# running beside a flush or a pass waits for one of them, not for the whole buffer. A state
# change costs more than a count: FalkorDB re-indexes a Memory node in its vector and full-text
# indexes whenever any property of it is set (bench/README.md, "Lifecycle"); counts are kept on
# a relationship, which it does not.
ACCESS_CHUNK = 32
BATCH = 256  # state changes


def state_of(said_at: float | None, last_accessed: float | None, accesses: int, superseded: bool, now: float,
             settings: Settings, standing: bool = False) -> str:
    """The state the rule (this module's docstring) gives a memory at `now` (epoch seconds);
    `standing`: a standing instruction of the user's, never archived while it holds."""
    times = [t for t in (said_at, last_accessed) if t is not None]
    if not times:
        return "active"
    idle_days = max(0.0, now - max(times)) / DAY
    disuse = idle_days / (1.0 + math.log2(1 + max(0, accesses)))
    if superseded:
        disuse *= settings.lifecycle_superseded_speedup
    if disuse < settings.lifecycle_warm_days:
        return "active"
    if disuse < settings.lifecycle_cold_days:
        return "warm"
    if disuse < settings.lifecycle_archive_days or (standing and not superseded):
        return "cold"
    return "archived"


# -- accesses ---------------------------------------------------------------------------


@dataclass
class _Batch:
    """Accesses of one user's memories, written as one statement under one id."""
    user: str
    rows: list[dict]
    id: str = field(default_factory=lambda: uuid.uuid4().hex)


class AccessLog:
    """The accesses recall noted and not yet written, of one Store; thread-safe."""

    def __init__(self, store: Store):
        self._store = weakref.ref(store)
        self._lock = threading.Lock()  # guards the buffer
        self._writing = threading.Lock()  # one flush at a time, so batches are written in order
        self._pending: dict[tuple[str, str], list[float]] = {}  # (user, uid) -> [accesses, last access]
        self._failed: list[_Batch] = []  # batches whose write failed, first to go next time
        self._since = time.monotonic()  # of the last flush

    def note(self, user: str, uids: Iterable[str], at: float | None = None) -> None:
        """Count one access of each memory at `at` (epoch seconds, default now)."""
        when = time.time() if at is None else at
        store = self._store()
        if store is None:
            return
        with self._lock:
            for uid in uids:
                entry = self._pending.get((user, uid))
                if entry is None:
                    self._pending[(user, uid)] = [1, when]
                else:
                    entry[0] += 1
                    entry[1] = max(entry[1], when)
            due = bool(self._pending) and (len(self._pending) >= store.settings.access_flush_size
                                           or time.monotonic() - self._since >= store.settings.access_flush_seconds)
        if due and not self._writing.locked():
            threading.Thread(target=self._flush_quietly, name="graphmem-accesses", daemon=True).start()

    def pending(self) -> int:
        """Memories whose accesses are not written yet."""
        with self._lock:
            return len(self._pending) + sum(len(b.rows) for b in self._failed)

    def flush(self, user: str | None = None) -> int:
        """Write every noted access now (only `user`'s, when given); returns how many memories
        were counted. On a failure (raised) what was not written stays for the next flush."""
        store = self._store()
        if store is None:
            return 0
        with self._writing:
            with self._lock:
                if user is None:
                    taken, self._pending = self._pending, {}
                    self._since = time.monotonic()
                else:
                    taken = {key: entry for key, entry in self._pending.items() if key[0] == user}
                    for key in taken:
                        del self._pending[key]
                by_user: dict[str, list[dict]] = {}
                for (owner, uid), (n, at) in taken.items():
                    by_user.setdefault(owner, []).append({"uid": uid, "n": int(n), "at": at})
                batches = [b for b in self._failed if user in (None, b.user)]
                self._failed = [b for b in self._failed if user not in (None, b.user)]
                batches += [_Batch(owner, rows[i:i + ACCESS_CHUNK]) for owner, rows in by_user.items()
                            for i in range(0, len(rows), ACCESS_CHUNK)]
            counted = 0
            for i, batch in enumerate(batches):
                try:
                    rows = store.run("record_accesses", user_id=batch.user, flush=batch.id, accesses=batch.rows)
                except GraphmemError:
                    with self._lock:
                        self._failed = batches[i:] + self._failed
                    raise
                counted += int(rows[0]["counted"]) if rows else 0
            return counted

    def _flush_quietly(self) -> None:
        try:
            self.flush()
        except GraphmemError as exc:  # kept for the next flush; recall goes on
            log.warning("recall accesses not written yet (%s); kept for the next try", exc)


_LOGS: "weakref.WeakKeyDictionary[Store, AccessLog]" = weakref.WeakKeyDictionary()
_LOGS_LOCK = threading.Lock()


def access_log(store: Store) -> AccessLog:
    """The access buffer of `store` (one per Store, made on first use)."""
    with _LOGS_LOCK:
        found = _LOGS.get(store)
        if found is None:
            found = _LOGS[store] = AccessLog(store)
        return found


def note_recalled(store: Store, user: str, uids: Iterable[str]) -> None:
    """What recall calls with the memories it returns: an append, unless counting is off."""
    if store.settings.count_accesses:
        access_log(store).note(user, uids)


def pending_accesses(store: Store) -> int:
    """Memories whose accesses this process noted and has not written yet."""
    with _LOGS_LOCK:
        found = _LOGS.get(store)
    return found.pending() if found is not None else 0


def flush_accesses(store: Store, user: str | None = None) -> int:
    """Write the accesses noted in this process now, every user's or `user`'s (on close,
    before maintenance, before a forget, when `graphmem mcp` is idle)."""
    with _LOGS_LOCK:
        found = _LOGS.get(store)
    return found.flush(user) if found is not None else 0


# -- the maintenance pass --------------------------------------------------------------


@dataclass
class Maintained:
    """What a maintenance pass did (or, with dry_run, would do)."""
    now: datetime
    dry_run: bool
    users: int = 0
    memories: int = 0  # examined
    transitions: dict[str, int] = field(default_factory=dict)  # "active->warm": memories moved
    states: dict[str, int] = field(default_factory=dict)  # memories in each state after the pass

    @property
    def moved(self) -> int:
        return sum(self.transitions.values())

    def to_dict(self) -> dict:
        return {"now": self.now.isoformat(), "dry_run": self.dry_run, "users": self.users, "memories": self.memories,
                "moved": self.moved, "transitions": dict(self.transitions), "states": dict(self.states)}


def maintain(store: Store, user: str | None = None, now: datetime | None = None,
             dry_run: bool = False) -> Maintained:
    """Move every user's memories (or `user`'s) to the state the rule gives them at `now`
    (default: the current time); `dry_run` counts without writing. Returns the counts per
    transition and per state."""
    now = check_time(now, "now") or datetime.now(timezone.utc)
    if user is not None:
        check_user(user)
        if not store.run("user_exists", user_id=user)[0]["known"]:
            raise UnknownUser(user)
        users = [user]
    else:
        users = [row["user"] for row in store.run("list_users")]
    flush_accesses(store, user)  # the pass weighs every access this process has seen
    at = now.timestamp()
    done = Maintained(now, dry_run, users=len(users))
    transitions: Counter[str] = Counter()
    states: Counter[str] = Counter()
    for uid_owner in users:
        changes: list[dict] = []
        after = None
        while True:
            page = store.run("lifecycle_memories", user_id=uid_owner, after=after, limit=PAGE)
            for row in page:
                was = row["state"] or "active"
                now_state = state_of(row["said_at"], row["last_accessed"], int(row["accesses"]),
                                     all_retired(row["claimed"] or (), row["retired"] or ()), at, store.settings,
                                     standing=bool(row["standing"]))
                states[now_state] += 1
                if now_state != was:
                    transitions[f"{was}->{now_state}"] += 1
                    changes.append({"uid": row["uid"], "state": now_state})
            done.memories += len(page)
            if len(page) < PAGE:
                break
            after = page[-1]["uid"]
        if not dry_run:
            for i in range(0, len(changes), BATCH):
                store.run("set_memory_states", user_id=uid_owner, changes=changes[i:i + BATCH], now=at)
    done.transitions = dict(sorted(transitions.items()))
    done.states = {s: states[s] for s in STATES if states[s]}
    return done
