"""What holds for the user's later questions: standing instructions, what a user told their
agent to do from now on ("Always include version numbers when I ask about libraries", "Never use
emojis"), and stated preferences ("I prefer e-books for their portability");
graphmem/ingest/extract.py finds both. Such a memory shares few words with the questions it
governs ("Which libraries does my project use?", "Can you suggest some books?"), so the
channels rank it low, yet it applies to every question on its topic. Recall puts the
instruction nearest the question first when it is at least STANDING_COSINE near, and the
preference nearest a question that asks for advice next: the agent that reads the memories
then follows them. A preference says nothing about facts: "Have I used Bootstrap before?" is
answered by what happened, not by "I prefer Bootstrap over Foundation"."""

from __future__ import annotations

import re
from typing import NamedTuple, Sequence

import numpy as np

from ..store import Store
from ..vectors import unit
from .tuning import STANDING_COSINE, STANDING_READ

# the kinds (recall_standing.cypher's), in the order recall puts them first; each is also the
# memory's property that marks it and the channel it shows as
KINDS = ("standing", "preference")
# A question that asks the agent for advice: a suggestion, a recommendation, a way to do something.
ADVICE = re.compile(r"\b(suggest|recommend|advi[cs]e|should I|I should|would you|help me|ideas?|options?|tips?|"
                    r"ways?|how (can|should) I|how to|walk me through)\b", re.IGNORECASE)


class Holding(NamedTuple):
    uid: str
    kind: str  # one of KINDS
    vector: np.ndarray  # unit length


def standing_memories(store: Store, user: str, include_archived: bool = False) -> list[Holding]:
    """The user's standing instructions and stated preferences that still hold (none newer
    superseded them), the newest of each kind first."""
    out = []
    for row in store.run("recall_standing", user_id=user, include_archived=include_archived, limit=STANDING_READ):
        vector = unit(row["embedding"])
        if vector is not None:
            out.append(Holding(row["uid"], row["kind"], vector))
    return out


def applying(held: Sequence[Holding], query: str, question: Sequence[float], advice: bool = True) -> dict[str, str]:
    """Kind -> the memory of that kind nearest the question (its vector), for each kind that has
    one at least STANDING_COSINE near (the newest of equally near ones); preferences only when
    the question asks for advice (and `advice` allows it)."""
    if not (advice and ADVICE.search(query)):
        held = [h for h in held if h.kind != "preference"]
    if not held:
        return {}
    q = unit(question)
    if q is None:
        return {}
    cosines = np.stack([h.vector for h in held]) @ q
    out: dict[str, str] = {}
    for kind in KINDS:
        mine = [i for i, h in enumerate(held) if h.kind == kind]
        if mine:
            best = max(mine, key=lambda i: (float(cosines[i]), -i))
            if float(cosines[best]) >= STANDING_COSINE:
                out[kind] = held[best].uid
    return out


def first(ranked: list[tuple[str, float]], applies: dict[str, str]) -> list[tuple[str, float]]:
    """`ranked` with what applies first (moved there, or brought in), in KINDS' order, each
    scored as the best."""
    uids = [applies[kind] for kind in KINDS if kind in applies]
    if not uids:
        return ranked
    top = max([s for _, s in ranked] or [0.0])
    return [(uid, top) for uid in uids] + [(u, s) for u, s in ranked if u not in uids]
