"""Recall reads the present, or the past when asked: of a fact's versions (graphmem/supersession.py),
a question about now ("Where do I live?", "Where does Maya work now?") gets the current version
first and the older ones below it, marked superseded; a question about the past ("Where did I
live before?", "What was my first job?") gets the older versions above the newer ones; one about a
time it names ("Where did I live in February 2024?") gets the version that held then: said by the
end of that time, and not yet superseded by then. Versions no link records (a value restated in
other words) are read at recall (recency.py)."""

from __future__ import annotations

import re
from typing import Mapping, Sequence

import numpy as np

from ..ingest.claims import names_slot
from ..store import Store
from ..supersession import Validity, validity
from ..threads import beside
from .ranker import PEOPLE
from .recency import (EVER, Said, asks_a_fact, came_after, ever_named, later_wanted, newest_first, pinned_first,
                      restated, settled_first, versions_asked, words as words_of)
from .tuning import MARKED_BELOW, VERSION_WINDOW, VERSIONS_FIRST_FOUND
from .telling import in_first_person
from .whose import mine_first, spoken

# Words that ask about an earlier state of things; anything else reads the present.
PAST = re.compile(r"\b(before|used to|did \w+ use to|previously|previous|formerly|originally|original|at first|in the past|"
                  r"former|(?<!how )old|earlier|back then|prior|until|anymore|at the (?:start|beginning) of)\b"
                  r"|\b(my|your|his|her|their|our|its)\s+first\b"
                  # the state at a beginning: "when I first joined", "what dose did I start on?"
                  r"|\bwhen (i|we|you|he|she|they) first\b|\bstart(ed)? (on|with|out)\b"
                  # ... or at a beginning it names: "when we adopted her", "when I was first diagnosed", "how
                  # many hens did we start the year with?" (not "when I got promoted": what it asks may be the
                  # state that began then)
                  r"|\bwhen (i|we|you|he|she|they) (was |were )?(first )?(adopted|bought|met|started|joined|"
                  r"enrolled|arrived|began|diagnosed)\b"
                  r"|\b(did \w+ start|started) (the|my|our) \w+ (on|with|out)\b"
                  # ... or which state came first ("Where did I live first?", "Which car did I own first?"),
                  # unless it sets two things side by side ("Which did I start first, X or Y?")
                  r"|^(?!.*\b(or|between)\b).*\b(did|was|were|had)\b.*\bfirst\W*$", re.IGNORECASE)
# ... but "Have I ever done X?" or "Have I done X before?" asks whether it ever held, which the newest statement
# answers (recency.EVER); and "the first sprint" is an ordinal, not a past (a possessive makes it one: "my first job",
# as does a time: "when I first joined").
# A question's tense is its first auxiliary verb's: a time named in the past or the perfect asks how things stood then.
AUXILIARY = re.compile(r"\b(do|does|did|am|is|are|was|were|has|have|had|will|would|can|could|should|shall|may|might)\b",
                       re.IGNORECASE)
PAST_OR_PERFECT = {"did", "was", "were", "had", "has", "have"}
# How many of the ranked candidates have their versions read: the ones that can reach the answer.
READ_DEPTH = 40


def reading(query: str) -> str:
    """"past" when the question asks about an earlier state of things, else "present"."""
    return "past" if PAST.search(query) and not EVER.search(query) else "present"


def stood_at(query: str, time_range: tuple[float, float] | None) -> float | None:
    """When a question asks how a fact stood at a time it names ("Where did I live in February
    2024?", "Which PostgreSQL version did production run in March 2024?"), the end of that day,
    month or year (analysis.time_range): the versions said by then read as the present, those said
    after it as the future. The question's first auxiliary verb must be of the past or the
    perfect ("did", "was", "has": "How many tournaments has Nate won by July 10, 2022?"). None
    for any other question: one in the present tense asks about a plan for that time ("Where
    are we going in July?"), which its latest version answers, and one whose words ask about
    before a change ("Where did I live before June 2024?") reads the past."""
    tense = AUXILIARY.search(query)
    if time_range is None or reading(query) == "past" or not asks_a_fact(query, "past") \
            or tense is None or tense.group(1).lower() not in PAST_OR_PERFECT:
        return None
    return time_range[1]


