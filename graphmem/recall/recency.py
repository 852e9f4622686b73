"""The newest of a thing's versions first where nothing linked them at write time (a zero-LLM
"soft supersession" at recall). Supersession at write time (graphmem/supersession.py) links
what its slot lexicon reads; a long technical chat restates a deadline, a count or a budget in
words it does not read ("the sprint deadline is now April 5", "I've never used Excel").

Recall's best memory and a later memory among the first ones are two versions of one thing
when the same speaker said both, their embeddings are near, both hold question words, and
they differ where the question asks: a value question ("What is the deadline ...?", "How many
...?", "What database do we use?") needs a different value (a number, a date, a name) in the
later one; a yes-or-no question ("Have I ever used Excel ...?", "Am I a smoker?") needs one of
them negated or ended ("I quit smoking") and the other not. For any question, a later memory is
also a version when it tells a change and names the earlier's value (`renamed`): the old value
ties the two together where the question's words are in neither ("Who's my boss?" after "My
manager is Priya" and "Priya moved to the Paris office, so Tom is my manager now"). For a
question about how things stand now (or stood before a change, or at a time it names:
`asks_a_fact`), a near later memory that tells a change is a version too (`told_anew`: "Am I a
smoker?" after "I smoke about half a pack a day" and "I quit smoking two months ago"), whatever
words it shares with the question; a less near one too when the change
is the speaker's own and, where it names values, a new one. Without a verb, a change is told by
a present set against a past where a question word is said ("Nowadays I work from home"), or by
a memory that calls itself the new one of the asker's asked thing ("I got a new number").
And neither may name another thing where the other names the question's (`other_thing`: the
question's "web app" in one, a "mobile app" in the other; "my exam" and "Dana's exam"; "I make"
and "my wife makes"). No memory is a version that departs from a fact only for a while ("this
week's session is on Friday instead": `PASSING`), that says the earlier's value stays ("Still
flying out of DCA": `_kept`), or that tells someone else's change where the question asks about
the asker or about a person the earlier names (`_of_another`); and, less than VERSION_COSINE near,
each of the two must be about the question (`_about`): in a small memory every message is among
the first results, and one person's short messages are all about CHANGE_COSINE near each other.
A word of the earlier named as the thing a change left ("we finally moved off square") is its
old value whatever its case (`renamed`, `LEFT`). For a question about the present the later one is put right above the earlier
one (of several later ones, the first that marks itself the newer: "the new April 25
deadline"); for one about the past the earlier above the later, unless the later tells the former
state itself ("I used to ..."). Nothing else moves but by the one
place the moved memory left, and only within the first VERSION_WINDOW: which memories are in
that many first results does not change. The memory read is each speaker's best (in a chat with
an agent, each speaker's first that has a version: the user's best is often a later request on
the topic): versions are one speaker's, and the agent's reply often ranks above what the user
said."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Mapping, Sequence

import numpy as np

from ..ingest.claims import ADVISORS, ASKING_YOU, CHANGED, NUMBERS
from ..ingest.markup import plain_typing, prose, stop_words
from ..store import Store
from ..vectors import unit
from .analysis import about_the_conversation
from .channels import first_where
from .telling import (asks_of_the_asker, of_someone_else, of_the_speaker, only_of_others, opens_with_a_person_of,
                      people_named, people_owned, says_i, told, told_prose, without_possessive, SENTENCES)
from .tuning import (CHANGE_COSINE, MARKED_BELOW, QUESTION_NEAR, RENAMED_COSINE, VERSION_COSINE, VERSION_HEAD,
                     VERSION_QUESTION_WORDS,
                     VERSION_WINDOW)

YES_OR_NO = re.compile(r"^\s*(have|has|had|did|do|does|am|is|are|was|were|can|could)\b", re.IGNORECASE)
# A question in the simple past asks about an event ("What did Nate make on 25 February?"), not
# about how things stand now.
SIMPLE_PAST = re.compile(r"\b(did|was|were|had)\b", re.IGNORECASE)
# ... but one for the latest of something asks how it stands now ("What was my most recent A1c?").
LATEST = re.compile(r"\b(most recent|latest|current)\b", re.IGNORECASE)
# "Have I ever done X?" or "Have I done X before?" asks whether it ever held, which the newest
# statement answers (versions.reading).
EVER = re.compile(r"\bever\b|^\s*(have|has)\b.*\bbefore\s*\?\s*$", re.IGNORECASE)
# A question that counts a thing ("How many hens do we have?"); "how much" measures it, often in a
# unit that names it not ("How much coffee do I drink?": "Down to a single cup").
COUNTED = re.compile(r"\bhow many\b", re.IGNORECASE)
ASKS_VALUE = re.compile(r"\b(what|how (many|much|long|big|large|small|old|far|tall|heavy|fast|often)|when|which)\b",
                        re.IGNORECASE)
# A request to the agent ("Can you give me a summary of ...?"), and the words that ask for a place or
# a person: what `asks_a_fact` reads beside ASKS_VALUE and YES_OR_NO.
REQUEST = re.compile(rf"^\W*({'|'.join(sorted(ASKING_YOU))})\s+you\b(?!\s+(please\s+)?(tell|remind)\s+me\b)",
                     re.IGNORECASE)  # "Can you remind me where I live?" asks where
ASKS_FACT = re.compile(r"\b(where|who|whom)\b", re.IGNORECASE)
# ... and a question that asks what something is called asks for a name as who and where do
# ("What's my sourdough starter called?", "What's my girlfriend's name?").
ASKS_NAME = re.compile(r"\b(called|named|name)\b", re.IGNORECASE)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec")
_MONTH = "(" + "|".join(_MONTHS) + ")"
VALUE = re.compile(r"\$?\d[\d,.:]*\s*(%|percent|am|pm)?|\b" + _MONTH + r"\.?\s+\d{1,2}\b", re.IGNORECASE)
# A question that asks when, and what says when: a day, a month, a time of day.
WHEN_ASKED = re.compile(r"\b(when|what time|what day|which day|what date)\b", re.IGNORECASE)
_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_CLOCK = r"\b\d{1,2}(?::\d{2})?\s*(?:am|pm)\b|\b\d{1,2}:\d{2}\b"  # "6:30am", "7 pm", "18:00"
WHEN = re.compile(r"\b" + _WEEKDAY + r"s?\b|\b" + _MONTH + r"\b|" + _CLOCK + r"|"
                  r"\b(morning|afternoon|evening|night|noon|midnight|tomorrow|tonight|weekend)s?\b",
                  re.IGNORECASE)
# ... and one that asks a time of day ("What time is my spin class?"), which a day alone does not say.
CLOCK_ASKED = re.compile(r"\bwhat time\b", re.IGNORECASE)
CLOCK_TIME = re.compile(_CLOCK + r"|\b\d{1,2}(?::\d{2})?\s*o'clock\b|\bat \d{1,2}\b(?![.,]?\d)|\b(?:noon|midnight)\b",
                        re.IGNORECASE)
# A question that asks for an amount, and what says one: a new amount says a number (not a label's:
# "Q3", "v2"), or that the thing ended ("I gave up coffee").
AMOUNT_ASKED = re.compile(r"\bhow (many|much|old|far|long|tall|heavy|big|large)\b", re.IGNORECASE)
AMOUNT = re.compile(r"(?<![A-Za-z])\d|\b(" + "|".join(NUMBERS) + r"|thirty|forty|fifty|hundred|thousand|single|double|"
                    r"twice|once|half|dozen|couple|none)\b", re.IGNORECASE)
# A statement denied, or a habit or plan ended ("I quit smoking", "the wedding got called off").
NEGATED = re.compile(r"\b(never|not|no longer|no more|haven't|hasn't|hadn't|didn't|don't|doesn't|isn't|wasn't|"
                     r"quit|stopped|gave up|called off|cancell?ed)\b",
                     re.IGNORECASE)
WORD = re.compile(r"[a-z][a-z0-9']+")
# A name inside a sentence (a capital not at its start): "Postgres", "Microsoft Teams", "King's College";
# "I'm" and "I've" are no names.
NAME = re.compile(r"(?<!^)(?<![.!?:]\s)(?<![.!?:]\s\s)\b(?!I')[A-Z][A-Za-z0-9']+(?:\s(?!I')[A-Z][A-Za-z0-9']+)*",
                  re.MULTILINE)
# the words (one hyphenated, "dining-out", is one) and "I", in order
SAID = re.compile(r"[a-z][a-z0-9']*(?:-[a-z0-9']+)+|[a-z][a-z0-9']+|\bi\b")
POSSESSOR = "'s"
OWNERS = {"my", "our", "your"}
SPEAKERS = {"i", "we"}
# A phrase that names a thing only to set another against it ("slow compared to my 5k", "separate from
# the training job", "worse than calculus"): to the end of its clause. Not "instead of" or "rather
# than", which name what a new version replaced.
CONTRAST = re.compile(r"\b(?<!rather )(than|unlike|compared (to|with)|separate from|besides|apart from|next to|"
                      r"on top of|as opposed to|versus|vs\.?|in addition to)\b(?:[^,.;:!?]|(?<=\d)[,.:](?=\d))*",
                      re.IGNORECASE)  # "$1,200" or "1.5" ends no clause
# Words that mark one version of a thing, not another thing: "the new deadline", "my updated budget",
# "sorry, wrong number, it's 555-0199" (the one said before, set right).
VERSION_WORDS = {w.rstrip("s") for w in ("new", "current", "updated", "latest", "revised", "final", "old", "previous",
                                         "original", "former", "next", "increased", "reduced", "extended",
                                         "adjusted", "higher", "lower", "wrong", "correct", "corrected", "actual",
                                         "update")}
# Of them, those that mark the newer version ("the new April 25 deadline", "my increased January
# book budget"), said at most MARKED_WITHIN words before the thing.
NEWER_WORDS = {"new", "updated", "latest", "revised", "increased", "reduced", "extended", "adjusted"}
# Of a question's words, those that ask for a version and name no thing ("my current dose", "my most
# recent A1c"): two versions need not say them (`_differs`). Not "old": "How old is Pepper?".
MARKING_WORDS = {"current", "recent", "latest", "new", "updated"}
MARKED_WITHIN = 4
STEM = 5  # letters that key a word for `_about`: "smoking" and "smoker", "budget" and "budgeting"


@dataclass(frozen=True)
class Said:
    """What the comparison reads of one ranked memory."""
    uid: str
    speaker: str | None
    at: float
    text: str
    vector: np.ndarray  # unit length
    # of a turn of several sentences, the embedding of the one that tells a change (`told_apart`):
    # a change told in one line of a long message ("We moved the app to Fly.io, fly.toml below:
    # ...") is far from the fact it changes in the whole turn's embedding, not in its own
    change_vector: np.ndarray | None = None


def question_kind(question: str) -> str:
    """"yes-or-no", "value", or "other": a question of neither kind has versions only where one
    memory names another's value and says it changed (`renamed`)."""
    if YES_OR_NO.search(question):
        return "yes-or-no"
    return "value" if ASKS_VALUE.search(question) else "other"


