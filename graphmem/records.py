"""Reading what is stored: a user's memories (filtered, paged), one memory, the users, a
user's conversations. Only complete memories are shown, as recall shows them."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Iterator

from .errors import InputError
from .keys import check_user
from .simplex import normalise, to_epoch
from .store import Store

PAGE = 100  # memories per page when no limit is given
STATES = ("active", "warm", "cold", "archived")  # a memory's lifecycle states (graphmem/lifecycle.py)


@dataclass(frozen=True)
class StoredMemory:
    """One memory as stored: what was said, by whom, when and where, and whom it mentions."""

    id: str
    user: str
    conversation: str | None
    session: str | None
    speaker: str
    text: str
    date: datetime | None
    position: int | None
    source_id: str | None
    message_id: str | None
    entities: list[str] = field(default_factory=list)
    state: str = "active"  # active, warm, cold or archived (graphmem/lifecycle.py)
    accesses: int = 0  # times recall returned it (written in batches)
    last_accessed: datetime | None = None
    standing: bool = False  # a standing instruction of the user's (recall/standing.py)
    preference: bool = False  # a preference the user stated (recall/standing.py)

    def to_dict(self) -> dict:
        out = asdict(self)
        out["date"] = self.date.isoformat() if self.date else None
        out["last_accessed"] = self.last_accessed.isoformat() if self.last_accessed else None
        return out


@dataclass(frozen=True)
class Conversation:
    id: str
    memories: int
    first: datetime | None
    last: datetime | None

    def to_dict(self) -> dict:
        return {"id": self.id, "memories": self.memories, "first": self.first.isoformat() if self.first else None,
                "last": self.last.isoformat() if self.last else None}


def _memory(user: str, row: dict) -> StoredMemory:
    return StoredMemory(row["id"], user, row["conversation"], row["session"], row["speaker"], row["text"],
                        _date(row["date"]), row["position"], row["source_id"], row["message_id"],
                        sorted(row["entities"] or []), row["state"] or "active", int(row["accesses"] or 0),
                        datetime.fromtimestamp(row["last_accessed"], timezone.utc) if row["last_accessed"] else None,
                        bool(row["standing"]), bool(row["preference"]))


def _date(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


def entity_vids(store: Store, user: str, name: str) -> list[int]:
    """The user's entities called `name` (by name or alias); none when it is unknown."""
    return [row["vid"] for row in store.run("recall_entities_by_name", user_id=user, norms=[normalise(name)])]


def memories(store: Store, user: str, *, conversation: str | None = None, speaker: str | None = None,
             since: datetime | None = None, until: datetime | None = None, entity: str | None = None,
             limit: int | None = PAGE, after: str | None = None, state: str | None = None,
             superseded: bool | None = None) -> list[StoredMemory]:
    """One page of `user`'s memories, oldest first; `after`: the last id of the page before
    (an id that is no memory of the user's is refused); `state`: only those in this lifecycle
    state; `superseded`: True only those a newer memory superseded (in whole or in part), False
    only the others."""
    check_user(user)
    if state is not None and state not in STATES:
        raise InputError(f"state must be one of {', '.join(STATES)}, not {state!r}")
    if superseded is not None and not isinstance(superseded, bool):
        raise InputError(f"superseded must be True, False or None, not {superseded!r}")
    if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit <= 0):
        raise InputError(f"limit must be a positive integer, not {limit!r}")
    if after is not None and get(store, user, after) is None:  # else the page would restart at the first
        raise InputError(f"no memory {after!r} of user {user!r} to list after")
    vids = entity_vids(store, user, entity) if entity is not None else None
    if vids == []:
        return []
    # the few superseded ones, read from their links only when asked: a page reads no memory's links
    retired = [r["uid"] for r in store.run("superseded_memories", user_id=user)] if superseded is not None else []
    filters = dict(user_id=user, conversation=conversation, speaker=speaker,
                   since=to_epoch(since) if since else None, until=to_epoch(until) if until else None,
                   after=after, limit=limit if limit is not None else 2**31 - 1, state=state, superseded=superseded,
                   retired=retired)
    rows = store.run("list_memories", **filters) if vids is None else \
        store.run("list_memories_mentioning", vids=vids, **filters)
    return [_memory(user, row) for row in rows]


def all_memories(store: Store, user: str, **filters) -> Iterator[StoredMemory]:
    """Every memory `memories` would page through, page by page."""
    after = None
    while True:
        page = memories(store, user, after=after, limit=PAGE, **filters)
        yield from page
        if len(page) < PAGE:
            return
        after = page[-1].id


def get(store: Store, user: str, memory_id: str) -> StoredMemory | None:
    check_user(user)
    rows = store.run("get_memory", user_id=user, uid=memory_id)
    return _memory(user, rows[0]) if rows else None


def users(store: Store) -> list[dict]:
    return [{"user": row["user"], "memories": int(row["memories"])} for row in store.run("list_users")]


def conversations(store: Store, user: str) -> list[Conversation]:
    check_user(user)
    return [Conversation(row["conversation"], int(row["memories"]), _date(row["first"]), _date(row["last"]))
            for row in store.run("list_conversations", user_id=user)]
