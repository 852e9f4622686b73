"""Recall reads the present, or the past when asked: of a fact's versions (graphmem/supersession.py),
a question about now ("Where do I live?", "Where does Maya work now?") gets the current version
first and the older ones below it, marked superseded; a question about the past ("Where did I
live before?", "What was my first job?") gets the older versions above the newer ones. Versions no
link records (a value restated in other words) are read at recall (recency.py)."""

from __future__ import annotations

import re
from typing import Sequence

from ..ingest.claims import names_slot
from ..store import Store
from ..supersession import Validity, validity
from ..threads import beside
from .ranker import PEOPLE
from .recency import newest_first, pinned_first, restated, versions_asked
from .tuning import MARKED_BELOW, VERSION_WINDOW, VERSIONS_FIRST_FOUND
from .whose import mine_first

# Words that ask about an earlier state of things; anything else reads the present.
PAST = re.compile(r"\b(before|used to|did \w+ use to|previously|formerly|originally|at first|in the past|former|(?<!how )old|earlier|"
                  r"back then|prior|until|anymore)\b|\b(my|your|his|her|their|our|its)\s+first\b", re.IGNORECASE)
# ... but "Have I ever done X?" or "Have I done X before?" asks whether it ever held, which the newest statement
# answers; and "the first sprint" is an ordinal, not a past (a possessive makes it one: "my first job").
EVER = re.compile(r"\bever\b|^\s*(have|has)\b.*\bbefore\s*\?\s*$", re.IGNORECASE)
# How many of the ranked candidates have their versions read: the ones that can reach the answer.
READ_DEPTH = 40


def reading(query: str) -> str:
    """"past" when the question asks about an earlier state of things, else "present"."""
    return "past" if PAST.search(query) and not EVER.search(query) else "present"


def reorder(store: Store, user: str, ranked: list[tuple[str, float]], reading: str,
            depth: int = READ_DEPTH, question: str | None = None,
            words: Sequence[str] = (), kind: str = PEOPLE,
            thing: str | None = None) -> tuple[list[tuple[str, float]], dict[str, Validity]]:
    """The ranked memories with each fact's versions in the order the reading wants: for the
    present, a superseded memory comes right after the current version of its fact (brought in
    when the channels did not find it: it is the answer to what was asked); for the past, a
    memory that superseded others comes right after the older versions the ranking holds. A
    memory superseded only in part (a new employer, where it also said where someone lives)
    still holds for a question whose `words` (its lemmas) ask only about the rest. The
    validity of every memory that has versions comes along (for `Recalled`). With the
    `question`, versions no link records are read too (recency.newest_first, as the `kind` of
    conversation wants: tuning.VERSIONS_FIRST_FOUND, and the `thing` it asks about), for a
    question about the asker their own fact goes above one told of someone close to them
    (whose.mine_first), and a number of a thing the question gives pins the memories that say it
    first (recency.pinned_first)."""
    head = [uid for uid, _ in ranked[:depth]]
    # the versions no link records are read beside the links: the links only narrow them down
    read = [uid for uid, _ in ranked[:VERSION_WINDOW + MARKED_BELOW]]
    said = beside(store).submit(restated, store, user, read) \
        if question is not None and versions_asked(question, ranked) else None
    known = validity(store, user, head)
    if question is not None and said is not None:
        ranked = newest_first(store, user, ranked, question, reading, frozenset(known), said=said.result(),
                              first_found=VERSIONS_FIRST_FOUND[kind], thing=thing)
        ranked = mine_first(ranked, said.result(), question)
        ranked = pinned_first(ranked, said.result(), question)
    if not known:
        return ranked, known
    listed = dict(ranked)
    out: list[tuple[str, float]] = []
    seen: set[str] = set()
    for uid, score in ranked:
        if uid in seen:
            continue
        v = known.get(uid)
        first = (v.current or _newer_for_what_changed(v, words)
                 if reading == "present" else [o for o in v.supersedes if o in listed]) if v else []
        for other in first:
            if other not in seen:
                out.append((other, max(score, listed.get(other, score))))
                seen.add(other)
        out.append((uid, score))
        seen.add(uid)
    pulled = [uid for uid, _ in out if uid not in known and uid not in listed]
    if pulled:
        known.update(validity(store, user, pulled))
    return out, known


def _newer_for_what_changed(v: Validity, words: Sequence[str]) -> list[str]:
    """The versions that stand in, for this question, for a memory superseded in part: those of
    what changed, unless the question asks only about what still holds ("Where do I live?" of
    "I moved to Berlin and I work at Google", after "I now work at Apple"). A question that
    names neither gets them too: a claim not read may have changed with the one read."""
    changed, holding = v.retired_slots, v.claimed_slots - v.retired_slots
    if any(names_slot(s, words) for s in changed) or not any(names_slot(s, words) for s in holding):
        return v.current_on(changed)
    return []