def asks_a_fact(question: str, reading: str = "present") -> bool:
    """Whether the question asks how a fact stands now, or (`reading` "past", versions.reading)
    how it stood before it changed: its value, its place, person or frequency, or whether it
    holds ("What dose am I on?", "Where do I live?", "Do I still smoke?", "Which editor did I use
    before Neovim?"), not as a request to the agent ("Can you summarise how my plans evolved?")
    nor for advice ("How should I structure the interviews?"). Read for the present, a question
    in the simple past asks about an event ("Did I smoke in January?"); one that reads the past
    is in that tense anyway."""
    if REQUEST.search(question) or \
            reading == "present" and SIMPLE_PAST.search(question) and not LATEST.search(question):
        return False
    return question_kind(question) != "other" or bool(ASKS_FACT.search(question))


@lru_cache(maxsize=64)  # the best memory's text is read once for each memory below it
def words(text: str) -> frozenset[str]:
    """The content words of a text, a trailing s dropped (deadline, deadlines) and a possessive
    or "is" ("what's", "Maya's", "my parents'")."""
    stop = stop_words()
    said = (without_possessive(w) for w in WORD.findall(text.lower()))
    return frozenset(w.rstrip("s") for w in said if len(w) >= 3 and w not in stop)


@lru_cache(maxsize=64)
def values(text: str) -> frozenset[str]:
    """What a text could answer a value question with: numbers, dates, and names ("we moved off
    MongoDB and everything is in Postgres now")."""
    return frozenset({m.group(0).lower().replace(",", "").strip().rstrip(".:") for m in VALUE.finditer(text)} |
                     {m.group(0).lower() for m in NAME.finditer(prose(text))})


def _bare(word: str) -> str:
    """A word of `_said` as `words` keys it: "dad's" is dad, "parent's" parent."""
    return without_possessive(word).rstrip("s")


def _said(text: str) -> list[str]:
    """The words of a text (its prose) in order, as `words` keys them, but a possessor stays one
    ("dad's", and "parents'" as "parent's"), and "I"; a stop word stays whole ("is" is not "I",
    "this" no "thi" that names a thing)."""
    stop = stop_words()
    said = (w[:-2] + POSSESSOR if w.endswith("s'") else w for w in SAID.findall(text.lower()))
    return [w if w.endswith(POSSESSOR) or w in stop else w.rstrip("s") for w in said]


# A name that opens with a number, which `words` does not read: a race ("5k", "10k"), a plan ("401k").
NUMBERED = re.compile(r"\b\d+[a-z]+\b")


def _named(text: str) -> frozenset[str]:
    """`words` of a text and the names in it that open with a number (NUMBERED)."""
    return words(text) | frozenset(NUMBERED.findall(text.lower()))


def _contrasted(a: str, b: str, question: str) -> bool:
    """Whether one of `a` and `b` (their prose) says a question word only in a phrase that sets
    another thing against it (CONTRAST: "my 10k best is 46:10, slow compared to my 5k"), and the
    other says it outside one: the question asks for the other's thing."""
    said, outside = [_named(x) for x in (a, b)], [_named(CONTRAST.sub(" ", x)) for x in (a, b)]
    only_contrasted = [s - o for s, o in zip(said, outside)]
    return bool(_named(question) & (only_contrasted[0] & outside[1] | only_contrasted[1] & outside[0]))


# A thing told apart by a label after its noun ("unit B", "Plan A", "building 3"): the question's
# label says which one ("What's the rent on unit B?"). Not "I" ("have I"), nor a number of a thing.
LABELLED = re.compile(r"\b([A-Za-z]{3,})\s+((?!I\b)[A-Z]\b|\d{1,3}\b(?!\s*(?:%|[a-z])))")


def _labelled_apart(a: str, b: str, question: str) -> bool:
    """Whether the question names a thing by a label after its noun (LABELLED) that one of `a` and
    `b` gives that noun and the other does not, giving it others only: "Unit A at Oak St turned
    over" is not unit B of "unit A rents for $1,250 and unit B for $1,300"."""
    stop = stop_words()
    for noun, label in LABELLED.findall(question):
        if noun.lower() in stop:
            continue
        named = re.compile(rf"\b{re.escape(noun)}s?\s+([A-Za-z]|\d{{1,3}})\b", re.IGNORECASE)
        labels = [{m.group(1).upper() for m in named.finditer(x)} for x in (a, b)]
        if any(label in one and other and label not in other for one, other in (labels, labels[::-1])):
            return True
    return False


# Where software runs, each one thing of its own: "bumped staging to python 3.12" is not production.
# Not "test", "stage", "dev" or "development": as often a verb ("so we can test the upgrade"), a
# step ("at this stage") or a person or a trade ("I'm a dev", "web development").
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging", "preprod": "staging",
                "pre-prod": "staging", "qa": "qa", "uat": "qa", "sandbox": "sandbox"}