def reorder(store: Store, user: str, ranked: list[tuple[str, float]], reading: str,
            depth: int = READ_DEPTH, question: str | None = None,
            words: Sequence[str] = (), kind: str = PEOPLE, thing: str | None = None,
            as_of: float | None = None, asked_vector: np.ndarray | None = None,
            speakers: Mapping[str, str | None] | None = None,
            texts: Mapping[str, str] | None = None) -> tuple[list[tuple[str, float]], dict[str, Validity]]:
    """The ranked memories with each fact's versions in the order the reading wants: for the
    present, a superseded memory comes right after the current version of its fact (brought in
    when the channels did not find it: it is the answer to what was asked); for the past, a
    memory that superseded others comes right after the older versions the ranking holds. With a
    time the question asks at (`as_of`), a memory said after it is read as for the past, and one
    said by then as for the present of that time (`Validity.then`). A
    memory superseded only in part (a new employer, where it also said where someone lives)
    still holds for a question whose `words` (its lemmas) ask only about the rest. The
    validity of every memory that has versions comes along (for `Recalled`). With the
    `question`, for a question about the asker their own fact goes above one told of someone
    close to them, and for any in the first person what tells something above what only asks
    (whose.mine_first; for a request that reads no versions too, from who said what among the
    candidates, `speakers` and `texts`), a first memory that only weighs a change or holds for
    a while goes below the fact it is about (recency.settled_first); then, after the links' order
    (`_by_links`), versions no link records are read too (recency.newest_first, as the `kind` of
    conversation wants: tuning.VERSIONS_FIRST_FOUND, the `thing` it asks about, and the question's
    embedding, `asked_vector`; of a memory whose links say nothing newer of what is asked as well,
    `_left_to_links`: a fact that changed twice, its second change read by no claim), and a number of a thing
    the question gives pins the memories that say it first (recency.pinned_first). A question
    about what held before something it names gets the version that something replaced first
    (`_replaced_first`)."""
    head = [uid for uid, _ in ranked[:depth]]
    # the versions no link records are read beside the links: the links only narrow them down
    read = [uid for uid, _ in ranked[:VERSION_WINDOW + MARKED_BELOW]]
    versions = question is not None and bool(versions_asked(question, ranked))
    said = beside(store).submit(restated, store, user, read) if versions else None
    known = validity(store, user, head)
    # each memory's newer versions for this question, read once: for the links' own order, then
    # for the reading of versions no link records
    newer_of = {uid: _newer_by_links(held, as_of, words) for uid, held in known.items()
                if later_wanted(reading, as_of, held.at)}
    if question is not None and said is not None:
        ranked = mine_first(ranked, said.result(), question)
        ranked = settled_first(ranked, said.result(), question, reading)
    elif question is not None and texts is not None and in_first_person(question):
        # a request about the asker or theirs ("Tell me about my children.") reads no versions,
        # but a message that only asks is no answer to it either
        ranked = mine_first(ranked, spoken(speakers or {}, texts, read), question, others=False)
    out = _by_links(ranked, known, newer_of) if known else list(ranked)
    if question is not None and said is not None:
        # read after the links' order: a version no claim read may follow the one a link made current
        out = newest_first(store, user, out, question, reading, _left_to_links(known, newer_of),
                           said=said.result(), first_found=VERSIONS_FIRST_FOUND[kind], thing=thing, as_of=as_of,
                           asked_vector=asked_vector,
                           claimed=_claimed_as_asked(known, words))
        out = pinned_first(out, said.result(), question)
        if known and reading == "past":
            out = _replaced_first(out, known, said.result(), question)
        elif known:
            out = _named_version_first(out, known, said.result(), question)
    if not known:
        return out, known
    listed = {uid for uid, _ in ranked}  # the links brought in the rest
    pulled = [uid for uid, _ in out if uid not in known and uid not in listed]
    if pulled:
        known.update(validity(store, user, pulled))
    return out, known


def _by_links(ranked: list[tuple[str, float]], known: dict[str, Validity],
              newer_of: Mapping[str, tuple[Validity, list[str], set[str]]]) -> list[tuple[str, float]]:
    """`ranked` in the order the links want (`reorder`): each memory's versions for this question
    (`newer_of`; for the past, the older versions it superseded) right before it, and a version of
    what the question does not ask about, ranked above the memory it stands in for, below the
    version of what it asks about ("We moved to Berlin" below "I quit Acme, starting at Zalando"
    for "Where do I work now?", both newer than "I live in Paris and work at Acme")."""
    listed = dict(ranked)
    ahead: dict[str, list[str]] = {}
    for _, newer, wanted in newer_of.values():
        asked = [uid for uid in newer if uid in wanted]
        for other in newer if asked else []:
            if other not in asked:
                ahead.setdefault(other, []).extend(asked)
    out: list[tuple[str, float]] = []
    seen: set[str] = set()
    for uid, score in ranked:
        if uid in seen:
            continue
        v = known.get(uid)
        if v is None:
            first: list[str] = []
        elif uid in newer_of:
            _, first, _ = newer_of[uid]
        else:
            first = [o for o in v.supersedes if o in listed]
        first = [o for o in ahead.get(uid, []) if o != uid] + first
        for other in first:
            if other not in seen:
                out.append((other, max(score, listed.get(other, score))))
                seen.add(other)
        out.append((uid, score))
        seen.add(uid)
    return out


