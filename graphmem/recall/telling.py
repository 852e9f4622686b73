"""What a message tells, and of whom, read off its words (zero-LLM): its statements without what
it asks (`told`: "We switched to Hetzner, how do I point the DNS there?" tells the switch), and
whether they speak of the speaker or only of someone close to them, by the first person they say
("My sister just moved to Seattle" is the sister's fact; "My doctor increased my lisinopril" is
the speaker's). Versions (recency.py) and whose fact a memory tells (whose.py) read memories
through it."""

from __future__ import annotations

import re
from functools import lru_cache

from ..ingest.claims import ASKING
from ..ingest.extract import KIN, NOT_PEOPLE
from ..ingest.markup import prose, stop_words

# "1.29" ends no sentence; a line break ends one: a chat message runs on into code or a list
# without a full stop ("We switched logging to Loki, config below:\n```yaml ...```\nWhy?")
SENTENCES = re.compile(r"\S.*?(?:[.!?]+(?=\s)|(?=\n)|\Z)", re.DOTALL)
CLAUSES = re.compile(r"\s*(?:[,;:]|\s[-–—]+)\s*")
# Words that join a clause to the one before without changing what it does: "..., so how can I
# make the most of it?" asks as "how can I" does.
JOINING = {"so", "and", "but", "or", "then", "also"}


@lru_cache(maxsize=64)
def told(text: str) -> str:
    """A text without what it asks: a sentence that ends in "?" keeps only the clauses before
    the first one that asks (`_asks`: "We switched to Hetzner, how do I point the DNS there?"
    tells the switch; "Should we move to Hetzner?" tells nothing), or, when none does, all but
    its last ("I finished the trilogy in 12 days, got any ideas for next?" tells what was
    finished; "You're moving?" tells nothing)."""
    out = []
    for sentence in SENTENCES.findall(text):
        if sentence.rstrip().endswith("?"):
            clauses = CLAUSES.split(sentence.strip())
            first = next((i for i, c in enumerate(clauses) if _asks(c)), len(clauses) - 1)
            sentence = ", ".join(clauses[:first])
        out.append(sentence.strip())
    return " ".join(out)


# A clause that asks without opening with a question word: "but I'm wondering how to ...", "I'm not
# sure what to do next".
WONDERS = re.compile(r"^(?:i\s*(?:['’]?m|am|was)\s+(?:wondering|not\s+sure|curious|unsure)|i\s+wonder)\b",
                     re.IGNORECASE)
# A question word's contraction asks as the word does: "what's", "how'd", "where're".
CONTRACTED = re.compile(r"['’](?:s|d|re|ll|ve)$")


def _asks(clause: str) -> bool:
    """Whether a clause asks: after any words that only join it to the one before (JOINING), it
    opens with a question word (ASKING), or says it wonders (WONDERS)."""
    said = clause.lower().split()
    at = next((i for i, w in enumerate(said) if w not in JOINING), len(said))
    if at == len(said):
        return False
    return CONTRACTED.sub("", said[at]) in ASKING or WONDERS.match(" ".join(said[at:])) is not None


# The people a speaker speaks of as theirs: kin, and the people of their days.
PEOPLE = (KIN - NOT_PEOPLE) | {"neighbor", "neighbors", "neighbour", "neighbours", "roommate", "roommates",
                               "flatmate", "manager", "fiance", "fiancé", "fiancee", "fiancée", "spouse",
                               "grandparents", "stepdad", "stepmom", "stepson", "stepdaughter", "classmate",
                               "classmates", "coworkers", "colleagues", "teammate", "teammates", "sons",
                               "daughters", "sisters", "brothers", "in-laws", "inlaws", "mum", "girlfriends",
                               "boyfriends", "bestie", "bff", "toddler", "toddlers", "baby", "babies", "grandkids",
                               "grandchildren", "buddy", "buddies", "pal", "pals", "housemate", "housemates",
                               "workmate", "workmates", "co-worker", "co-workers", "ex"} \
    | {f"{kin}-in-law" for kin in ("mother", "father", "sister", "brother", "son", "daughter", "parents")}
# The speaker's own words for themselves, in any case but "US" (the country), and not in an address
# ("ann@proton.me", "about.me/ann").
FIRST_PERSON = re.compile(r"(?<![.@/])\b(?-i:(?!US\b))(i|me|my|mine|myself|we|us|our|ours|ourselves)\b(?![.@/]\w)",
                          re.IGNORECASE)
OWNING = {"my", "our"}
OWNING_ANY = OWNING | {"mine", "ours"}  # "a coworker of mine" owns as "my coworker" does
WORD = re.compile(r"[a-z][a-z'’-]*")
# How many words may stand between "my" and the person: "my older sister", "my best friend's".
OWNED_WITHIN = 3
POSSESSIVE = re.compile(r"['’]s?$")


def without_possessive(word: str) -> str:
    """A word without its possessive: "sister's" and "parents'" are sister and parents."""
    return POSSESSIVE.sub("", word)


