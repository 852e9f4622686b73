"""Which conversation a transcript is, and which stored memory each of its messages is.

A memory is identified by its user, its conversation and the message's own id, or else by
what the message says (speaker, text, caption) and which occurrence of that it is in the
conversation: a line added anywhere in a transcript leaves every other message's id as it was.
A transcript's conversation is the one it was named, or else the stored conversation that
already holds most of its messages, or else a new one named from the file and its first
messages (never the file name alone: two `chat.txt` in two folders are two conversations)."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from typing import Sequence

from ..keys import bounded
from ..store import Store
from .formats import Turn

# A transcript continues a stored conversation when at least this share of its messages, or of
# the conversation's, is the same: a log that grew, a file with a line added or edited.
SAME_CONVERSATION = 0.5


def _hash(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode()).hexdigest()[:20]


def digest(turn: Turn) -> str:
    """What a message says and who said it, wherever it stands."""
    return _hash(turn.speaker, turn.text, turn.caption or "")


def memory_uids(conversation: str, turns: Sequence[Turn]) -> list[str]:
    """Each turn's stable id: its own message id when the source gives one, else its digest
    and which occurrence of it this is (the second "ok" of a conversation is not the first)."""
    seen: Counter[str] = Counter()
    out = []
    for turn in turns:
        if turn.message_id is not None:
            out.append(_hash("id", conversation, turn.message_id))
        else:
            said = digest(turn)
            seen[said] += 1
            out.append(_hash("said", conversation, said, str(seen[said])))
    return out


def session_key(conversation: str, turn: Turn) -> str:
    return bounded(f"{conversation}#{turn.session}")


@dataclass
class Stored:
    """A conversation's memories as stored, in order."""

    uids: list[str] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    complete: set[str] = field(default_factory=set)  # those whose ingest finished
    end: int = -1  # the last place taken in the conversation

    def _add(self, row: dict) -> None:
        if row["complete"]:
            self.complete.add(row["uid"])
        self.uids.append(row["uid"])
        self.digests.append(row["digest"])
        self.positions.append(row["position"])
        self.end = max(self.end, row["position"])

    @classmethod
    def read(cls, store: Store, user: str, conversation: str) -> "Stored":
        """The whole conversation."""
        out = cls()
        for row in store.run("conversation_memories", user_id=user, conversation=conversation):
            out._add(row)
        return out

    @classmethod
    def known(cls, store: Store, user: str, conversation: str, turns: Sequence[Turn]) -> "Stored":
        """Only what these turns need to continue the conversation: those of them it holds,
        and its last place."""
        out = cls()
        for row in store.run("conversation_known", user_id=user, conversation=conversation,
                             uids=memory_uids(conversation, turns)):
            if row["end"] is not None:
                out.end = max(out.end, int(row["end"]))
            if row["uid"] is not None:
                out._add(row)
        return out


def name_conversation(store: Store, user: str, name: str, turns: Sequence[Turn]) -> str:
    """The conversation a transcript named `name` (a file stem) continues, or a new one's id."""
    said = list(dict.fromkeys(digest(t) for t in turns))
    rows = store.run("conversation_overlap", user_id=user, digests=said) if said else []
    for row in rows:  # most shared first
        if row["shared"] >= SAME_CONVERSATION * min(len(said), row["size"]) and row["shared"] > 0:
            return row["conversation"]
    taken = {row["conversation"] for row in rows}
    stem = bounded(name)[:64]
    for n in range(1, len(said) + 1):  # the first message, or as many as it takes to be new
        candidate = f"{stem}-{_hash(*said[:n])[:10]}"
        if candidate not in taken and not store.run("conversation_exists", user_id=user, conversation=candidate):
            return candidate
    return f"{stem}-{_hash(*said)[:10]}"


@dataclass
class Alignment:
    """A transcript read against its stored conversation: the turns to write (placed), the
    stored memories their edits replace, and those the transcript no longer has."""

    turns: list[Turn]
    uids: list[str]
    stored: Stored
    replaced: list[str] = field(default_factory=list)
    missing: int = 0
    moved: dict[str, int] = field(default_factory=dict)  # stored uid -> its new position


def align(conversation: str, turns: Sequence[Turn], stored: Stored, *, whole: bool) -> Alignment:
    """Place `turns` in the conversation. `whole`: the turns are the conversation from its start
    (a transcript file), so stored messages take the places the file gives them, and a message
    whose text changed between the same neighbours replaces its old version. Otherwise the
    turns continue it: the new ones go after the last stored message."""
    uids = memory_uids(conversation, turns)
    by_uid = dict(zip(stored.uids, stored.digests))
    said = [digest(t) for t in turns]
    # a message with its own id whose text changed: the same uid, another digest
    replaced = [uid for uid, d in zip(uids, said) if uid in by_uid and by_uid[uid] != d]
    position = dict(zip(stored.uids, stored.positions))
    if not whole:  # stored messages keep their places; new ones follow the last
        start = stored.end + 1
        placed, n = [], 0
        for turn, uid in zip(turns, uids):
            if uid in position:
                placed.append(replace(turn, index=position[uid]))
            else:
                placed.append(replace(turn, index=start + n))
                n += 1
        return Alignment(placed, uids, stored, replaced)
    placed = [replace(t, index=i) for i, t in enumerate(turns)]
    moved = {uid: i for i, uid in enumerate(uids) if uid in position and position[uid] != i}
    present = set(uids)
    old = [(u, d) for u, d in zip(stored.uids, stored.digests)]
    matcher = SequenceMatcher(None, [d for _, d in old], said, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "replace":  # edited in place: as many old versions go as there are new ones
            replaced += [u for u, _ in old[i1:i1 + min(i2 - i1, j2 - j1)] if u not in present]
    missing = sum(1 for u in stored.uids if u not in present and u not in replaced)
    return Alignment(placed, uids, stored, list(dict.fromkeys(replaced)), missing, moved)
