"""Whose fact a memory tells. A question about the asker ("What's my job?", "Where do I live?",
"What am I allergic to?") is answered by what they said of themselves, not by what they said of
someone close to them: "My husband is a senior data engineer", "My sister just moved to
Seattle", "my son is allergic to peanuts". Both are the user's words, often near in meaning
and in the embedding, and the ranker cannot tell whose fact each is.

Read off the words, zero-LLM, from what a message tells (`recency.told`: what it asks is left
out): a message speaks of someone else when the speaker's first person in it is only ever the
owner of a person ("my husband", "our neighbors", "my coworker's flight"); of the speaker when it
says I, me, we or us, or "my" and "our" of anything else ("My doctor increased my lisinopril" is
the speaker's dose). A question is about the asker when it says I, me, my, we or our and names
no person of theirs ("Does my sister live with me?" is about the sister). Then, among the first
VERSION_WINDOW memories, a memory of someone else gets the nearest following memory of the
speaker's own, said by the same speaker and VERSION_COSINE near it (as near as two versions of
one thing), put right above it. Nothing else moves but by the one place the moved memory left."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping

from ..ingest.extract import KIN, NOT_PEOPLE
from ..ingest.markup import prose
from .recency import Said, told
from .tuning import VERSION_COSINE, VERSION_WINDOW

# The people a speaker speaks of as theirs: kin, and the people of their days.
PEOPLE = (KIN - NOT_PEOPLE) | {"neighbor", "neighbors", "neighbour", "neighbours", "roommate", "roommates",
                               "flatmate", "manager", "fiance", "fiancé", "fiancee", "fiancée", "spouse",
                               "grandparents", "stepdad", "stepmom", "stepson", "stepdaughter", "classmate",
                               "classmates", "coworkers", "colleagues", "teammate", "teammates", "sons",
                               "daughters", "sisters", "brothers", "in-laws", "inlaws", "mum", "girlfriends",
                               "boyfriends", "bestie", "bff", "toddler", "toddlers", "baby", "babies", "grandkids",
                               "grandchildren"}
# The speaker's own words for themselves, in any case but "US" (the country).
FIRST_PERSON = re.compile(r"\b(?-i:(?!US\b))(i|me|my|mine|myself|we|us|our|ours|ourselves)\b", re.IGNORECASE)
OWNING = {"my", "our"}
WORD = re.compile(r"[a-z][a-z'’-]*")
# How many words may stand between "my" and the person: "my older sister", "my best friend's".
OWNED_WITHIN = 3


def _owns_a_person(text: str, at: int) -> bool:
    """Whether the "my" or "our" that ends at `at` owns a person: one of PEOPLE (or their
    possessive) within OWNED_WITHIN words."""
    for word in WORD.findall(text[at:at + 60].lower())[:OWNED_WITHIN]:
        bare = re.sub(r"['’]s?$", "", word)
        if bare in PEOPLE:
            return True
    return False


def _first_person(text: str) -> tuple[int, int]:
    """How many first-person words the text says, and how many of them own a person."""
    said = owning = 0
    for m in FIRST_PERSON.finditer(text):
        said += 1
        owning += m.group(1).lower() in OWNING and _owns_a_person(text, m.end())
    return said, owning


@lru_cache(maxsize=64)  # each of the first memories is asked both ways, as the one above and as one below
def _told_first_person(text: str) -> tuple[int, int]:
    """`_first_person` of what a message tells (its prose, its questions left out)."""
    return _first_person(told(prose(text)))


def of_someone_else(text: str) -> bool:
    """Whether what a message tells speaks of someone else's fact: its first person only ever
    owns a person ("My husband is a senior data engineer", "my coworker's flight got
    cancelled")."""
    said, owning = _told_first_person(text)
    return said > 0 and owning == said


def of_the_speaker(text: str) -> bool:
    """Whether what a message tells speaks of its speaker: a first-person word that owns no
    person ("I'm a senior data analyst", "My doctor increased my lisinopril")."""
    said, owning = _told_first_person(text)
    return said > owning


def asks_of_the_asker(question: str) -> bool:
    """Whether a question asks about the asker ("What's my job?") and names no person of
    theirs ("Where does my sister live?" asks about her)."""
    said, owning = _first_person(question)
    return said > 0 and owning == 0


def mine_first(ranked: list[tuple[str, float]], said: Mapping[str, Said], question: str,
               window: int = VERSION_WINDOW) -> list[tuple[str, float]]:
    """`ranked` with, for a question about the asker, each memory of someone else among the
    first `window` preceded by the nearest following memory of the speaker's own (same
    speaker, VERSION_COSINE near)."""
    if len(ranked) < 2 or not asks_of_the_asker(question):
        return ranked
    out = list(ranked)
    i = 0
    while i < min(window, len(out)):
        this = said.get(out[i][0])
        if this is None or not of_someone_else(this.text):
            i += 1
            continue
        mine = next((j for j in range(i + 1, min(window, len(out)))
                     if (other := said.get(out[j][0])) is not None and other.speaker == this.speaker
                     and float(this.vector @ other.vector) >= VERSION_COSINE and of_the_speaker(other.text)), None)
        if mine is None:
            i += 1
            continue
        uid, score = out.pop(mine)
        out.insert(i, (uid, max(score, out[i][1])))  # scores stay in order down the list
        i += 2
    return out