def _words_after(text: str, at: int, many: int) -> list[str]:
    """The first `many` words (WORD) of `text` from `at`, lower-cased."""
    return WORD.findall(text[at:at + 60].lower())[:many]


def _owns_a_person(text: str, at: int) -> bool:
    """Whether the "my" or "our" that ends at `at` owns a person: one of PEOPLE (or their
    possessive) within OWNED_WITHIN words."""
    return _person_owned(text, at) is not None


def _person_owned(text: str, at: int, whose: bool = False) -> str | None:
    """The person the "my" or "our" that ends at `at` owns (`_owns_a_person`), as PEOPLE spells it;
    `whose`: the last of a chain of possessives ("my brother's girlfriend" is the girlfriend)."""
    found = None
    for word in _words_after(text, at, OWNED_WITHIN):
        bare = without_possessive(word)
        if bare in PEOPLE:
            found = bare
            if not (whose and bare != word):
                break
    return found


def people_owned(text: str) -> frozenset[str]:
    """The people whose facts the first person of what a message tells speaks of ("My niece just
    transferred to Hawthorne": niece; "My brother's girlfriend just moved": girlfriend), each
    without a plural's s (parents and parent are one)."""
    said = told_prose(text)
    owned = (_person_owned(said, m.end(), whose=True) for m in FIRST_PERSON.finditer(said)
             if m.group(1).lower() in OWNING and not _acted_for(said, m.start()))
    return frozenset(p.rstrip("s") for p in owned if p)


def opens_with_a_person_of(text: str, name: str) -> bool:
    """Whether what a message tells opens with a person of `name`'s ("Dev's best friend Arjun quit
    soccer", "Maya's husband took a job at Meta"): the fact is that person's, not `name`'s."""
    said = told_prose(text)
    opening = re.match(rf"\W*{re.escape(name)}['’]s\b", said, re.IGNORECASE)
    if opening is None:
        return False
    # the person right after, or after one word that is no function word: "Dev's best friend",
    # not "Maya's with her husband" nor "Maya's a friend of mine" (her "'s" is an "is")
    after = [without_possessive(w) for w in _words_after(said, opening.end(), 2)]
    return bool(after) and (after[0] in PEOPLE or len(after) == 2 and after[1] in PEOPLE
                            and after[0] not in stop_words())


def people_named(text: str) -> frozenset[str]:
    """The PEOPLE a text names, owned or not, each as PEOPLE spells it ("my sister's car" and "the
    in-laws" name sister and in-laws)."""
    return frozenset(bare for word in WORD.findall(text.lower()) if (bare := without_possessive(word)) in PEOPLE)


# A person owned after its name: "a coworker of mine", "friends of ours".
OWNED_BEFORE = re.compile(r"([a-z][a-z'’-]*)\s+of\s+$", re.IGNORECASE)


# A person owned after these is whom the speaker acts with or for, not whose fact it tells.
ACTED_FOR = re.compile(r"\b(with|to|for)\s+$", re.IGNORECASE)


def _acted_for(text: str, at: int) -> bool:
    """Whether the first-person word that starts at `at` follows "with", "to" or "for" (ACTED_FOR)."""
    return ACTED_FOR.search(text[max(0, at - 12):at]) is not None


def _first_person(text: str) -> tuple[int, int]:
    """How many first-person words the text says, and how many of them own a person ("my
    sister", "a coworker of mine"); one that owns a person after "with", "to" or "for" ("rooming
    with my teammate abby", "sold the Civic to my nephew") is not counted: it tells with or for
    whom the speaker (or whoever else the text speaks of) does something, not whose fact it is."""
    said = owning = 0
    for m in FIRST_PERSON.finditer(text):
        word = m.group(1).lower()
        owns = word in OWNING and _owns_a_person(text, m.end())
        if owns and _acted_for(text, m.start()):
            continue
        said += 1
        before = OWNED_BEFORE.search(text[max(0, m.start() - 30):m.start()]) if word in ("mine", "ours") else None
        owning += owns or bool(before and before.group(1).lower() in PEOPLE)
    return said, owning


@lru_cache(maxsize=64)  # each of the first memories is read by several rules, as the one above and as one below
def told_prose(text: str) -> str:
    """What a message tells: its prose, its questions left out."""
    return told(prose(text))


@lru_cache(maxsize=64)
def _told_first_person(text: str) -> tuple[int, int]:
    """`_first_person` of what a message tells."""
    return _first_person(told_prose(text))


def of_someone_else(text: str) -> bool:
    """Whether what a message tells speaks of someone else's fact: its first person only ever
    owns a person ("My husband is a senior data engineer", "my coworker's flight got
    cancelled")."""
    said, owning = _told_first_person(text)
    return said > 0 and owning == said