ENVIRONMENT = re.compile(r"\b(" + "|".join(sorted(ENVIRONMENTS, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def _environments(text: str) -> set[str]:
    return {ENVIRONMENTS[m.group(1).lower()] for m in ENVIRONMENT.finditer(text)}


def _environment_apart(a: str, b: str, question: str) -> bool:
    """Whether the question names an environment (ENVIRONMENTS: "What Python version is
    production running?") that one of `a` and `b` names and the other does not, naming another
    instead ("bumped staging to python 3.12")."""
    asked = _environments(question)
    if not asked:
        return False
    named = _environments(a), _environments(b)
    return any(one & asked and not other & asked and other - asked for one, other in (named, named[::-1]))


# The asker's own is said both ways: "my team" of a question is the "our team" of a memory.
ONE_OWNER = {"our": "my", "we": "i"}


def _owned_as_one(said: list[str]) -> list[str]:
    """`_said`'s words with "our" and "we" read as "my" and "I" (ONE_OWNER)."""
    return [ONE_OWNER.get(w, w) for w in said]


def other_thing(a: str, b: str, question: str, asked: frozenset[str]) -> bool:
    """Whether `a` and `b` name two things where the question names one of them: the question's
    "web app" is in one, and the other has "mobile app" (a word the question lacks), even beside
    "web app" ("my major GPA is 3.9, higher than my overall GPA"); its "my flight" or "my blood
    pressure" is in one, and the other has "my return flight" or "dad's blood pressure"; its "I
    make" is in one, and the other has "my wife makes" (its "my team" is "our team" of a memory,
    and "the data platform team" another); its "my sister's birthday" is in one,
    and the other has "my birthday"; or one names the question's thing only to set another
    against it (`_contrasted`); or the question tells its thing apart by a label that one gives
    and the other does not ("unit B" against "Unit A": `_labelled_apart`), or an environment the
    other does not (staging against production: `_environment_apart`). Words that mark a
    version ("new deadline", "updated budget") name no other thing, nor do those of a thing called
    the new one ("the new M3 Air laptop" for "my laptop"), nor does a name said longer
    that holds the question's word ("the AWS Solutions Architect exam" is the AWS exam), nor a
    word of a longer name the other says whole, where it goes on to another thing ("my reading
    challenge goal ... my weekly reading pace" for "my winter reading challenge"; "the bathroom
    renovation quote" still names another quote for "the kitchen renovation quote"), nor a word
    beside the question's thing where one of them gives a number of it ("12 conditional
    probability problems", beside "dependent event problems": `_counted`)."""
    a, b = prose(a), prose(b)  # code says no thing a question names: each text's prose, read once
    if _contrasted(a, b, question) or _labelled_apart(a, b, question) or _environment_apart(a, b, question):
        return True
    stop = stop_words()

    def another(x: str) -> bool:  # a word that names something the question does not
        if "-" in x:  # "dining-out" names another budget; "per-key" of "the per-key rate limit" none
            return any(another(part.rstrip("s")) for part in x.split("-"))
        return len(x) >= 3 and x not in stop and x not in asked and x not in VERSION_WORDS

    asks, said = _owned_as_one(_said(prose(question))), (_owned_as_one(_said(a)), _owned_as_one(_said(b)))
    # the word a pair of the question's words goes on to in a longer name ("challenge" after
    # "winter reading"); a person's name is none ("attorney Stephanie" names her, not an attorney)
    names = {w for name in NAME.findall(question) for w in _said(name)}
    heads = {(x, w): h for x, w, h in zip(asks, asks[1:], asks[2:]) if len(h) >= 3 and h not in stop | names}
    texts = a.lower(), b.lower()  # for the numbers `_said` leaves out
    # the question's pairs of words, and each with a possessor said bare: "our iOS app's rating" asks
    # of "our iOS app", which "Our Android app has a 4.1 star rating" is not
    asked_pairs = set(zip(asks, asks[1:]))
    asked_pairs |= {(x, w.removesuffix(POSSESSOR)) for x, w in asked_pairs if w.endswith(POSSESSOR)}
    # the names each says, by their capitals: a name both say names one thing
    capitals = [{w.lower() for w in CAPITALISED.findall(x)} for x in (a, b)]
    for (one, other), names_said in zip((said, said[::-1]), capitals):
        pairs = set(zip(other, other[1:]))
        triples = set(zip(other, other[1:], other[2:]))
        renewed = {w for i, w in enumerate(other) if NEWER_WORDS.intersection(other[max(0, i - MARKED_WITHIN):i])}
        one_pairs = set(zip(one, one[1:]))
        for before, word in asked_pairs & one_pairs:
            if before not in SPEAKERS and _bare(word) not in asked:
                continue  # a verb after "I" may be a stop word ("I make"); a thing named is not
            for x, w in pairs:
                if w != word or x == before or before in OWNERS and word in renewed and not x.endswith(POSSESSOR):
                    continue  # "the new M3 Air laptop" is my laptop's new version, "Air" no other laptop
                if x in names_said and x in one and (x, word) not in one_pairs and x not in stop:
                    continue  # a name both say, one of them elsewhere, names the same thing: "We deploy
                    # every Friday" and "We stopped Friday deploys", "a gym membership at Equinox" and
                    # "Cancelled my Equinox membership" (not a common word: "a good attorney for estate
                    # planning" and "a new estate attorney"; nor "my": "my sister's birthday", "my birthday")
                if before in SPEAKERS or before in OWNERS:  # whose: unless the other says it too
                    named_other = x.endswith(POSSESSOR) or another(x) and (before, word) not in pairs
                elif before.endswith(POSSESSOR) and (x in OWNERS or x in SPEAKERS):
                    named_other = True  # "my sister's birthday" is not "my birthday"
                else:
                    named_other = _bare(before) in asked and another(x) \
                        and not _said_longer(other, before, x, word) and not _said_after(other, before, word) \
                        and not _goes_on_elsewhere(pairs, triples, x, word, heads.get((before, word))) \
                        and not any(_counted(text, before, word) for text in texts)
                if named_other:
                    return True
    return False


# A number of a thing a question gives ("after completing 15 problems"); a year or a clock time
# gives none (NUMBER_OF's second word is checked against the stop words and CLOCK_WORDS)
NUMBER_OF = re.compile(r"(?<![\d,.$])(\d[\d,.]*%?)\s+([a-z]+)", re.IGNORECASE)
YEAR = re.compile(r"(19|20)\d\d")
CLOCK_WORDS = {"am", "pm"}


def numbers_of(question: str) -> list[tuple[str, str]]:
    """The (number, thing) pairs a question gives: "15 problems" is ("15", "problem")."""
    stop = stop_words()
    out = []
    for number, thing in NUMBER_OF.findall(prose(question).lower()):
        number = number.rstrip(".,")
        if not YEAR.fullmatch(number) and thing not in stop and thing not in CLOCK_WORDS:
            out.append((number, thing.rstrip("s")))
    return out


def pinned_first(ranked: list[tuple[str, float]], said: Mapping[str, Said], question: str,
                 window: int = VERSION_WINDOW) -> list[tuple[str, float]]:
    """`ranked` with the memories among the first `window` that say a number of a thing the
    question gives first, each in its order: "What is my accuracy after completing 15 problems?"
    asks for the state that "15 problems" pins, not an earlier or later one the ranking or the
    versions put above it. Scores stay in order down the list."""
    pins = numbers_of(question)
    if not pins:
        return ranked
    patterns = [re.compile(rf"(?<![\d,.]){re.escape(n)}\s+(?:[a-z]+\s+)?{re.escape(thing)}", re.IGNORECASE)
                for n, thing in pins]
    hit = {uid for uid, _ in ranked[:window] if (this := said.get(uid)) is not None
           and any(p.search(prose(this.text)) for p in patterns)}
    return first_where(ranked[:window], hit.__contains__) + ranked[window:] if hit else ranked


def _goes_on_elsewhere(pairs: set[tuple[str, str]], triples: set[tuple[str, str, str]], x: str, word: str,
                       head: str | None) -> bool:
    """Whether a text of these word `pairs` and `triples` names the question's longer name by its
    end ("<word> <head>": "reading challenge", of "winter reading challenge") while its "<x>
    <word>" goes on to something else ("weekly reading pace"): a use of the word, no rival name."""
    return head is not None and (word, head) in pairs and (x, word, head) not in triples


def _counted(text: str, before: str, word: str) -> bool:
    """Whether `text` (lower case) gives a number of "<before> <word>" ("12 conditional probability
    problems"): what it counts is the question's thing, whatever else it names beside."""
    return re.search(rf"\d[\d,.]*%?\s+(?:[a-z]+\s+)?{re.escape(before)}\w*\s+{re.escape(word)}", text) is not None


def _said_after(said: list[str], before: str, word: str) -> bool:
    """Whether `said` names "<word> for <before>" or "<word> of <before>": "a monthly budget for
    groceries" is the grocery budget, whatever else qualifies it; or "<before> per <word>": "45
    miles per week" is the miles a week, beside "5 days a week"."""
    return any(said[i] == word and said[i + 1] in ("for", "of") and
               any(_same_word(w, before) for w in said[i + 2:i + 5]) for i in range(len(said) - 2)) \
        or any(_same_word(said[i], before) and said[i + 1] in ("per", "each", "every") and said[i + 2] == word
               for i in range(len(said) - 2))


def _same_word(a: str, b: str) -> bool:
    """Whether two words of `_said` are one word in two forms ("grocerie" of "groceries" and
    "grocery"): equal, or all but their last letters shared."""
    shared = len(os.path.commonprefix([a, b]))
    return a == b or shared >= 4 and shared >= min(len(a), len(b)) - 1


def _said_longer(said: list[str], before: str, x: str, word: str) -> bool:
    """Whether `said` names "<before> ... <x> <word>" within a few words: one thing said longer."""
    return any(said[i] == word and said[i - 1] == x and before in said[max(0, i - 5):i - 1]
               for i in range(1, len(said)))


# An amount a value moves to ("goes to $2,150", "going to 1,600", "went to 95k"), not a count of things
# one goes to ("going to 3 weddings"): money, a thousand or more, or a share.
AMOUNT_TO = r"(?:[$£€]\d[\d,.]*k?|\d{1,3}(?:,\d{3})+|\d{3,}|\d[\d.]*(?:k|%))(?![\w,.]*\s+[a-z]+s\b)"
VALUE_TOKENS = re.compile(r"[a-z0-9]+(?:[.:][0-9]+)*")
CLOCK = {" am ", " pm "}  # "AM" by itself names no value
# A change only weighed or intended ("I'm trying to fix it by upgrading to 5.3.1", "thinking about
# switching") or only possible ("she might get promoted"): from the weighing verb or the modal to the
# end of its clause.
WEIGHED = re.compile(r"\b(consider\w*|deciding|wonder\w*|debating|figur\w*|think\w*|thought|try|tries|trying|"
                     # "going to" an amount tells where it moves ("rent's going to 1,600"), not a plan
                     r"weigh\w*|choos\w*|need\w*|want\w*|hop\w*|plan\w*|intend\w*|look\w*|"
                     r"going(?!\s+(?:up\s+|down\s+)?to\s+" + AMOUNT_TO + r"))\s+"
                     r"(to|about|of|whether|on|into)\b(?:[^,;!?.]|\.(?!\s))*"
                     # ... the verb of what is weighed right after it ("considering switching to Babbel")
                     r"|\b(consider\w*|contemplat\w*)\s+\w+ing\b(?:[^,;!?.]|\.(?!\s))*"
                     # ... or said to be only possible: "she might get promoted", "we could move it to May",
                     # "thinking I'd refinance if rates drop"
                     r"|\b(might|(?-i:may)|could|would|should|must|(?:i|we|you|they|he|she)['’]d)\b"
                     r"(?:[^,;!?.]|\.(?!\s))*",
                     re.IGNORECASE)  # "5.3.1" goes on
# A departure said to hold only a short while ("this week's session is on Friday instead", "a
# one-off Saturday session", "pool running for the next 10 days", "the bus just for the day", "taking
# the back roads until it's done"): the fact it departs from stands again after it, so it is no
# version of that fact, unless the question asks about such a while itself. Not a change that
# starts then ("Starting this week, standup is at 10 instead of 9").
PASSING = re.compile(r"\b(one[- ]off|temporar(?:y|ily)|for the day|for (?:the|a) (?:next|coming) "
                     r"(?:few |couple(?: of)? |\d+ |two |three |four |five |six |seven |ten )?(?:days?|weeks?)|"
                     r"(?:this|next) (?:week|weekend)(?:['’]s)? only|"
                     r"until (?:it|they|that)(?:['’]s| is| are|['’]re) (?:done|over|fixed|finished|repaired|back)|"
                     r"(?:just|only) (?:for )?(?:this|today|tonight|tomorrow)"
                     r"(?: (?:week|weekend|once|time))?)\b"
                     r"|(?<!starting )(?<!from )(?<!as of )\bthis (?:week|weekend)(?:['’]s)?\b[^.!?]*\binstead\b",
                     re.IGNORECASE)
PASSING_ASKED = re.compile(r"\b(this|next) (week|weekend)\b|\b(today|tonight|tomorrow)\b", re.IGNORECASE)
# Words that only weigh a change, undecided ("thinking about selling the civic, not decided tho",
# "considering procreate", "we are considering moving Tobi to a boarding school"; not "considering
# I've never done one", which gives a reason): what such a message tells is not how things stand.
# Narrower than WEIGHED, which takes what is wanted, planned or possible out of what a message
# tells ("I need to", "we could"): those often come with a fact.
UNDECIDED = re.compile(r"\b(consider(?:ing|ed)?(?! (?:that|i|i'm|i've|we|we're|we've|it|how|the fact)\b)|"
                       r"contemplat\w*|debating|undecided|not decided|just thinking|"
                       # weighing a doing, not a thought about things: "thinking about maybe getting a
                       # second cat", not "whenever I hear it, I think about the paths I've taken"
                       r"(?:thinking|thought) (?:about|of) (?:\w+ )?\w+ing|"
                       # a change that may come, or not yet: "Claire might move to the London team" (not any
                       # "might": a long message says it of many things),
                       # "thinking I'd refinance if they get to 6%, not yet though", "I said I'd think about it"
                       r"might (?:be )?(?:mov|leav|switch|chang|quit|join|transferr?)\w*|not yet|"
                       r"(?:i'll|i'd|i will|i would|we'll|we'd) think about it)\b",
                       re.IGNORECASE)
# ... and a question asks about what is weighed or wished when it says so ("What values does John
# want to teach his kids through adopting a rescue dog?", for "We're considering adopting one").
WISHED = re.compile(r"\b(want\w*|plan\w*|hop(?:e|es|ing)|wish\w*|consider\w*|think\w*|might|would)\b",
                    re.IGNORECASE)
# "now" at the end of a clause, or before "after", "since", "too" or "instead", tells a present that replaced
# another ("Tom is my manager now", "We're open Mondays now too", "at 14 people now after the
# hiring push"); said first ("now I'm wondering"), after a duration ("for 3 months now") or as
# "right now", "for now", "just now" or "by now" it is discourse ("I'm single right now" tells no
# change). A chat ends a clause with an emoji or a laugh too ("four days now 😅", "we're in York now
# lol"), and with a hedge where the clause ends after it ("pescatarian now I guess."; not "now I
# think we should ...").
EMOJI = "[\u2600-\u27bf\U0001f300-\U0001faff]"
LAUGH = r"(?:lol|lmao|haha\w*|tbh)\b"
HEDGE = r"(?:i guess|i think|i suppose|i believe|honestly|apparently|officially|though|anyway)"
_NOW_AS_TIME = ("right", "for", "just", "by", "until", "till")  # "right now", "for now", ...: a time, no change
NOW_TOLD = re.compile("".join(rf"(?<!{w} )" for w in _NOW_AS_TIME) +
                      r"\bnow\b(?=\s*(?:[.,;:!?)]|$|" + EMOJI + r"|\s" + LAUGH + r"|\s" + HEDGE
                      + r"\s*(?:[.,;:!?)]|$|" + EMOJI + r")"
                      r"|\s(?:and|but|so|which|because|since|after|too|instead)\b))",
                      re.IGNORECASE)
# ... where a duration is one: "for 3 months now", "for a while now", "for the past year now"; not
# "for tickets now" ("We use Linear for tickets now" tells a change).
DURATION = re.compile(r"\bfor\s+(?:\S+\s+){0,3}(?:\d\S*|(?:second|minute|hour|day|night|week|weekend|month|year|"
                      r"decade|season|semester|term|while|age|bit|time|ever|long)s?)\s+now$", re.IGNORECASE)
# "now" inside a clause, after its subject or verb and before what it says, tells a present that
# replaced another as much as one at its end ("I'm now fully vegan", "Standup is now at 10:15", "CI
# now runs on GitHub Actions"); not after a word that makes it discourse or a time ("and now",
# "right now", "from now", "let's now", "I know now"), nor before one ("now that", "now or never",
# "now I", "now what").
_NOT_BEFORE_NOW = _NOW_AS_TIME + ("from", "even", "and", "but", "so", "then", "as", "of", "to", "up", "let's",
                                  "lets", "know", "knew", "see", "understand", "realize", "realise")
NOW_WITHIN = re.compile("".join(rf"(?<!\b{w} )" for w in _NOT_BEFORE_NOW) + r"(?<=[\w'’] )now "
                        r"(?!(?:that|then|or|and|i|we|you|he|she|they|it|what|how|why|when|where|if|here|there|"
                        r"this|is|was)\b)(?=[a-z0-9$£€])", re.IGNORECASE)
# Words that set a present against a past wherever a clause says them ("Nowadays I work from home",
# "I bike to work these days", "from now on we deploy on Tuesdays"), where "now" does only at a
# clause's end; "right now" and "at the moment" say only the present ("I'm single at the moment"),
# and "lately" mostly a mood ("Things have been hectic lately").
PRESENT_TOLD = re.compile(r"\b(nowadays|these days|from now on)\b", re.IGNORECASE)
# ... and so does a value said to hold from a time on ("lisinopril is 20mg as of this week", "day
# shifts from February", "a new 5 year fix, 3.85% starting July", "Giffgaff for me since the
# weekend"), or a measurement taken again ("A1C came back 5.7 this time"): a change told without a
# verb of change.
_FROM_WHEN = (r"(?:(?:this|next|last|the coming) (?:week|weekend|month|year|term|semester|season|quarter|"
              r"spring|summer|autumn|fall|winter|" + _WEEKDAY + r")|"
              # a month named, "May" only with its capital ("starting may be hard" names none)
              + "|".join("(?-i:May)" if m == "may" else m for m in _MONTHS) + r"|"
              + _WEEKDAY + r"|today|tomorrow|"
              r"the (?:\d{1,2}(?:st|nd|rd|th)|first|start|beginning|new year|weekend))")
START_TOLD = re.compile(r"\b(?:(?:as of|from|starting(?: (?:on|in|from))?|effective(?: from)?|beginning)\s+"
                        + _FROM_WHEN + r"|since (?:the weekend|last \w+|" + _FROM_WHEN + r")|this time)\b",
                        re.IGNORECASE)
# A memory that tells a former state itself ("I used to go horseback riding with my dad") answers a
# question about the past: no earlier memory is its older version.
FORMER_TOLD = re.compile(r"\bused to\b", re.IGNORECASE)
# Words that tell a value moved or a state ended ("increased", "cut", "gave up"), beyond the
# replacements of claims.CHANGED ("switched", "moved", "no longer"): weaker, so they tell a change
# only of a memory near enough (`told_anew`), not by naming an old value alone (`renamed`,
# at RENAMED_COSINE). Not "adopted", "hired" or "joined": something new begun leaves the earlier
# fact standing ("I adopted a cat called Mimi in Lyon" after "I live in Paris").
MOVED_ON = re.compile(r"\b(push(?:ed)?(?: \w+){0,2} to|(?:slipped|slid|delayed|brought forward|moved up) (?:to|until|till)|"
                      r"raised|increased|upped|grown|extended|shortened|adjusted|cut|"
                      # a limit moved: "actually I can stretch to $1,200", "bumped it up to 60k"
                      r"(?:stretch|bump)(?:ed|ing)?(?: \w+){0,2} to " + AMOUNT_TO + r"|"
                      r"extension (?:to|until|till|through)|ported(?: \w+){0,3} to|"
                      r"(?:go(?:es)?|going|went|gone) (?:up |down )?to " + AMOUNT_TO + r"|"
                      # a habit ended, told by how long it has been gone: "six months smoke-free", "30 days
                      # sober", "two weeks without a cigarette" (not "without a day off")
                      r"(?:days?|weeks?|months?|years?) (?:\w+-free|sober|without (?:a |an |any )?"
                      r"(?:cigarette|smoke|smoking|drink|drinking|alcohol|booze|caffeine|coffee|sugar|nicotine|"
                      r"vap(?:e|ing)|weed|gambling))|"
                      r"lowered|reduced|dropped|up to|down to|traded|sold|gave up|transferred|relocated|refinanced|"
                      # said while it happens, to a value: "raising my lesson rate to $50" (not "raising 12 hens")
                      r"(?:rais|increas|lower|reduc|upp|cutt)ing(?: \w+){0,3} (?:to|by)|"
                      r"downgraded|decommissioned|retired|rewrote|rewritten|ripped out|got promoted|"
                      # a thing that took another's place ("bought a Silverado to replace it"), a state that ended
                      # ("the tendinitis has cleared up, I'm discharged")
                      r"(?:to replace|replacing) (?:it|them|him|her|my|our|the)|"
                      r"discharged|cleared up|recovered|healed|passed away|died|put to sleep|"
                      # an age reached: "Leo turned 7 yesterday" (not "turned out", "turned down")
                      r"turn(?:ed|s) (?:\d{1,3}|" + "|".join(NUMBERS) + r"|thirty|forty|fifty|sixty|seventy|eighty)|"
                      # done again, another way: "resubmitting to MNRAS", "rebooked a Danube cruise", "renewed
                      # the passport"
                      r"re(?:book|submitt?|locat|schedul|assign|new)(?:ed|ing)|renamed|"
                      r"went (?:fully|hybrid|remote|with|back)|now that|ever since|from \w+(?: \w+)? to|"
                      # a way of living or working taken up: "I've gone vegan", "we went fully remote"
                      r"(?:gone|going|went) (?:fully |full |completely |totally )?(?:vegan|vegetarian|pescatarian|"
                      r"keto|paleo|gluten-free|dairy-free|sober|teetotal|remote|hybrid|freelance|part-time|"
                      r"full-time|solo|independent|cashless|paperless)|"
                      # a change that was planned, told done: "the Postgres 16 migration is done", "toast is live"
                      r"(?:is|are|was) (?:done|finished|complete|completed|live)|went (?:through|live)|"
                      r"(?:finished|completed|wrapped up) (?:the |our |my )?(?:[\w.-]+ ){0,3}"
                      r"(?:upgrade|migration|switch|switchover|move|rewrite|port|cutover)|"
                      r"done (?:migrating|moving|upgrading|switching))\b",
                      re.IGNORECASE)


def _tokens(text: str) -> str:
    """The text's words and numbers, lower case, each between spaces: " moved off mongodb "."""
    return " " + " ".join(VALUE_TOKENS.findall(re.sub(r"(?<=\d),(?=\d)", "", text.lower()))) + " "


def _now_told(said: str) -> bool:
    """Whether a clause of `said` ends in "now" that follows no duration (NOW_TOLD), or says "now"
    between its subject or verb and what it says (NOW_WITHIN)."""
    return any(not DURATION.search(said[max(0, m.start() - 40):m.end()]) for m in NOW_TOLD.finditer(said)) \
        or bool(NOW_WITHIN.search(said))


def change_told(said: Said, moved_on: bool = False) -> str | None:
    """What `said` tells (`told`, less what it only weighs: `WEIGHED`) when that says something
    changed, else None: a verb of change (`claims.CHANGED`: "we switched to Postgres", "I quit
    smoking"), with `moved_on` one of MOVED_ON too ("my doctor increased my lisinopril to 20mg",
    "I gave up fasting"), or a clause that ends in "now" (`NOW_TOLD`: "Tom is my manager now").
    "Left" alone says no change (keys and days are left too), a change asked about or only
    weighed ("thinking about switching") is not told, and the agent's replies tell no change of
    the user's."""
    if _the_agents(said):  # the agent restates and advises; it tells no change
        return None
    text = _told_not_weighed(said.text)
    changed = CHANGED.search(text) or (moved_on and MOVED_ON.search(text)) or _now_told(text)
    return text if changed else None


def _the_agents(said: Said) -> bool:
    """Whether the agent said it (claims.ADVISORS): its words tell no change of the user's."""
    return (said.speaker or "").lower() in ADVISORS


# What the speaker saw, read or heard reported, which tells no change of theirs ("Saw a headline that
# 4000 IU of vitamin D cut fracture risk", "a new study found that", "according to the FDA"): from the
# report to the end of its clause, or to a word that joins the speaker's own to it ("read the news
# and moved my savings").
CLAUSE_ON = r"(?:(?!\b(?:and|but|so|then)\b)[^,;!?.]|\.(?!\s))*"
REPORTED = re.compile(r"\b(?:saw|seen|read|heard|watched)\s+(?:a|an|the|this|that|some|one)\s+(?:[\w-]+\s+){0,2}?"
                      r"(?:headlines?|articles?|stud(?:y|ies)|posts?|pieces?|papers?|reports?|stor(?:y|ies)|tweets?|"
                      r"threads?|videos?|podcasts?|news|reviews?|blogs?)\b" + CLAUSE_ON +
                      r"|\b(?:stud(?:y|ies)|surveys?|reports?|papers?|trials?)\s+"
                      r"(?:found|find|finds|says|say|shows?|showed|suggests?|suggested|claims?|claimed)\b" + CLAUSE_ON +
                      r"|\baccording to\b" + CLAUSE_ON, re.IGNORECASE)


@lru_cache(maxsize=64)  # a later memory is read by `renamed` and by the nearer rule, against each earlier one
def _told_not_weighed(text: str) -> str:
    """What a text tells (`told`), less what it only weighs (`WEIGHED`) or reports (`REPORTED`)."""
    return REPORTED.sub(" ", WEIGHED.sub(" ", told(text)))


# The thing a change leaves behind, named right after the words that leave it ("moved off square",
# "switched from Jira", "closed the Etsy shop", "quit starbucks", "done with the Montpelier market").
LEFT = re.compile(r"\b(?:moved off|moved away from|switched (?:away )?from|away from|dropped|ditched|quit|closed|sold|"
                  r"cancell?ed|done with|no more|instead of|gave up|got rid of|rolled off|replaced|wiped|"
                  r"uninstalled|decided against|backed out of|pulled out of)\s+"
                  r"(?:(?:the|my|our|a|an|that|this|his|her|their)\s+)?([a-z0-9][\w'’-]*)", re.IGNORECASE)


def renamed(earlier: Said, later: Said) -> bool:
    """Whether `later` tells that something changed (`change_told`) and names a value `earlier`
    gave: "We moved off MongoDB and everything is in Postgres now" after "We store all our data
    in MongoDB"; "Priya moved to the Paris office, so Tom is my manager now". Naming the old
    value ties the two to one thing where the question's words may be in neither ("Who's my
    boss?"); the new value need not be one `values` reads ("we ditched jira, everything lives in
    linear"), and a digit alone names nothing (list items are numbered). A word `earlier` says,
    named as the thing left ("we finally moved off square", "closed the Etsy shop": `LEFT`), is
    such a value in any case: `values` reads names by their capitals, and a chat often has none.
    Whether either names another thing is `versions_of_one_thing`'s to ask, once for both readings."""
    left = {_bare(m.group(1).lower()) for m in LEFT.finditer(_told_not_weighed(later.text))}
    before = words(earlier.text)
    if not _the_agents(later) and any(w in before for w in left if not w.endswith("ing")):  # a thing, not a doing
        return True
    said = change_told(later)
    if said is None:
        return False
    named = _tokens(said)
    return any(t in named for t in (_tokens(v) for v in values(earlier.text)) if len(t.strip()) > 1 and t not in CLOCK)


def versions_of_one_thing(earlier: Said, later: Said, kind: str, asked: frozenset[str], question: str = "",
                          state_asked: bool = False, thing: str | None = None,
                          asked_vector: np.ndarray | None = None) -> bool:
    """Whether `later` says anew what `earlier` said, as far as the question asks: it names the
    earlier's value and says it changed (`renamed`), or it differs where the question asks, or
    (`state_asked`: the question asks how a fact stands now, or stood before it changed) it tells a
    change near enough to the earlier (`told_anew`), or the question tells the change itself
    (`_came_after`: "which company did I work for before Brightline?"); and, for a question that
    asks who or where or what something is called, `later` names someone or something anew
    (`_names_anew`); and neither names another thing where the other names the question's
    (`other_thing`)."""
    if earlier.speaker != later.speaker or earlier.at == later.at:
        return False
    if any(PASSING.search(told(x.text)) for x in (earlier, later)) and not PASSING_ASKED.search(question):
        return False
    if _kept(earlier, later) or _of_another(earlier, later, question) or _level_not_goal(earlier, later, question):
        return False
    cosine = float(earlier.vector @ later.vector)
    # a change is as near as the sentence that tells it (`told_apart`), where that is near enough
    # to read it so without more (VERSION_COSINE): less near, a short sentence of change is as near
    # to many facts
    said_so = float(earlier.vector @ later.change_vector) if later.change_vector is not None else cosine
    near = max(cosine, said_so) if said_so >= VERSION_COSINE else cosine
    if not (near >= RENAMED_COSINE and renamed(earlier, later) and not _no_amount(earlier, later, question)
            or _differs(earlier, later, kind, asked, cosine, question)
            or state_asked and told_anew(earlier, later, kind, near, question, thing, asked_vector)
            or _came_after(earlier, later, question, cosine, asked_vector)):
        return False
    if (kind == "other" and ASKS_FACT.search(question) or ASKS_NAME.search(question)) \
            and not _names_anew(earlier, later, question):
        return False
    return not other_thing(earlier.text, later.text, question, asked)  # the dearest check, last, once


def _no_amount(earlier: Said, later: Said, question: str) -> bool:
    """Whether the question asks an amount ("How many dogs do we have?", "How big is our Q3
    budget?") that `earlier` gives and `later` tells none of, nor that it ended: "went with white
    oak in the end" counts no dogs, "Q3 plan update: Jenna owns paid social now" gives no budget
    ("Q3" labels it), where "cancelled the gym, no more fees" ends the amount."""
    said = told(later.text)
    return bool(AMOUNT_ASKED.search(question) and AMOUNT.search(earlier.text)) \
        and not AMOUNT.search(said) and not NEGATED.search(said)


# A goal and how far one has come are two facts: "my goal is 160 by summer" holds after "Down to 174!"
GOAL = re.compile(r"\b(goals?|targets?|aim(?:s|ing)?|shooting for)\b", re.IGNORECASE)


def _level_not_goal(earlier: Said, later: Said, question: str) -> bool:
    """Whether the question asks for a goal that `earlier` states and `later` says nothing of
    (GOAL): a new level ("Emergency fund hit $17k!") is no new goal ("Emergency fund goal is $20k.
    Currently at $12k")."""
    return bool(GOAL.search(question) and GOAL.search(told(earlier.text)) and not GOAL.search(told(later.text)))


# What a question about the past says came after the state it asks for: "which company did I work
# for before Brightline?", "where was I living before my own apartment?"; not a time ("before June
# 2024": versions.stood_at) nor a habit ("What do I eat before my run?": a present auxiliary).
BEFORE_NAMED = re.compile(r"\bbefore\s+(?!(?:that|then|now|this|it|the change)\b)([^?.!,;]+)", re.IGNORECASE)
PRESENT_AUXILIARY = re.compile(r"\b(do|does|am|is|are|can|will)\b", re.IGNORECASE)


def _came_after(earlier: Said, later: Said, question: str, cosine: float, asked: np.ndarray | None = None) -> bool:
    """Whether the question tells the change between `earlier` and `later` itself: it asks what
    held before something it names (BEFORE_NAMED), which `later` says and `earlier` does not
    ("Got an offer from Brightline Bank and accepted it!" after "I work as a data scientist at
    NairaFlow", for "which company did I work for before Brightline?"), and `earlier` is about what
    the question asks: CHANGE_COSINE near `later`, or it says a stem of the question's words
    before what followed, or it is QUESTION_NEAR the question (`asked`, its embedding; as `_about`
    reads the two). The agent tells no change of the user's."""
    named = _before_named(question)
    if named is None or _the_agents(later):
        return False
    if not words(named.group(1)) & words(later.text) - words(earlier.text):
        return False
    return cosine >= CHANGE_COSINE or bool(_stems(earlier.text) & _stems(question[:named.start()])) \
        or asked is not None and float(earlier.vector @ asked) >= QUESTION_NEAR


def _before_named(question: str) -> re.Match | None:
    """What a question about the past names as having come after the state it asks for
    (BEFORE_NAMED), unless it is a time or a value, or the question asks in the present."""
    named = BEFORE_NAMED.search(question)
    if named is None or VALUE.search(named.group(1)) or WHEN.search(named.group(1)) \
            or PRESENT_AUXILIARY.search(question[:named.start()]):
        return None
    return named


def came_after(question: str) -> frozenset[str]:
    """The words of what a question about the past names as having come after the state it asks
    for ("Glasgow" in "Where did I live before Glasgow?"); none when it names nothing so."""
    named = _before_named(question)
    return words(named.group(1)) if named else frozenset()


def ever_named(question: str) -> frozenset[str]:
    """The words of the names a question whether something ever held gives after its subject
    ("Leeds" in "Have I ever lived in Leeds?", "Honda" in "Has Maya driven a Honda before?"): the
    value it asks about. None for any other question."""
    asked = EVER.search(question)
    if asked is None:
        return frozenset()
    tail = question[asked.end():] if asked.group(0).lower() == "ever" else question.split(None, 2)[-1]
    return words(" ".join(_name_words(" " + tail)))  # the space: a name may open the tail, NAME skips a text's start


# A person or a place by name: a capital inside a sentence (NAME), or a title before a name in any
# case ("Dr. Feldman", "dr okafor"); a day or a month names a time (WHEN), not who or where.
TITLED = re.compile(r"\b(?:dr|mr|mrs|ms|prof|st|mt)\.?\s+[a-z][\w'-]+", re.IGNORECASE)
CAPITALISED = re.compile(r"\b[A-Z][\w'-]*")
QUOTED = re.compile(r"(?<!\w)['\"“‘][^'\"”’]{2,80}['\"”’](?!\w)")
# The word "I" itself: narrower than telling.says_i, which any first-person word ("my", "our") satisfies.
THE_WORD_I = re.compile(r"\bi\b", re.IGNORECASE)


@lru_cache(maxsize=64)
def _name_words(text: str) -> frozenset[str]:
    """The words of the names a text's prose says (NAME, TITLED), days and months left out, and
    titles in quotes: "it's 'Salt and Signal' now" names a book, no one and nowhere."""
    said = QUOTED.sub(" ", prose(text))
    named = [m.group(0) for m in TITLED.finditer(said)] + \
        [m.group(0) for m in NAME.finditer(said) if not WHEN.fullmatch(m.group(0))]
    return frozenset(w for n in named for w in n.lower().replace(".", "").split())


def _names_anew(earlier: Said, later: Said, question: str) -> bool:
    """For a question that asks who or where (or what something is called: ASKS_NAME), whether
    `later` could answer it anew: it names someone or somewhere `earlier` does not ("Dr. Alvarez
    retired, so we moved the kids to Dr. Kim"), or leaves what `earlier` names (LEFT: "We gave up
    the WeWork and everyone's remote now"), or, for a question about the asker, says "I"
    ("Alvarez retired early and I got promoted to department head"; "I'm a clinical educator at
    the university hospital now": the asker's own change often names nothing with a capital). A
    later memory that names no one new is news of the same person or place, not a new answer:
    "Dr. Feldman bumped my lisinopril up to 20mg" for "Who's my cardiologist?", "club night is
    thursdays now" for "Where does my running club meet?"."""
    before = _name_words(earlier.text)
    if not _name_words(later.text) <= before:
        return True
    said = told(later.text)
    left = {without_possessive(m.group(1).lower()) for m in LEFT.finditer(said)}
    return bool(left & before) or asks_of_the_asker(question) and bool(THE_WORD_I.search(said))


# Words that say a value stays as it was: "Still flying out of DCA", "I'm sticking with YNAB".
KEPT = re.compile(r"\b(still|sticking (?:with|to)|kept|keeping)\b[^.!?;]{0,40}", re.IGNORECASE)


def _kept(earlier: Said, later: Said) -> bool:
    """Whether `later` says a value of `earlier` stays ("We bought a house in Arlington! Still
    flying out of DCA" after "Home airport is DCA"): whatever else changed, that fact holds."""
    kept = " ".join(_tokens(m.group(0)) for m in KEPT.finditer(told(later.text)))
    return bool(kept) and any(t in kept for t in (_tokens(v) for v in values(earlier.text)) if len(t.strip()) > 1)


def _tentative(text: str) -> bool:
    """Whether a message only weighs a change (UNDECIDED) or departs from a fact for a while (PASSING)."""
    said = told(text)
    return bool(UNDECIDED.search(said) or PASSING.search(said))


def settled_first(ranked: list[tuple[str, float]], said: Mapping[str, Said], question: str, reading: str,
                  window: int = VERSION_WINDOW) -> list[tuple[str, float]]:
    """`ranked` with, where the first memory only weighs a change or departs for a while
    (`_tentative`: "thinking about selling the civic, not decided tho", "this week only standup is
    at 11"), the best ranked earlier memory of the same speaker about the same thing put above it:
    it says how the fact stands, the first one does not. About the same thing: it says a word of
    the question (by the first STEM letters) or is RENAMED_COSINE near the first; a word shared
    with the first alone is often only a common one ("work" of "I can walk to work now"). Not for
    a question that asks about such a while or a weighing or wish itself ("What's on this week?",
    "What am I considering?", `WISHED`), nor for one that asks whether something ever held ("Have
    I ever worked with Michael?", `EVER`: "I've never worked with Michael, but I'm thinking of
    it" answers it), nor for one that asks no fact (`asks_a_fact`). Runs before the versions are
    read (`newest_first`), so that the fact put first gets its later versions."""
    if len(ranked) < 2 or not asks_a_fact(question, reading) or WISHED.search(question) \
            or PASSING_ASKED.search(question) or EVER.search(question):
        return ranked
    first = said.get(ranked[0][0])
    if first is None or not _tentative(first.text):
        return ranked
    asked = _stems(question)
    for j in range(1, min(window, len(ranked))):
        other = said.get(ranked[j][0])
        if other is None or other.speaker != first.speaker or other.at >= first.at or _tentative(other.text):
            continue
        if _stems(other.text) & asked or float(other.vector @ first.vector) >= RENAMED_COSINE:
            out = list(ranked)
            uid, score = out.pop(j)
            return [(uid, max(score, out[0][1]))] + out
    return ranked


def _of_another(earlier: Said, later: Said, question: str) -> bool:
    """Whether `later` tells someone else's fact (`telling.of_someone_else`: "My friend Chris moved
    across town", or `only_of_others`: "Eli quit travel soccer. He wants to do robotics instead")
    where the question asks about the asker and `earlier` is said in the first person ("I drive a
    2015 Accord"), or where the question asks about a person `earlier` names and `later` does not
    ("When does Maya have swim practice?"), unless `later` names no one and says only "he" or
    "she" ("his dose is 8mg now" for "How much Apoquel is Biscuit on?": the one the question
    names). Who is told of is for the question to say: "Carla handed the marketing meeting off to
    Jorge" is the version of "The weekly marketing meeting is run by Carla". So is a question about
    a person of the asker's that `earlier` tells of, where `later` tells of another of theirs only
    ("My in-laws just moved to Tucson" for "Where do my parents live?": `_another_of_theirs`), and
    one about a person the question names where `later` opens with a person of theirs ("Dev's best
    friend Arjun quit soccer" for "Does my son Dev still play soccer?")."""
    if any(opens_with_a_person_of(later.text, n) and not opens_with_a_person_of(earlier.text, n)
           for n in NAME.findall(question)):
        return True
    if not (of_someone_else(later.text) or only_of_others(later.text)) or only_of_others(earlier.text):
        return False
    # one who drops their "I" ("first house! a terrace in Sheffield") against one who says whose it is
    mine = says_i(earlier.text) or of_someone_else(later.text) and of_the_speaker(earlier.text)
    if asks_of_the_asker(question) and mine or _another_of_theirs(earlier, later, question):
        return True
    if only_of_others(later.text) and not _says_a_capital(told_prose(later.text)):
        return False
    before, after = earlier.text.lower(), later.text.lower()
    return any(n.lower() in before and n.lower() not in after for n in NAME.findall(question))


def _another_of_theirs(earlier: Said, later: Said, question: str) -> bool:
    """Whether the question asks about a person of the asker's ("my parents", "my daughter Ines":
    one of PEOPLE) whom `earlier` tells of as theirs, and `later`, telling someone else's fact,
    owns only others whom `earlier` does not ("My niece just transferred to Hawthorne, same school
    as Ines!"; but "our son's family is relocating" after "Our son's family, with our two
    grandkids, lives in Minneapolis" is the grandkids' move too)."""
    asked = {p.rstrip("s") for p in people_named(question)}
    before, owned = people_owned(earlier.text), people_owned(later.text)
    return bool(asked & before) and bool(owned) and not (asked | before) & owned


def _says_a_capital(text: str) -> bool:
    """Whether a text says a capitalised word that is no stop word, a sentence's first too: a
    name may open one ("Eli quit travel soccer"), where NAME reads none."""
    stop = stop_words()
    return any(w.lower() not in stop for w in CAPITALISED.findall(text))


def told_anew(earlier: Said, later: Said, kind: str, cosine: float, question: str = "",
              thing: str | None = None, asked: np.ndarray | None = None) -> bool:
    """Whether `later`, `cosine` near `earlier`, tells a change (`change_told`, MOVED_ON's words
    too: "I quit smoking two months ago" after "I smoke about half a pack a day") near enough to
    be its version: VERSION_COSINE near; or CHANGE_COSINE near when the change is the speaker's
    own, not told only of someone close to them ("My brother just moved to Denver" after "My
    sister lives in Portland": telling.of_someone_else), and, for a value question, a value it
    names is new ("We have 3 raised garden beds" after "We have 3 chickens" names none) and, for
    one that asks when, it says when ("The pottery studio raised the fee to $240" after "My
    pottery class is Wednesday evenings at 6:30" does not), a time of day for "what time" ("spin
    is tues/thurs now" after "I do spin class Mon/Wed at 6:30am"). An update said in other words is
    often no nearer ("IT finally replaced my work laptop with a ThinkPad" after "I use a MacBook
    Air M1 for work"). A memory that sets its present against a past where it says a question word
    tells a change too (`_present_told`: "Nowadays I work from home"), and so does one that calls
    itself the new one of the asked `thing` (`_called_new`), but never one told of someone else
    ("My wife set up a new email")."""
    if cosine < CHANGE_COSINE:
        return False
    only_called_new = change_told(later, moved_on=True) is None and not _present_told(later, question)
    if only_called_new and not _called_new(later, question, thing):
        return False
    if (only_called_new or cosine < VERSION_COSINE) and of_someone_else(later.text):
        return False
    if _no_amount(earlier, later, question):
        return False
    if _no_time_of_day(earlier, told(later.text), question):
        return False  # "What time is my spin class?": "spin is tues/thurs now" says no time of day
    if cosine >= VERSION_COSINE:
        return True
    if asked is not None and not (_about(later, earlier, question, asked) and _about(earlier, later, question, asked)):
        return False
    if thing and COUNTED.search(question) and thing[:STEM] not in _stems(later.text):
        return False  # "How many hens do we have?": a new count counts hens, not "the egg price to $7"
    if kind != "value":
        return True
    if WHEN_ASKED.search(question) and WHEN.search(earlier.text) and not WHEN.search(later.text):
        return False
    named = values(later.text)
    return not named or not named <= values(earlier.text)


def _no_time_of_day(earlier: Said, later: str, question: str) -> bool:
    """Whether the question asks a time of day (CLOCK_ASKED) that `earlier` says and `later` (a
    text) does not."""
    return bool(CLOCK_ASKED.search(question) and CLOCK_TIME.search(earlier.text) and not CLOCK_TIME.search(later))


def _stems(text: str) -> set[str]:
    return {w[:STEM] for w in words(text)}


def _about(one: Said, other: Said, question: str, asked: np.ndarray) -> bool:
    """Whether `one`, of two memories less than VERSION_COSINE near, is about what the other or
    the question is: it says a word of either (by their first STEM letters: "smoking" is "smoker"),
    or it (or its sentence that tells a change, `told_apart`) is QUESTION_NEAR the question (`asked`,
    its embedding: "Ever since the Aldi opened I do all my shopping there" for "Where do I buy
    groceries?")."""
    shared = _stems(one.text) & (_stems(other.text) | _stems(question))
    nearest = max(float(v @ asked) for v in (one.vector, one.change_vector) if v is not None)
    return bool(shared) or nearest >= QUESTION_NEAR


def _present_told(later: Said, question: str) -> bool:
    """Whether `later` sets a present against a past (PRESENT_TOLD: "Nowadays I work from home";
    START_TOLD: "day shifts from February") where it says a word of the question ("Where do I
    work from?"): the words say a change happened, not of what, and "These days I'm reading a lot
    about Berlin" is no answer to "Where do I live?", nor "it's £1,010 a month from December" to
    it. The agent tells no change of the user's."""
    said = _told_not_weighed(later.text)
    return not _the_agents(later) and bool(PRESENT_TOLD.search(said) or START_TOLD.search(said)) \
        and bool(words(question) & words(later.text))


def _called_new(later: Said, question: str, thing: str | None) -> bool:
    """Whether `later` calls itself the new one of the asked `thing` (`marks_newer`) where the
    question asks about the asker's own: "I got a new number: 555-0199" for "What's my phone
    number?", a change told without a verb of change. Of someone else's things "a new show" is
    as often one more as a replacement; and the agent tells no change of the user's."""
    return thing is not None and not _the_agents(later) and asks_of_the_asker(question) \
        and marks_newer(later.text, frozenset({thing}))


def _differs(earlier: Said, later: Said, kind: str, asked: frozenset[str], cosine: float, question: str) -> bool:
    """Whether two near memories that both hold the question's words differ where it asks: a new
    value for a value question, not one the later only reports ("Saw a headline that 4000 IU of
    vitamin D cut fracture risk": `REPORTED`), a time of day for "what time" where the earlier
    says one ("Got a window seat on the Boston flight, 14A" says no new landing time; said in a
    request too, "can you remind me that it's rescheduled to 4:30 PM?"), a negation on one side
    only for a yes-or-no question; and the later is not told of someone else where the earlier is
    the speaker's own ("My wife got a new phone, a Pixel 8" after "My phone is an iPhone 12")."""
    if cosine < VERSION_COSINE or kind == "other" or _no_time_of_day(earlier, later.text, question):
        return False
    if kind == "value":
        before, after = values(earlier.text), values(REPORTED.sub(" ", later.text))
        if not before or not after or not after - before:
            return False
    elif bool(NEGATED.search(earlier.text)) == bool(NEGATED.search(later.text)):
        return False
    asked = asked - MARKING_WORDS  # "my current dose", "my most recent A1c": the thing, not the version
    need = max(1, min(VERSION_QUESTION_WORDS, len(asked)))  # "What's my GPA?" has one to hold
    if len(asked & words(earlier.text) & words(later.text)) < need:
        return False
    return of_someone_else(later.text) <= of_someone_else(earlier.text)


def marks_newer(text: str, asked: frozenset[str]) -> bool:
    """Whether a text marks the asked thing as its newer version: one of NEWER_WORDS, then one
    of the `asked` words (the thing, or the question's words) within MARKED_WITHIN words ("the
    new April 25 deadline", "my increased January book budget", "the adjusted holiday gift
    budget"; not "a new role" for the deadline of an application for a role)."""
    said = [without_possessive(w).rstrip("s") for w in WORD.findall(prose(text).lower())]
    return any(w in NEWER_WORDS and asked.intersection(said[i + 1:i + 1 + MARKED_WITHIN]) for i, w in enumerate(said))


def restated(store: Store, user: str, uids: Sequence[str]) -> dict[str, Said]:
    out = {}
    for row in store.run("recall_restatements", user_id=user, uids=list(uids)) if uids else []:
        vector = unit(row["embedding"])
        if vector is not None and row["at"] is not None:
            out[row["uid"]] = Said(row["uid"], row["speaker"], float(row["at"]), plain_typing(row["text"] or ""),
                                   vector)
    return out


def told_apart(store: Store, user: str, said: Mapping[str, Said], asked: np.ndarray | None) -> dict[str, Said]:
    """`said` with each turn of several sentences that tells a change (`change_told`) given the
    embedding of its first sentence that tells one and is about the question (`Said.change_vector`):
    QUESTION_NEAR the question (`asked`, its embedding; without it, none is read). Read from the
    turns' `(:Sentence)` nodes in one query, for those turns only. A short sentence of change is
    near many facts ("Rates dropped a bit." near "Emergency fund hit $17k!"), and a word of the
    question says too little ("the car stays home for the school run" for "how many cars do we
    have?"): only one near what is asked stands for its turn."""
    if asked is None:
        return dict(said)
    out = dict(said)
    several = [uid for uid, x in said.items() if len(SENTENCES.findall(x.text)) > 1]  # a line break ends one too
    wanted = [uid for uid in several if change_told(said[uid], moved_on=True) is not None]
    for row in store.run("abstract_sentences", user_id=user, uids=wanted, vectors=True) if wanted else []:
        this = said[row["uid"]]
        for _, text, vector in sorted(row["sentences"] or [], key=lambda s: s[0]):
            text = text.removeprefix(f"{this.speaker}: ")  # a sentence reads "speaker: ..."
            if vector is None or change_told(replace(this, text=text), moved_on=True) is None:
                continue
            v = unit(vector)
            if v is None:  # a vector of no length is near nothing
                continue
            if float(v @ asked) >= QUESTION_NEAR:
                out[row["uid"]] = replace(this, change_vector=v)
                break
    return out


def later_wanted(reading: str, as_of: float | None, at: float | None) -> bool:
    """Whether a memory said at `at` has a later version read above it: for the present, and for
    a time the question asks at (`as_of`: versions.stood_at) when it was said by then; else (the
    past, or said after that time) an earlier version goes above it."""
    return reading != "past" and (as_of is None or at is None or at <= as_of)


def versions_asked(question: str, ranked: Sequence[object]) -> str | None:
    """The question's kind (`question_kind`) when `newest_first` has versions to tell apart for
    it among `ranked`, else None: not for a request to the agent ("Can you list ...?", REQUEST)
    nor a question about what was said across the conversation ("the order in which I brought
    up", analysis.about_the_conversation), which ask for every statement, not the current one."""
    if len(ranked) < 2 or REQUEST.search(question) or about_the_conversation(question):
        return None
    return question_kind(question)


def newest_first(store: Store, user: str, ranked: list[tuple[str, float]], question: str, reading: str,
                 linked: frozenset[str] = frozenset(), head: int = VERSION_HEAD,
                 window: int = VERSION_WINDOW, said: Mapping[str, Said] | None = None,
                 first_found: bool = False, thing: str | None = None,
                 as_of: float | None = None, asked_vector: np.ndarray | None = None,
                 claimed: Mapping[str, set[str]] | None = None) -> list[tuple[str, float]]:
    """`ranked` with the version the reading wants (the later for "present", the earlier for
    "past") right above each of each speaker's first `head` memories that has one among the
    first `window`: of several later versions, the first that marks itself the newer version of
    the asked `thing` (`marks_newer`: the question's words when no thing is given), else the best
    ranked; one so marked may also be up to MARKED_BELOW below the window. `first_found`: each
    speaker's first `head` memories that have a version get it, wherever they rank in the
    window, not only those of the first `head` that have one. A memory with versions linked at
    write time (`linked`) is left to those links, but it can still be the version of another
    memory they missed: a link joins an update to the one earlier statement its slot lexicon
    read, and the same value said once more in other words has none ("I capped my gifts budget
    at $400", "I might go over my budget of $400 total for gifts", then "I've adjusted our
    holiday gift budget to $450", linked to the first only). For the past, a memory that tells a
    former state itself (FORMER_TOLD: "I used to go horseback riding with my dad") answers as it
    is: no earlier memory goes above it. With a time the question asks at (`as_of`:
    versions.stood_at), a memory said after it is read as for the past, and one said by then as for
    the present of that time: only a version said by then goes above it. `said`: what `restated`
    gives for the first `window` + MARKED_BELOW, when the caller read it already; `asked_vector`:
    the question's embedding, by which a change told less near is read as about it (`_about`);
    `claimed`: the slots the claims of linked memories say (supersession.Validity), by which two of
    them said of different things are no versions ("We moved to Berlin" and "I quit Acme")."""
    kind = versions_asked(question, ranked)
    if kind is None:
        return ranked
    asked = words(question)
    marked = frozenset({thing}) if thing else asked  # what a later memory must mark as newer
    # a fact asked at a named time is asked in the simple past ("What car did I drive in February 2024?"),
    # but one that asks when, naming a time, asks when something happened in it ("When did I go camping in June?")
    state_asked = asks_a_fact(question, reading if as_of is None or WHEN_ASKED.search(question) else "past")
    if said is None:
        said = restated(store, user, [uid for uid, _ in ranked[:window + MARKED_BELOW]])
    said = told_apart(store, user, said, asked_vector)
    out = list(ranked)
    read: dict[str | None, int] = {}  # speaker -> how many of their memories were read
    i = 0
    while i < min(window, len(out)):
        this = said.get(out[i][0])
        wanted_later = this is not None and later_wanted(reading, as_of, this.at)
        if this is None or out[i][0] in linked or read.get(this.speaker, 0) >= head or \
                not wanted_later and FORMER_TOLD.search(this.text):
            i += 1
            continue
        if not first_found:
            read[this.speaker] = read.get(this.speaker, 0) + 1
        wanted = None
        for j in range(i + 1, min(window + MARKED_BELOW, len(out))):
            other = said.get(out[j][0])
            if other is None or j >= window and not marks_newer(other.text, marked):
                continue
            earlier, later = (this, other) if wanted_later else (other, this)
            if (other.at > this.at) != wanted_later or wanted_later and as_of is not None and other.at > as_of or \
                    wanted is not None and not marks_newer(other.text, marked):
                continue  # once a version is found, only one marked newer can go before it
            if claimed and claimed.get(this.uid) and claimed.get(other.uid) and \
                    not claimed[this.uid] & claimed[other.uid]:
                continue  # the claims read them as said of different things
            if versions_of_one_thing(earlier, later, kind, asked, question, state_asked, thing, asked_vector):
                first, wanted = wanted is None, j
                if not wanted_later or not first or marks_newer(other.text, marked):
                    break
        if wanted is None:
            i += 1
            continue
        if first_found:
            read[this.speaker] = read.get(this.speaker, 0) + 1
        uid, score = out.pop(wanted)
        out.insert(i, (uid, max(score, out[i][1])))  # scores stay in order down the list
        i += 2  # the moved memory is not read again: one version each, no chain pulled through the top
    return out