def _replaced_first(ranked: list[tuple[str, float]], known: dict[str, Validity], said: Mapping[str, Said],
                    question: str) -> list[tuple[str, float]]:
    """For a question about what held before something it names ("Where did I live before
    Glasgow?"), the versions that the first memory saying it superseded (linked at write time)
    go first: the state it replaced ("Moved to Manchester"), not the oldest of the chain ("I live
    in Leeds") that the reading of the past puts above it."""
    after = came_after(question)
    if not after:
        return ranked
    listed = [uid for uid, _ in ranked]
    for uid in listed[:VERSION_WINDOW]:
        v, this = known.get(uid), said.get(uid)
        if v is None or this is None or not v.supersedes or not after & words_of(this.text):
            continue
        replaced = [o for o in v.supersedes if o in listed and not after & words_of(said[o].text if o in said else "")]
        if not replaced:
            return ranked
        top = max(score for _, score in ranked)
        return [(o, top) for o in replaced] + [(u, s) for u, s in ranked if u not in replaced]
    return ranked


def _named_version_first(ranked: list[tuple[str, float]], known: dict[str, Validity], said: Mapping[str, Said],
                         question: str) -> list[tuple[str, float]]:
    """For a question whether something ever held that names its value ("Have I ever lived in
    Leeds?"), a former version (superseded, even in part) among the first VERSION_WINDOW that says
    the value goes first when the first memory does not say it: the newest version answers "ever"
    only when it speaks of that value ("I've never worked with Michael"); "Relocated to Glasgow"
    does not."""
    named = ever_named(question)
    first = said.get(ranked[0][0]) if ranked else None
    if not named or first is None or named & words_of(first.text):
        return ranked
    for uid, _ in ranked[1:VERSION_WINDOW]:
        v, this = known.get(uid), said.get(uid)
        if v is not None and v.superseded_by and this is not None and named & words_of(this.text):
            return [(uid, ranked[0][1])] + [(u, s) for u, s in ranked if u != uid]
    return ranked


def _left_to_links(known: dict[str, Validity],
                   newer_of: Mapping[str, tuple[Validity, list[str], set[str]]]) -> frozenset[str]:
    """The memories whose versions the links tell, for this question: where the question wants a
    memory's later versions (`newer_of`: each one's versions as the question reads them,
    `_newer_by_links`), those its links put a newer version above; of the rest, all that have
    links. A memory whose links say nothing newer of what is asked is read at recall too: one that
    only superseded others is current as far as its links know, and a later version no claim
    read may follow it ("Rent is $1,600 from June" after "Rent went up to $1,550", which retired
    "My rent is $1,400"); one superseded in part when the question asks only
    about what still holds ("Where do I work now?" of "I live in Paris and work at Acme", after
    "We moved to Berlin, still at Acme"): its links say nothing of that ("I quit Acme, starting
    at Zalando on Monday")."""
    return frozenset(uid for uid in known if uid not in newer_of or newer_of[uid][1])


def _claimed_as_asked(known: Mapping[str, Validity], words: Sequence[str]) -> dict[str, set[str]]:
    """The slots each linked memory's claims say, as the question reads them: of a memory that
    says a slot the question names (its `words`, lemmas), that slot only. Two memories are then
    versions for the question only where both say what it asks: "I now work at Apple" is no
    version of "I moved to Berlin and I work at Google now" for "Where do I live?", though it
    retired what that one said of the employer."""
    claimed = {uid: v.claimed_slots for uid, v in known.items() if v.claimed}
    return {uid: {s for s in slots if names_slot(s, words)} or slots for uid, slots in claimed.items()}


def _newer_by_links(v: Validity, as_of: float | None,
                    words: Sequence[str]) -> tuple[Validity, list[str], set[str]]:
    """A memory's versions as they stood at the time a question asks at (`as_of`; now when None),
    the newer versions its links put above it for that question (`words`: its lemmas), and of all
    its versions those of the slots the question names (`_asked_versions`), which go first. One
    rule for the links' reading in `reorder` and for what it leaves to `_left_to_links`."""
    then = v if as_of is None else v.then(as_of)
    asked = _asked_versions(then, words)
    return then, sorted(then.current or _newer_for_what_changed(then, words), key=lambda uid: uid not in asked), asked


def _asked_versions(v: Validity, words: Sequence[str]) -> set[str]:
    """The versions that stand in for a memory on the slots the question names ("Where do I work
    now?" of "I live in Paris and work at Acme": the new employer's, not the new home's)."""
    return set(v.current_on([s for s in v.retired_slots if names_slot(s, words)]))


def _newer_for_what_changed(v: Validity, words: Sequence[str]) -> list[str]:
    """The versions that stand in, for this question, for a memory superseded in part: those of
    what changed, unless the question asks only about what still holds ("Where do I live?" of
    "I moved to Berlin and I work at Google", after "I now work at Apple"). A question that
    names neither gets them too: a claim not read may have changed with the one read."""
    changed, holding = v.retired_slots, v.claimed_slots - v.retired_slots
    if any(names_slot(s, words) for s in changed) or not any(names_slot(s, words) for s in holding):
        return v.current_on(changed)
    return []

