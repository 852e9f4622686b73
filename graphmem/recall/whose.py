"""Whose fact a memory tells. A question about the asker ("What's my job?", "Where do I live?",
"What am I allergic to?") is answered by what they said of themselves, not by what they said of
someone close to them: "My husband is a senior data engineer", "My sister just moved to
Seattle", "my son is allergic to peanuts". Both are the user's words, often near in meaning
and in the embedding, and the ranker cannot tell whose fact each is.

Read off the words, zero-LLM, from what a message tells (telling.py: what it asks is left
out): a message speaks of someone else when the speaker's first person in it is only ever the
owner of a person ("my husband", "our neighbors", "my coworker's flight", "a coworker of mine"),
or when it has no first person and says "he" or "she" ("Eli quit soccer. He wants to do
robotics"); of the speaker when it says I, me, we or us, or "my" and "our" of anything else ("My
doctor increased my lisinopril" is the speaker's dose), or no person at all (a chat drops its
"I": "Got moved to day shifts"). A question is about the asker when it says I, me, my, we or our and names
no person of theirs ("Does my sister live with me?" is about the sister), nor them as one ("Tell
me about my family"). Then, among the first
VERSION_WINDOW memories, a memory of someone else gets the nearest following memory of the
speaker's own, said by the same speaker, put right above it (not one that only asks: "Give me a
recipe for a quick pasta." says "me" and tells nothing of them), however near the two are: whose
fact it is decides a question about the asker before what it is near ("What's my dog's name?":
"I have a rescue pit mix named Koa" above "watching my neighbor's dog mochi this week", 0.32
apart). Nor is a question about the asker, or anyone of theirs ("What do you know about my
daughter?"), answered by a message that only asks (telling.only_asks: "How do I convert Celsius
to Fahrenheit?" says "I" and tells nothing): each of the same speaker's memories among the first
VERSION_WINDOW that tells something goes above it, a request to tell all ("Tell me about my
children.", "Can you list ...?") included, though it reads no versions. Nothing else moves but by
the one place a moved memory left.
This runs before the versions are read (recency.newest_first), so that they are the asker's own
fact's: the other way round, a coworker's change ranked first had its versions read instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence

from ..ingest.markup import plain_typing
from .replies import asks_about_own_words
from .telling import asks_of_the_asker, in_first_person, of_someone_else, of_the_speaker, only_asks, only_of_others
from .tuning import VERSION_WINDOW


class Told(Protocol):
    """What whose fact a memory tells is read from: who said it, and what (recency.Said, Spoken)."""
    @property
    def speaker(self) -> str | None: ...

    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class Spoken:
    """Who said a candidate and what, as the candidates carry them (no embedding read)."""
    speaker: str | None
    text: str


def spoken(speakers: Mapping[str, str | None], texts: Mapping[str, str], uids: Sequence[str]) -> dict[str, Spoken]:
    """Who said each of `uids` and what, of those `texts` holds, typed plainly as
    recency.restated reads them."""
    return {uid: Spoken(speakers.get(uid), plain_typing(texts[uid])) for uid in uids if uid in texts}


def mine_first(ranked: list[tuple[str, float]], said: Mapping[str, Told], question: str,
               window: int = VERSION_WINDOW, others: bool = True) -> list[tuple[str, float]]:
    """`ranked` with, for a question about the asker, each memory of someone else among the
    first `window` preceded by the nearest following memory of the speaker's own (same speaker;
    only with `others`: a request to tell all about the asker wants what they told of others
    too); and for one about the asker or anyone of theirs, each memory that only asks put below
    each among the first `window` of the same speaker's that tells something; not for a
    question on what the asker said (`replies.asks_about_own_words`)."""
    if len(ranked) < 2 or asks_about_own_words(question):
        return ranked  # "What did I say about the wedding?" asks for the asker's words, of whomever
    of_the_asker = others and asks_of_the_asker(question)
    if not (of_the_asker or in_first_person(question)):
        return ranked
    out = list(ranked)
    i = 0
    while i < min(window, len(out)):
        this = said.get(out[i][0])
        if this is None or not (only_asks(this.text) or of_the_asker
                                and (of_someone_else(this.text) or only_of_others(this.text))):
            i += 1
            continue
        mine = next((j for j in range(i + 1, min(window, len(out)))
                     if (other := said.get(out[j][0])) is not None and other.speaker == this.speaker
                     and not only_asks(other.text) and (of_the_speaker(other.text) or not of_the_asker)), None)
        if mine is None:
            i += 1
            continue
        uid, score = out.pop(mine)
        out.insert(i, (uid, max(score, out[i][1])))  # scores stay in order down the list
        # a message that only asks goes on down below each of its speaker's that tells something
        i += 1 if only_asks(this.text) else 2
    return out