# Who a message speaks of when its speaker is not in it: "Eli quit travel soccer. He wants to do
# robotics instead", "tyler's switching his major".
THIRD_PERSON = re.compile(r"\b(he|she|him|his|her|hers|himself|herself)\b", re.IGNORECASE)


def only_of_others(text: str) -> bool:
    """Whether what a message tells speaks only of someone else, with no first person at all: it
    says "he" or "she" (a chat drops the speaker's "I" as often as not: "Retitled the novel" is the
    speaker's)."""
    return _told_first_person(text)[0] == 0 and bool(THIRD_PERSON.search(told_prose(text)))


def says_i(text: str) -> bool:
    """Whether what a message tells says its speaker's first person at all ("I", "my", "our"),
    a "my" of someone the speaker acts with or for too ("living in hinton james, rooming with my
    teammate abby": `_first_person` does not count it, as it makes the fact no one else's)."""
    return FIRST_PERSON.search(told_prose(text)) is not None


def of_the_speaker(text: str) -> bool:
    """Whether what a message tells speaks of its speaker: a first-person word that owns no
    person ("I'm a senior data analyst", "My doctor increased my lisinopril"), or none at all
    and no one else's "he" or "she" either ("Got moved to day shifts starting next week": a chat
    drops its "I")."""
    said, owning = _told_first_person(text)
    return said > owning or said == 0 and not THIRD_PERSON.search(told_prose(text))


# The asker's people as one: "Tell me about my family" asks about them, though none is named; not
# "family" of a thing of the asker's ("my family doctor", "our family plan").
KINFOLK = re.compile(r"\b(?:famil(?:y|ies)|relatives|folks|siblings|household|kin|kinfolk)\b(?!\s+(?:doctor|"
                     r"physician|dentist|car|van|plan|room|business|recipes?|history|name)\b)", re.IGNORECASE)


# A sentence that asks the other to do something and tells nothing: "Give me a recipe for a quick
# pasta.", "Explain what an index fund is.", "Please help me write an email."
# Not a verb a chat that drops its "I" opens a fact with as well ("Make 80k now", "Find it hard to
# sleep", "Plan to move in May").
OPENS_A_REQUEST = re.compile(r"^\W*(?:(?:please|pls|so|ok|okay|hey|now|also|and|then)\W+)*"
                             r"(?:give|help|explain|tell|show|write|draft|recommend|suggest|list|summari[sz]e|"
                             r"describe|compare|translate|create|generate|convert|walk|teach|remind|review|"
                             r"rewrite|outline|brainstorm)\b", re.IGNORECASE)


@lru_cache(maxsize=64)  # whose.mine_first reads each of the first memories again for every one it moves
def only_asks(text: str) -> bool:
    """Whether a message only asks: each of its sentences a request (OPENS_A_REQUEST) or a
    question that asks from its first clause ("How do I convert Celsius to Fahrenheit?", "Can you
    recommend a podcast?"), in one clause that owns nothing (`_only_asking`): nothing of its
    speaker, though it says "I" or "me". Not a question that opens with news and runs into its
    asking without a stop ("Work asked if I could do Thursdays too so it's four days now any
    tips for batch cooking?"), though `told` leaves nothing of it either."""
    said = SENTENCES.findall(prose(text))
    return bool(said) and all(_only_asking(s) for s in said)


# What a question or request goes on to tell without a comma: "How can I save on rentals like I
# did with Paddington?", "What's the best way to adjust now that the sessions got extended?"
TELLING_ON = re.compile(r"\b(?:considering|given|since|because|now that|after|(?:like|where|as) (?:i|we))\b",
                        re.IGNORECASE)


def _only_asking(sentence: str) -> bool:
    """Whether a sentence asks and tells nothing: a request (OPENS_A_REQUEST) or a question that
    asks from its start (`_asks`), in one clause, that owns nothing ("help me write a complaint to
    my internet provider" and "How do I feed my sourdough starter?" tell what the speaker has)
    and goes on to tell nothing (TELLING_ON: "What's the best way to plan a marathon, considering
    Amy arrives at 2 PM?")."""
    sentence = sentence.strip()
    if not (OPENS_A_REQUEST.search(sentence) or sentence.endswith("?") and _asks(sentence)):
        return False
    owns = any(m.group(1).lower() in OWNING_ANY for m in FIRST_PERSON.finditer(sentence))
    return len(CLAUSES.split(sentence)) == 1 and not owns and not TELLING_ON.search(sentence)


def in_first_person(question: str) -> bool:
    """Whether a question says the asker's first person ("What do you know about my kids?")."""
    return FIRST_PERSON.search(question) is not None


def asks_of_the_asker(question: str) -> bool:
    """Whether a question asks about the asker ("What's my job?") and names no person of
    theirs ("Where does my sister live?" asks about her), nor any of PEOPLE ("How many children
    do I have?" asks about them), nor them as one (KINFOLK)."""
    said, owning = _first_person(question)
    return said > 0 and owning == 0 and not people_named(question) \
        and not KINFOLK.search(question)
