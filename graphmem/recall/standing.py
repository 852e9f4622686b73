"""What holds for the user's later questions: standing instructions, what a user told their
agent to do from now on ("Always include version numbers when I ask about libraries", "Never use
emojis"), and stated preferences ("I prefer e-books for their portability");
graphmem/ingest/extract.py finds both. Such a memory shares few words with the questions it
governs ("Which libraries does my project use?", "Can you suggest some books?"), so the
channels rank it low, yet it applies to every question on its topic. An instruction that says
when it applies ("... when I ask about deadlines") is matched by that scope, not by what it asks
the agent to do: "When is the final submission due?" is a question about a deadline, not about
date formats. Recall puts the instruction nearest the question first when it is near enough
(STANDING_SCOPE_COSINE to its scope, or STANDING_COSINE to the whole), and the preference
nearest a question that asks for advice next: the agent that reads the memories then follows
them. A preference says nothing about facts: "Have I used Bootstrap before?" is
answered by what happened, not by "I prefer Bootstrap over Foundation"."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple, Sequence

import numpy as np

from ..ingest.markup import plain_typing
from ..store import Store
from ..vectors import unit
from .tuning import STANDING_COSINE, STANDING_READ, STANDING_SCOPE_COSINE

if TYPE_CHECKING:
    from ..models import Models

# the kinds (recall_standing.cypher's), in the order recall puts them first; each is also the
# memory's property that marks it and the channel it shows as
KINDS = ("standing", "preference")
# A question that asks the agent for advice: a suggestion, a recommendation, a way to do something.
ADVICE = re.compile(r"\b(suggest|recommend|advi[cs]e|should I|I should|would you|help me|ideas?|options?|tips?|"
                    r"ways?|how (can|should) I|how to|walk me through)\b", re.IGNORECASE)


# When an instruction applies, as its user said it: "when I ask about X", "whenever we discuss
# X", "if I ask you for X", "for questions about X", "when it comes to X".
SCOPE = re.compile(r"\b(?:(?:when(?:ever)?|if|each time|every time|any ?time)\s+(?:I|we)(?:'m|'re|\s+am|\s+are)?\s+"
                   r"(?:ask|asking|talk|talking|inquire|inquiring|enquire|chat|chatting|speak|discuss|discussing|"
                   r"bring up|mention)(?:\s+you)?(?:\s+(?:about|for|regarding|on|of))?"
                   r"|for (?:any )?questions? (?:about|on|regarding)|when it comes to)\s+(?P<scope>[^.!?,;\n]{3,})",
                   re.IGNORECASE)
# The scopes' vectors, by their text, embedded once a process (an instruction is read at every recall).
_SCOPES: dict[str, np.ndarray] = {}
SCOPES_KEPT = 4096


class Holding(NamedTuple):
    uid: str
    kind: str  # one of KINDS
    vector: np.ndarray  # unit length
    scope: np.ndarray | None = None  # unit length: the vector of when it applies, where it says so


def scope_of(text: str) -> str | None:
    """What an instruction says it applies to ("deadlines" in "Always format dates as MM/DD/YYYY
    when I ask about deadlines"), or None."""
    found = SCOPE.search(plain_typing(text or ""))
    return found.group("scope").strip() if found else None


def standing_memories(store: Store, user: str, include_archived: bool = False,
                      models: "Models | None" = None) -> list[Holding]:
    """The user's standing instructions and stated preferences that still hold (none newer
    superseded them), the newest of each kind first; with `models`, an instruction's scope
    comes with its vector."""
    held = [(r, vector) for r in store.run("recall_standing", user_id=user, include_archived=include_archived,
                                           limit=STANDING_READ) if (vector := unit(r["embedding"])) is not None]
    scopes: dict[str, str] = {}
    vectors: dict[str, np.ndarray] = {}
    if models is not None:
        scopes = {r["uid"]: scope for r, _ in held if r["kind"] == "standing" and (scope := scope_of(r["text"]))}
        vectors = {t: v for t in set(scopes.values()) if (v := _SCOPES.get(t)) is not None}
        missing = sorted(set(scopes.values()) - vectors.keys())
        if missing:  # recalls in other threads may clear and fill the cache meanwhile: this one keeps its own
            vectors.update(zip(missing, models.embedder().embed(missing)))
            if len(_SCOPES) + len(missing) > SCOPES_KEPT:
                _SCOPES.clear()
            _SCOPES.update((t, vectors[t]) for t in missing)
    return [Holding(r["uid"], r["kind"], vector, unit(vectors[scopes[r["uid"]]]) if r["uid"] in scopes else None)
            for r, vector in held]


def applying(held: Sequence[Holding], query: str, question: Sequence[float], advice: bool = True) -> dict[str, str]:
    """Kind -> the memory of that kind nearest the question, for each kind that has one near
    enough: the whole memory STANDING_COSINE near, or an instruction's scope
    STANDING_SCOPE_COSINE near (the nearer of the two counts; the newest of equally near ones);
    preferences only when the question asks for advice (and `advice` allows it)."""
    if not (advice and ADVICE.search(query)):
        held = [h for h in held if h.kind != "preference"]
    if not held:
        return {}
    q = unit(question)
    if q is None:
        return {}
    whole = np.stack([h.vector for h in held]) @ q
    scoped = [float(h.scope @ q) if h.scope is not None else -1.0 for h in held]
    out: dict[str, str] = {}
    for kind in KINDS:
        mine = [i for i, h in enumerate(held) if h.kind == kind
                and (whole[i] >= STANDING_COSINE or scoped[i] >= STANDING_SCOPE_COSINE)]
        if mine:
            out[kind] = held[max(mine, key=lambda i: (max(float(whole[i]), scoped[i]), -i))].uid
    return out


def first(ranked: list[tuple[str, float]], applies: dict[str, str]) -> list[tuple[str, float]]:
    """`ranked` with what applies first (moved there, or brought in), in KINDS' order, each
    scored as the best."""
    uids = [applies[kind] for kind in KINDS if kind in applies]
    if not uids:
        return ranked
    top = max([s for _, s in ranked] or [0.0])
    return [(uid, top) for uid in uids] + [(u, s) for u, s in ranked if u not in uids]
