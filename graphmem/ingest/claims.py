"""What a turn claims about someone, without an LLM: the attribute a sentence gives a value
for, so that a later turn giving another value for the same attribute of the same subject is
known to supersede it ("I live in Paris." ... "I moved to Berlin.").

A `Claim` is (subject, slot, qualifiers, value, positive). The subject is a person the turn
names (the speaker for I/we/my/our, the addressee for you, a name, "Robin's sister"); the slot
is what about them: a lexicon of the attributes people change (where they live, where they
work, what they work as, whom they are with, what they drive, their age, favourites), a habit
or a liking of one thing (`does:coffee`, `likes:jazz`: a yes or a no), a count of one kind of
thing (`count:have:cat`), or the state of a thing the subject owns or works on
(`state:deadline`, qualified by its modifiers: "project", "launch"). Values are normalised
(lower case, lemmas, numbers as digits); two claims conflict when their qualifiers are
compatible (one holds the other) and their values or polarities differ (`supersedes`).
Unrelated facts share no slot, so they never retire each other: liking pizza and liking sushi
are two slots; flying to Rome and flying to Oslo conflict only when the newer says the plan
changed (`Claim.needs_cue`). A question claims nothing, but what a message tells before its
question does ("I moved to Berlin last month, can you suggest ...?"); what a verb only weighs
("deciding whether to switch") does not."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable, Protocol, Sequence

from ..store import Store
from ..supersession import VERSION, Claim, rekey, stem
from .markup import is_placeholder
from .messages import USER_ROLE
from .resolve import same_word

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# Attributes that hold one value at a time, by the verb (and preposition) that states them of a
# person. A verb's object must be of the kinds listed (spaCy entity labels or POS) when a kind
# is given, so "I moved to a new desk" is not a new home.
PLACE = ("GPE", "LOC", "FAC", "PROPN")
ORG = ("ORG", "PROPN", "NOUN", "GPE", "FAC")
PERSON = ("PERSON", "PROPN")
VERB_SLOTS: dict[tuple[str, str], tuple[str, tuple[str, ...]]] = {
    ("live", "in"): ("residence", PLACE), ("live", "at"): ("residence", PLACE),
    ("live", "near"): ("residence", PLACE), ("reside", "in"): ("residence", PLACE),
    ("settle", "in"): ("residence", PLACE), ("relocate", "to"): ("residence", PLACE),
    ("move", "to"): ("residence", PLACE), ("base", "in"): ("residence", PLACE),
    ("work", "at"): ("employer", ORG), ("work", "for"): ("employer", ORG),
    ("join", ""): ("employer", ("ORG", "PROPN")), ("employ", "by"): ("employer", ORG),
    ("hire", "by"): ("employer", ORG), ("hire", "at"): ("employer", ("ORG", "PROPN")),
    ("hire", "as"): ("occupation", ()), ("leave", ""): ("employer", ("ORG",)),
    ("work", "as"): ("occupation", ()),
    ("study", "at"): ("school", ORG), ("attend", ""): ("school", ("ORG",)),
    ("enroll", "at"): ("school", ORG), ("enroll", "in"): ("school", ("ORG",)),
    ("transfer", "to"): ("school", ("ORG", "PROPN")),
    ("date", ""): ("partner", PERSON), ("see", ""): ("partner", PERSON), ("marry", ""): ("partner", PERSON),
    ("marry", "to"): ("partner", PERSON), ("engage", "to"): ("partner", PERSON),
    ("divorce", ""): ("partner", PERSON), ("break", "with"): ("partner", PERSON),
    ("drive", ""): ("car", ()), ("prefer", ""): ("preference", ()),
    ("promote", "to"): ("occupation", ()), ("retire", "from"): ("employer", ORG),
    ("report", "to"): ("state:manager", PERSON), ("start", "as"): ("occupation", ()),
}
# What the value of these attributes must be, when a noun names them ("my home is ...").
VALUE_KINDS = {"residence": PLACE, "employer": ORG, "partner": PERSON, "state:manager": PERSON}
# What a home is, for "a small flat in Leeds".
DWELLINGS = {"flat", "apartment", "house", "home", "place", "condo", "studio", "room", "town", "city", "village",
             "neighborhood", "neighbourhood", "suburb", "area", "part", "side", "cottage", "bungalow", "loft"}
# Verbs that end what their object was (a claim of it with positive=False): of a habit ("quit
# smoking"), or of a thing one had or used ("sold the Civic", "cancelled Xfinity", "ripped out
# Redux"), which retires what named it (graphmem/supersession.py). These last end it only once
# done: "we sell the Pro tier" is business as usual, "I'm cancelling Netflix" a plan.
ENDING_DONE = {"sell", "trade", "replace", "scrap", "uninstall", "cancel", "decommission", "rip"}
ENDING = {"leave", "divorce", "break", "quit", "stop", "cease", "give", "drop", "retire", "ditch",
          "abandon"} | ENDING_DONE
# The particle (or preposition, as the parse may read it) some of them end with only: "gave up",
# "broke up", "traded in the Civic", "traded my Civic for a RAV4", "ripped out".
ENDING_PARTICLES = {"give": ("up",), "break": ("up",), "trade": ("in", "away", "for"), "rip": ("out",)}
# Lemmas spaCy's small model gets wrong, and past forms it takes for a base form where a chat
# drops its "I" ("Sold my Civic": not "Sell my Civic").
VERB_LEMMAS = {"sold": "sell", "uninstalle": "uninstall"}
# Nouns that name one of the attributes above when a turn says "my <noun> is <value>".
NOUN_SLOTS = {"home": "residence", "house": "residence", "apartment": "residence", "flat": "residence",
              "address": "residence", "employer": "employer", "company": "employer", "job": "occupation",
              "occupation": "occupation", "profession": "occupation", "title": "occupation",
              "role": "occupation", "position": "occupation", "boyfriend": "partner", "girlfriend": "partner",
              "partner": "partner", "husband": "partner", "wife": "partner", "spouse": "partner",
              "fiance": "partner", "fiancee": "partner", "age": "age", "car": "car"}
# Habits: a yes or a no about doing one thing, keyed by the thing done ("drink coffee" ->
# coffee) or, for these verbs, by the verb itself ("smoke ten cigarettes" -> smoke).
HABITS = {"smoke", "drink", "eat", "play", "go", "run", "jog", "swim", "practice", "practise", "cook", "bake",
          "paint", "vape", "gamble", "skate", "ski", "surf", "hike", "meditate", "sleep", "study", "learn", "use",
          "take"}  # "take": a medicine, a class, the bus (`_habit` says when)
VERB_KEYED = {"smoke", "vape", "gamble", "jog", "run", "swim", "skate", "ski", "surf", "hike", "meditate"}
# ... and who does them, for "I'm a smoker" (a yes) and "I'm an ex-smoker" (a no, by these words).
DOERS = {"smoker": "smoke", "vaper": "vape", "gambler": "gamble", "jogger": "jog", "runner": "run", "swimmer": "swim",
         "skater": "skate", "skier": "ski", "surfer": "surf", "hiker": "hike"}
NO_LONGER = {"ex", "former", "non", "reformed", "recovering"}
LIKING = {"like": True, "love": True, "enjoy": True, "adore": True, "hate": False, "dislike": False}
STARTING = {"start", "begin", "resume"}
# Verbs that set a thing's state to a new value ("cut the budget to $8,000", "the deadline moved
# to March 15"), and those that state it ("the app runs on Python", "our API uses Flask").
CHANGING = {"switch", "change", "move", "upgrade", "downgrade", "migrate", "update", "set", "cut", "raise",
            "lower", "increase", "decrease", "reduce", "grow", "improve", "drop", "rise", "fall", "go", "reach",
            "shift", "push", "postpone", "bump", "turn", "up", "shrink", "expand", "extend", "shorten", "delay",
            "reschedule", "adjust", "revise", "slash", "trim", "boost", "hike", "cap", "jump", "climb", "dip",
            "double", "triple", "halve", "plummet", "soar", "pull", "rewrite", "rewrote", "rewritten", "port",
            "rebuild"}  # spaCy's small model leaves "rewrote" and "rewritten" as they are
# ... and those that set it at a value ("capped the budget at $1,400"), not to one.
SETTING_AT = {"set", "cap", "fix", "peg"}
STATING = {"be", "use", "run", "take", "cost"}
# ... and those that say what a thing is made in ("our API is written in Node 14", "the frontend is
# built with React", "we rewrote the backend in Go"): its "in" or "with" is its value.
WRITING = {"write", "build", "rewrite", "rewrote", "rewritten", "rebuild", "port"}
# Verbs that put a thing on the calendar: their "for" says when ("the launch is scheduled for March 3").
SCHEDULING = {"schedule", "plan", "set", "slate", "book"}
HAVING = {"have": "have", "own": "have", "keep": "have"}
# Words that say something changed: they raise a claim's confidence, and a plan changes only
# when the newer turn says so. CHANGED is the change itself ("switched", "no longer"), without
# the words of a present state ("now", "these days"), and with more verbs of change than CUES
# has: recall reads it (recency.renamed); widening CUES would change which claims retire others.
_CHANGE = (r"anymore|any more|no longer|instead|switched|changed|change of plans?|moved|upgraded|migrated|promoted|"
           r"quit|stopped|cancell?ed|called off|used to|not .* anymore")
# A speaker setting right what they said ("scratch that, standup is 9:45", "sorry I meant 8", "wait no,
# she lives in Boulder", "my mistake, it's room 4D"), and a message headed as an update ("Update: the
# launch moved to March 10"): for what holds now, a correction is a change like any other. Not
# "actually" alone, nor "typo" alone: "I actually love it", "fix the typo in line 3".
_CORRECTED = (r"correction|correct(?:ing)? (?:that|myself|this)|scratch that|strike that|misspoke|my (?:mistake|bad)|"
              r"(?:sorry|oops|whoops|wait|no)[, ]+i meant|i meant to say|wait,? no|no,? wait|sorry,? wrong \w+|"
              r"(?:sorry|oops|whoops|my)[, ]+typo|typo (?:earlier|before|above)")
_HEADED = r"^\W*(?:(?:quick|small|little|an?)\s+)?update\s*[:\-\u2013\u2014]"
CUES = re.compile(rf"\b(now|new|currently|these days|nowadays|since|recently|{_CHANGE}|{_CORRECTED})\b|{_HEADED}",
                  re.IGNORECASE)
CHANGED = re.compile(rf"\b({_CHANGE}|{_CORRECTED}|replaced|swapped|switching|migrating|upgrading|ditched|bumped|"
                     rf"rescheduled|postponed|pushed back)\b|{_HEADED}", re.IGNORECASE)
TRAVEL = {"fly", "travel", "go", "head", "drive", "visit"}
PLANNING = {"plan", "go", "hope", "intend", "want", "mean"}  # "I'm planning to visit Japan"
CANCELLING = {"cancel", "scrap", "skip"}  # "we cancelled the Italy trip"
TRIPS = {"trip", "vacation", "holiday", "visit", "journey", "flight"}
# What people work as, for "I'm a nurse" (a complement names a job only when it is one of these;
# "I'm a big fan", "Leo is a good friend" say no job).
OCCUPATIONS = {
    "engineer", "developer", "programmer", "analyst", "scientist", "designer", "architect", "manager",
    "director", "teacher", "professor", "lecturer", "tutor", "principal", "nurse", "doctor", "physician",
    "surgeon", "dentist", "pharmacist", "therapist", "psychologist", "paramedic", "veterinarian", "vet",
    "lawyer", "attorney", "paralegal", "accountant", "consultant", "banker", "chef", "cook", "baker", "barista",
    "waiter", "waitress", "bartender", "cashier", "clerk", "receptionist", "secretary", "intern", "student",
    "writer", "author", "journalist", "editor", "photographer", "artist", "musician", "actor", "actress",
    "producer", "filmmaker", "electrician", "plumber", "carpenter", "mechanic", "pilot", "firefighter",
    "officer", "soldier", "farmer", "librarian", "researcher", "technician", "administrator", "coordinator",
    "specialist", "executive", "founder", "ceo", "cto", "cfo", "freelancer", "contractor", "recruiter",
    "marketer", "realtor", "translator", "supervisor", "apprentice", "postdoc", "lead", "caregiver",
    "counselor", "counsellor", "dietitian", "economist", "illustrator", "instructor", "coach", "trainer",
    "salesperson", "strategist", "planner", "auditor", "broker", "surveyor", "optometrist", "midwife"}
NUMBERS = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())}
# Modifiers that say when a value holds, not which attribute it is.
NOT_QUALIFIERS = {"new", "current", "old", "latest", "previous", "former", "first", "next", "own", "whole"}
# ... and those that say it held once and no longer does.
FORMER = {"old", "former", "previous", "ex"}
NOT_VALUE = {"det", "poss", "punct", "advmod", "cc", "prep", "neg", "aux", "case", "mark"}
SPEAKING = {"i", "we", "me", "us", "my", "our", "mine", "ours"}
# An assistant's turns explain and advise ("the probability of two heads is 1/4"): what they
# state is not a fact of the user's life, so they claim nothing.
ADVISORS = {"assistant", "ai", "bot", "system"}
# What a count can be of: things had, and the measures of a habit ("I sleep six hours").
COUNTING = {"have", "weigh", "sleep", "earn", "make", "drink", "smoke", "eat", "walk", "run", "spend", "pay",
            "save", "work", "take"}
# What one more of something comes by, and the ordinals that count it ("we adopted a third cat":
# there are three cats).
ACQUIRING = {"adopt", "get", "buy", "rescue", "welcome"}
ARRIVING = {"arrive", "come"}  # "our third baby arrived"
SOMEONE = {"someone", "somebody", "guy", "girl", "man", "woman", "boy", "lady"}  # a person said before their name
# The count of "we adopted another cat": one more than before, how many not said. Another value
# than any number, so it retires the count said before ("I have two cats"), and any count said
# after retires it.
MORE = "more"
ORDINALS = {w: str(i) for i, w in enumerate("second third fourth fifth sixth seventh eighth ninth tenth".split(), 2)}
# The units of a dose, and the verbs that take one: "I take 10mg of lisinopril" says the dose of
# lisinopril (what "my doctor increased my lisinopril to 20mg" changes), not a count of milligrams.
DOSE_UNITS = {"mg": "mg", "mcg": "mcg", "µg": "mcg", "g": "g", "ml": "ml", "iu": "iu", "unit": "unit",
              "units": "unit", "milligram": "mg", "milligrams": "mg", "microgram": "mcg", "micrograms": "mcg"}
DOSING = {"take", "use", "get", "need"}
# A value is a short phrase; longer ones are clauses the parse folded in.
VALUE_WORDS = 6
# Particles and prepositions that make a habit verb an idiom ("run into", "run out of", "go over").
PHRASAL = {"into", "out", "across", "through", "over", "off"}
# Nouns of "for ..." that say how long ("working on it for a while").
DURATIONS = {"while", "time", "moment", "age", "long", "now", "year", "month", "week", "day", "hour", "minute", "decade"}
# Verbs that, with "off" and what follows it, say the subject (for "take" and "wean", the one taken
# off) no longer takes a thing: "my doctor took me off metformin", "I came off sertraline", "I'm off
# caffeine now", "went off the pill"; not a time, work or a place ("I'm off work today").
OFF = {"take", "wean", "come", "be", "go"}
NOT_OFF = {"work", "duty", "shift", "school", "call", "grid", "hook", "record", "topic", "track", "mark", "guard",
           "coast", "shore", "road", "ground", "list", "radar", "bench", "chart", "rail", "table", "today",
           "tomorrow", "weekend", "morning", "afternoon", "evening", "night"} | DURATIONS
MOST_YEARS = 120
MODALS = {"can", "could", "should", "would", "might", "must", "may", "ca", "wo", "shall"}
NOT_IN_VALUE = {"relcl", "acl", "advcl", "xcomp", "ccomp", "conj", "cc", "appos", "prep", "punct", "mark"}

# A release of a named thing: "React 17", "Terraform 0.12", "Python 3.12", "v2" after a name. Its
# slot is the thing's (`version:react`); a newer release said by the same speaker, with a change
# said ("upgraded", "now", "the migration to Postgres 16 finished"), retires the older one.
RELEASE = re.compile(r"v?\d{1,3}(\.\d{1,3}){0,2}", re.IGNORECASE)
RELEASE_CUES = re.compile(r"now|new|newest|latest|currently|finally|since|upgrad\w*|migrat\w*|bump\w*|moved|"
                          r"switched|updated")  # a word of the release's clause
UPGRADING = {"upgrade", "bump", "migrate", "migration"}  # "the python bump to 3.12", "upgraded Node from 14 to 18"
# Words a number follows that are no release of them: "grade 3", "room 12", "day 5", "May 15".
NOT_RELEASED = {"grade", "room", "page", "chapter", "level", "step", "day", "week", "month", "year", "floor", "gate",
                "seat", "row", "route", "highway", "season", "episode", "part", "phase", "round", "stage", "version",
                "release", "number", "size", "age", "mile", "hour", "minute", "apartment", "unit", "suite",
                "building", "block", "line", "platform", "terminal", "track", "lane", "exit", "table", "class",
                "team", "squad", "group", "section", "volume", "book", "issue", "figure", "question", "top", "ward",
                "bed", "zone", "sprint", "lesson", "module", "station", "court", "street", "avenue", "pier",
                "paragraph", "claim", "article", "clause", "rule", "item", "point", "slide", "option", "case",
                "example", "task", "scenario", "problem", "exercise", "lecture", "angle", "side", "appendix",
                "http", "error", "code", "status", "port",
                "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
                "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
                "nov", "dec", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                "usd", "eur", "gbp", "inr", "rs", "cad", "aud", "jpy", "chf"}
# Where a release runs, when a message names one: production's and staging's are two releases.
ENVIRONMENTS = {"production": "production", "prod": "production", "staging": "staging", "stage": "staging",
                "dev": "development", "development": "development", "qa": "qa", "test": "test", "testing": "test"}
# The people a sentence's subject may be other than the speaker, said by a common noun.
OTHERS = {"coworker", "colleague", "friend", "boss", "manager", "client", "partner", "wife", "husband", "sister",
          "brother", "mom", "mum", "dad", "mother", "father", "son", "daughter", "kid", "child", "roommate",
          "neighbor", "neighbour", "cousin", "teammate", "girlfriend", "boyfriend"}


class Named(Protocol):
    """A mention (extract.Mention): who or what, of which kind, at which tokens."""
    name: str
    kind: str
    tokens: range


def names_slot(slot: str, lemmas: Iterable[str]) -> bool:
    """Whether a question whose content words have these lemmas asks about `slot`: a word the
    lexicon reads it by ("live" residence, "work" employer and occupation, "boss" the manager),
    or a word of its own name ("deadline" for `state:deadline`, "cat" for `count:have:cat`)."""
    words = set(lemmas)
    if slot.startswith(VERSION) and words & {"version", "release"}:
        return True
    if any(verb in words for (verb, _), (named, _) in VERB_SLOTS.items() if named == slot):
        return True
    if any(noun in words for noun, named in {**NOUN_SLOTS, **NAMED_ROLES}.items() if named == slot):
        return True
    return bool(words & set(slot.split(":")[1:])) or slot in words


def claims(doc: "Doc", speaker: str, addressee: str | None, found: Sequence[Named]) -> list[Claim]:
    """The claims of a parsed turn (`found`: its mentions, extract.mentions)."""
    if speaker.lower() in ADVISORS:
        return []
    by_token = {i: m for m in found for i in m.tokens}
    cue = _cued(doc)
    out: list[Claim] = []
    for token in doc:
        if token.pos_ not in ("VERB", "AUX") or token.dep_ in ("aux", "auxpass") or _asked(token):
            continue  # a question claims nothing
        if _weighed(token):
            continue  # "I'm deciding whether to switch to Redis": not done
        subject = _subject(token)
        who: Subject | None
        if subject is None and _said_without_i(token):
            subject, who = token, (speaker, "PERSON")  # "Moved to Manchester", as if "I moved ..."
        elif subject is None:
            continue
        else:
            who = _person(subject, speaker, addressee, by_token)
        if who is not None and subject.pos_ == "NOUN" and subject.lemma_.lower() in ROLE_NOUNS \
                and token.lemma_ == "be" and any(o.dep_ == "attr" and _kind_ok(o, PERSON, by_token)
                                                 for o in token.children):
            who = None  # "my boyfriend is Sam", "my boss is Chen": the owner's; "my wife is 32" is about the wife
        if _modal(token):
            continue  # "I can't run it", "I should use Redis": no fact
        lemma = token.lemma_.lower()
        # a thing nobody owns ("the area is 30 cm²") changes only when the turn says it changed
        loose = who is None and not any(c.dep_ == "poss" for c in subject.children) or lemma == "use"
        for claim in _of_verb(token, subject, who, speaker, addressee, by_token):
            if "\\" in claim[3] or len(claim[3].split()) > VALUE_WORDS \
                    or any(is_placeholder(w) for w in claim[3].split()):
                continue  # markup, code or a clause, not a value
            slot = claim[1]
            needs_cue = slot in ("trip", "preference") or loose and slot.startswith(("state:", "count:"))
            out.append(Claim(claim[0][0], claim[0][1], slot, claim[2], claim[3], claim[4],
                             cue or lemma in CHANGING, needs_cue))
    out += _partners_named(doc, speaker, addressee, by_token, cue)
    out += _releases(doc, speaker, addressee, by_token)
    out += _taken_off(doc, speaker, addressee, by_token)
    out += _started_or_moved_in(doc, speaker, by_token, cue)
    if speaker == USER_ROLE:
        out += instructions(doc, speaker)
    return list(dict.fromkeys(out))


def _releases(doc: "Doc", speaker: str, addressee: str | None, by_token: dict) -> list[Claim]:
    """The releases of named things the speaker says they run ("Our web app is on React 17",
    "We're on Terraform 0.12", "The Postgres 15 migration wrapped up", "after the python bump to
    3.12"): `version:react` = 17, qualified by the environment the clause names ("in production")
    and by what its subject names ("our web app").
    A release asked about, weighed, planned, denied or said of someone else claims nothing."""
    out = []
    for number in doc:
        if number.tag_ != "CD" or RELEASE.fullmatch(number.text) is None or number.i == 0:
            continue
        thing = _released(number)
        if thing is None:
            continue
        # the clause's verb, or the root of one without ("now on terraform 1.7 after the upgrade")
        verb = next((t for t in thing.ancestors if t.pos_ in ("VERB", "AUX")), thing.sent.root)
        if _asked(verb) or _weighed(verb) or _negated(verb) \
                or _modal(verb, also=("will", "'ll", "shall")) \
                or verb.dep_ == "xcomp" and verb.head.lemma_.lower() in PLANNING | {"need", "try", "like"}:
            continue  # "should we move to React 18?", "we'll upgrade to 18", "we want to move to 18"
        subject = _subject(verb)
        if subject is not None and subject.lower_ not in SPEAKING | ENVIRONMENTS.keys() and (
                subject.lemma_.lower() in OTHERS or subject.ent_type_ == "PERSON"
                or (who := _person(subject, speaker, addressee, by_token)) is not None and who[1] == "PERSON"):
            continue  # "my coworker runs Python 3.12": theirs
        clause = _clause(verb)
        places = {ENVIRONMENTS[t.lower_] for t in clause if t.lower_ in ENVIRONMENTS}
        if len(places) > 1 or not places and any(t.lower_ in ENVIRONMENTS and t.dep_ != "pobj" for t in number.sent):
            continue  # "prod stays on 14 and staging runs 16", parsed as one clause: which is which is not read
        name = same_word(thing.lower_)  # a name, not a word: no stem ("postgres", "node")
        cue = any(RELEASE_CUES.fullmatch(t.lower_) for t in clause) or verb.lemma_.lower() in CHANGING \
            or verb.lemma_.lower() in ACQUIRING and verb.tag_ == "VBD"  # "got an iphone 15"
        if thing.text.islower() and "." not in number.text and not cue:
            continue  # a word in lower case and a whole number ("side 7 cm"), unless a change says it ("got an iphone 15")
        if subject is not None and subject.pos_ in ("NOUN", "PROPN") and subject.lower_ not in ENVIRONMENTS \
                and subject.lemma_.lower() not in UPGRADING | CHANGING and thing not in subject.subtree:
            head, quals = _thing(subject)  # what runs it: "our web app", "the lambda functions"
            places |= {head, *quals}
        out.append(Claim(speaker, "PERSON", f"{VERSION}{name}", tuple(sorted(places)), number.text.lower().lstrip("v"),
                         True, cue, True))
    return out


def _taken_off(doc: "Doc", speaker: str, addressee: str | None, by_token: dict) -> list[Claim]:
    """What someone was taken off or came off (OFF): a thing ended, as "quit" ends it ("my
    endocrinologist took me off metformin", "Came off sertraline in May", "I'm off caffeine now"),
    which retires what named it and its dose (graphmem/supersession.py). Not asked, weighed,
    planned, denied or only possible ("Should I come off it?", "I'm not off it yet")."""
    out = []
    for off in doc:
        verb = off.head
        lemma = verb.lemma_.lower()
        if off.lower_ != "off" or off.dep_ not in ("prep", "prt") or lemma not in OFF \
                or verb.pos_ not in ("VERB", "AUX") or _asked(verb) or _weighed(verb) or _negated(verb) \
                or _planned(verb) or _modal(verb):
            continue
        if lemma in ("take", "wean"):  # the one taken off is its object, whoever took them
            taken = next((c for c in verb.children if c.dep_ == "dobj"), None)
            who = _person(taken, speaker, addressee, by_token) if taken is not None else None
        else:
            subject = _subject(verb)
            who = (speaker, "PERSON") if subject is None and _said_without_i(verb) else \
                _person(subject, speaker, addressee, by_token) if subject is not None else None
        if who is None:
            continue
        things = [g for g in off.children if g.dep_ == "pobj"]
        if off.dep_ == "prt":  # "Came off sertraline in May": the parse may hang the thing on the verb
            things += [c for c in verb.children if c.dep_ in ("dobj", "npadvmod") and c.i > off.i]
        for thing in things:
            if thing.pos_ in ("NOUN", "PROPN") and thing.lemma_.lower() not in NOT_OFF \
                    and thing.ent_type_ not in ("DATE", "TIME"):
                out.append(Claim(who[0], who[1], f"does:{stem(thing.lemma_)}", (), "", False, True))
    return out


def _clause(verb: "Token") -> list["Token"]:
    """The words of a verb's own clause: its subtree without the clauses it heads."""
    cut = {t.i for c in verb.children if c.dep_ in ("conj", "advcl", "ccomp", "parataxis", "relcl") for t in c.subtree}
    return [t for t in verb.subtree if t.i not in cut]


def _released(number: "Token") -> "Token | None":
    """The named thing a release number is of: the name right before it ("React 17"), or before
    an upgrade to it ("the python bump to 3.12", "upgraded Node from 14 to 18")."""
    doc = number.doc
    before = doc[number.i - 1]
    if _a_name(before) and number.head in (before, before.head):
        return before
    if before.lower_ != "to":
        return None
    window = list(doc[max(0, before.i - 5):before.i])
    if not any(t.lemma_.lower() in UPGRADING for t in window) or ("." not in number.text and not any(
            t.tag_ == "NNP" for t in window)):
        return None
    named = [t for t in window if _a_name(t) and t.lemma_.lower() not in UPGRADING]
    return named[-1] if named else None


def _a_name(token: "Token") -> bool:
    """A word that can name a piece of software or a device: a singular noun or a name, no common
    counted or calendar word."""
    return token.tag_ in ("NN", "NNP") and token.is_alpha and len(token.text) > 1 \
        and token.lower_ not in NOT_RELEASED and token.lower_ not in ENVIRONMENTS


# Words that open a question, after a comma or at a sentence's start ("I moved to Berlin last
# month, can you suggest ...?": the move is told, the rest is asked).
ASKING = {"can", "could", "would", "will", "do", "does", "did", "is", "are", "was", "were", "should", "shall",
          "may", "what", "how", "which", "where", "when", "why", "who", "whom", "whose", "any", "anything", "have",
          "has", "am"}
# Verbs that weigh an action rather than report it ("deciding whether to", "thinking about
# switching", "trying to cut"): what they govern is not done.
WEIGHING = {"consider", "decide", "wonder", "debate", "figure", "think", "try", "weigh", "choose", "need",
            "want", "hope", "aim", "like", "love", "mean", "wish", "ask", "help", "plan", "intend", "look"}


def _asked(token: "Token") -> bool:
    """Whether a token is in the question of a sentence that ends in one: from the sentence's
    start, or from a question word after a comma, a semicolon or a dash (what comes before is
    told)."""
    sent = token.sent
    if not sent.text.rstrip().endswith("?"):
        return False
    for t in sent:
        if t.lower_ in ASKING and (t.i == sent.start or t.nbor(-1).text in (",", ";", "-", "--", "—", "–", ":")):
            return token.i >= t.i
    return True


def _cued(doc: "Doc") -> bool:
    """Whether a turn says something changed or holds now (`CUES`); "since" only of time ("since
    March"), not of a cause ("since a card can't be both", a subordinating conjunction)."""
    for match in CUES.finditer(doc.text):
        span = doc.char_span(match.start(), match.end(), alignment_mode="expand")
        if match.group(0).lower() == "since" and span is not None and span[0].dep_ == "mark":
            continue
        return True
    return False


def _weighed(verb: "Token") -> bool:
    """A verb under "if" or "whether", or governed by a verb that weighs it (but a trip planned
    is a plan: `_planned`), or by one that sees to it ("make sure the movies are suitable":
    wanted, not told)."""
    direct = True  # governed through "to" or "about ...ing" only ("trying to cut", not "..., I need")
    for t in [verb, *verb.ancestors]:
        if any(c.dep_ == "mark" and c.lower_ in ("if", "whether") for c in t.children):
            return True
        if t is not verb and t.tag_ != "VBD" and (t.lemma_.lower() == "ensure" or t.lemma_.lower() == "make"
                                                 and any(c.lower_ == "sure" for c in t.children)):
            return True
        if t is not verb and direct and t.lemma_.lower() in WEIGHING and verb.lemma_.lower() not in TRAVEL:
            return True
        if t.dep_ not in ("xcomp", "ccomp", "conj", "advcl", "pcomp", "pobj", "prep"):
            break
        direct = direct and t.dep_ in ("xcomp", "pcomp", "pobj", "prep")
    return False


# Who someone is to the owner, when a name stands beside the word ("my boyfriend Mark", "my new
# manager Tom"), whatever the verb.
NAMED_ROLES = {**{noun: slot for noun, slot in NOUN_SLOTS.items() if slot == "partner"},
               "manager": "state:manager", "boss": "state:manager"}
ROLE_NOUNS = NOUN_SLOTS.keys() | NAMED_ROLES.keys()  # the words of an attribute or a role a person holds


def _partners_named(doc: "Doc", speaker: str, addressee: str | None, by_token: dict, cue: bool) -> list[Claim]:
    """"My boyfriend Mark and I ...", "my new manager Tom wants ...": a partner or a manager named
    beside the word for one."""
    out = []
    for token in doc:
        slot = NAMED_ROLES.get(token.lemma_.lower())
        if slot is None or _asked(token):
            continue
        owner = next((_person(c, speaker, addressee, by_token) for c in token.children if c.dep_ == "poss"), None)
        name = next((c for c in token.children if c.dep_ == "appos" and _kind_ok(c, PERSON, by_token)), None)
        if owner is not None and name is not None:
            out.append(Claim(owner[0], owner[1], slot, (), _value(name), True, cue))
    return out


# A new job or home told by its first days, in the words people use: "First week at Shopify went
# well", "first day at Calyx Health as a senior UX designer", "Finally settled into the new place in
# Tacoma", "done unpacking boxes in the new place in Bristol". The parse hangs these phrases on
# whatever verb follows, so they are read by their words. A workplace is a name or one of these.
FIRST_DAYS = {"day", "week", "month", "shift"}
WORKPLACES = {"company", "startup", "firm", "clinic", "hospital", "agency", "office", "lab", "bank", "studio",
              "practice", "restaurant", "store", "shop", "factory", "warehouse"}
MOVING_IN = {"settle", "unpack"}
PARTS = {"room", "area", "part", "side"}  # a part of a home, where one unpacks a bag, not where one lives


def _started_or_moved_in(doc: "Doc", speaker: str, by_token: dict, cue: bool) -> list[Claim]:
    """The speaker's employer (and job) told by a first day or week there, and their home told by
    settling into it or unpacking there; not someone else's ("my wife's first week at Stripe") and
    not a question ("How was your first week at Stripe?")."""
    out = []
    for token in doc:
        lemma = token.lemma_.lower()
        if lemma not in FIRST_DAYS and lemma not in MOVING_IN or _asked(token):
            continue  # `_asked` reads the whole sentence: only for the words these readings start from
        if lemma in FIRST_DAYS and any(c.lower_ == "first" for c in token.children) \
                and all(c.lower_ in SPEAKING for c in token.children if c.dep_ == "poss") \
                and not _negated(token.head):  # "I've never completed my first 30 days as ..."
            # the phrases right after it, wherever the parse hangs them ("First week at Shopify went well")
            after = [p for p in doc[token.i + 1:token.i + 2] if p.dep_ == "prep"]
            after += [q for p in after for g in p.children if g.dep_ == "pobj"
                      for q in doc[g.right_edge.i + 1:g.right_edge.i + 2] if q.dep_ == "prep"]
            for p in after:
                for g in (g for g in p.children if g.dep_ == "pobj"):
                    if p.lower_ == "at" and (_kind_ok(g, ("ORG", "PROPN"), by_token) or g.lemma_.lower() in WORKPLACES):
                        out.append(Claim(speaker, "PERSON", "employer", (), _value(g), True, cue))
                    elif p.lower_ == "as" and g.lemma_.lower() in OCCUPATIONS:
                        out.append(Claim(speaker, "PERSON", "occupation", (), _value(g), True, cue))
                        out += [Claim(speaker, "PERSON", "employer", (), _value(e), True, cue)
                                for e in _employer_of(g, by_token)]
        if lemma in MOVING_IN and token.pos_ == "VERB" \
                and not any(c.dep_ in ("nsubj", "nsubjpass") and c.lower_ not in SPEAKING for c in token.children):
            clause = token  # "done unpacking boxes in the new place": the clause the parse hangs the place on
            while clause.dep_ in ("amod", "dobj", "xcomp") and clause.head is not clause:
                clause = clause.head
            homes = [g for p in clause.subtree if p.dep_ == "prep" and p.lower_ in ("in", "into")
                     for g in p.children if g.dep_ == "pobj" and g.lemma_.lower() in DWELLINGS - PARTS]
            places = [_place_in(h, by_token) for h in homes]
            out += [Claim(speaker, "PERSON", "residence", (), _value(place), True, cue)
                    for place in places if place is not None]
    return out


# -- what the user tells the agent to do ------------------------------------------------------

# An instruction is a claim of the user's, keyed by the action and its object ("include version
# numbers"): "Always include version numbers" says yes, "Never include version numbers", "Stop
# including version numbers" and "Don't include version numbers anymore" say no, so each retires
# the one before it (supersession.supersedes) and recall applies the newest (recall/standing.py).
STOPPING = {"stop", "quit", "cease"}  # "stop including X": the action is the verb after it
NEEDING = {"need", "have"}  # "you no longer need to include X", "you don't have to include X"
# Words that make a "don't" hold beyond the turn: "Don't include version numbers anymore".
LASTING = re.compile(r"\b(anymore|any more|no longer|from now on|going forward|in (the )?future)\b", re.IGNORECASE)
SKIPPED = {"please", "also", "just", "ever", "to", "again"}  # between the cue and the action
OBJECT_SKIPPED = {"det", "poss", "predet", "nummod", "quantmod", "prt", "dative"}  # "the", "your", "all", "out", "me"
OBJECT_WORDS = 4
# The action's tags: a base verb, or a noun where spaCy's small model takes "Always format" so;
# "-ing" after "stop".
ACTION_TAGS = {"VB", "VBP", "NN", "VBG"}
TOLD = {"VBD", "VBN", "VBZ"}  # a verb's tags that tell what was done, not ask for it
REQUESTING = {"can", "may", "should", "must"}  # "you can stop adding ...", "you should never ..."
# A request asked as a question opens with one of these and "you": "Could you stop adding version
# numbers?", "Can you always cite your sources?". "Should I always ...?", "Do you always ...?" and
# "Will you always be here?" ask.
ASKING_YOU = {"can", "could", "would"}
# An action said with another verb is the same action: "Stop adding version numbers" ends "Always
# include version numbers". Only verbs that mean the same whatever they act on; the slot keeps
# the first of each group. Stores written before a verb was added here are brought to it when
# opened (rekey_instructions, run by Memory.setup and by an import); ACTIONS_LAYOUT names this
# table's version: add a verb, and raise it.
SAME_ACTION = (
    ("include", "add", "put", "insert", "append", "attach", "incorporate"),
    ("provide", "give", "offer", "supply", "show"),
    ("use", "employ", "utilize", "utilise"),
    ("confirm", "verify", "check", "double-check"),
    ("mention", "cite", "reference"),
    ("suggest", "recommend", "propose"),
    ("explain", "describe"),
    ("highlight", "emphasize", "emphasise", "stress"),
    ("start", "begin"),
    ("end", "finish", "conclude"),
    ("answer", "respond", "reply"),
    ("summarize", "summarise", "recap"),
)
ACTION = {verb: group[0] for group in SAME_ACTION for verb in group}
# Verbs that say no to an action ("skip the version numbers from now on" ends "always include
# them"); "drop" is left out: "always drop the temp tables" is no word about including them.
OPPOSITE = {"omit": "include", "skip": "include", "exclude": "include", "leave out": "include", "avoid": "use"}
ACTIONS_LAYOUT = "instruction_actions_1"


def instructions(doc: "Doc", speaker: str) -> list[Claim]:
    """The instructions a user's turn gives the agent, each as a yes or a no for its action."""
    out = []
    for sent in doc.sents:
        asking = sent.text.rstrip().endswith("?")
        if asking and not requested(sent):
            continue  # a question instructs nothing, unless it asks the listener to act
        lasting = bool(LASTING.search(sent.text))
        words = [t for t in sent if not t.is_punct and t.lower_ not in SKIPPED]
        for i, token in enumerate(words[:-1]):
            low, following = token.lower_, words[i + 1]
            if low in ("always", "never"):
                action, positive = following, low == "always"
            elif token.lemma_.lower() in STOPPING and following.tag_ == "VBG" and token.tag_ not in TOLD \
                    and _addressed(token, asking=asking):  # "Stopped taking melatonin" tells, as if "I stopped"
                action, positive = following, False
            elif low in ("n't", "not") and i > 0 and lasting and (
                    words[i - 1].lemma_.lower() == "do" or asking and words[i - 1].lower_ == "you"):
                action, positive = following, False  # "don't X anymore", "can you (please) not X anymore?"
            elif low == "longer" and i > 0 and words[i - 1].lower_ == "no" and following.lemma_.lower() in NEEDING \
                    and i + 2 < len(words):
                action, positive = words[i + 2], False
            elif low == "need" and i > 0 and words[i - 1].lower_ == "no" and lasting:  # "no need to X anymore"
                action, positive = following, False
            elif lasting and token.dep_ == "ROOT" and token.pos_ == "VERB" and _verb(token) in OPPOSITE \
                    and _addressed(token, asking=asking):  # the turn's own verb, not "tips to avoid X in the future"
                action, positive = token, True  # "from now on, leave out X": a yes to leaving out, below a no
            else:
                continue
            if action.lemma_.lower() in NEEDING and action.i + 2 < len(doc) and doc[action.i + 1].lower_ == "to":
                action = doc[action.i + 2]  # "don't need to include X anymore"
            elif action.lemma_.lower() == "bother" and action.i + 1 < len(doc):  # "don't bother (to) include X"
                action = doc[action.i + 1 + (doc[action.i + 1].lower_ == "to" and action.i + 2 < len(doc))]
            if action.tag_ not in ACTION_TAGS or action.dep_ in ("aux", "auxpass") \
                    or not _addressed(action, token, asking):
                continue  # "I always go running": a habit; "it has always been hard": no action
            verb = _verb(action)
            if verb in OPPOSITE:  # "always skip X" is a no to including X
                verb, positive = OPPOSITE[verb], not positive
            slot = ":".join(filter(None, ("instruction", verb, " ".join(_object(action)))))
            out.append(Claim(speaker, "PERSON", same_action(slot), (), "", positive, cue=not positive))
    return out


def rekey_instructions(store: Store, user: str) -> int:
    """Bring `user`'s stored instructions to SAME_ACTION (a store or an export written before a
    verb joined a group) and settle them again; the number of keys renamed."""
    return rekey(store, user, "instruction:", same_action)


def _verb(action: "Token") -> str:
    """The action's verb, with its particle: "leave out" is no "leave", "check in" no "check"."""
    return " ".join([action.lemma_.lower()] + [c.lower_ for c in action.children if c.dep_ == "prt"])


def same_action(slot: str) -> str:
    """An instruction's slot with its action as SAME_ACTION names it ("instruction:add:version
    number" -> "instruction:include:version number"); any other slot as it is."""
    kind, _, rest = slot.partition(":")
    if kind != "instruction":
        return slot
    verb, sep, thing = rest.partition(":")
    return f"{kind}:{ACTION.get(verb, verb)}{sep}{thing}"


def requested(sent: "Span") -> bool:
    """Whether a question asks its listener to act: it opens with can, could or would and "you"
    ("Could you please stop adding version numbers?")."""
    words = [t.lower_ for t in sent if not t.is_punct][:2]
    return len(words) == 2 and words[0] in ASKING_YOU and words[1] == "you"


def _addressed(verb: "Token", cue: "Token | None" = None, asking: bool = False) -> bool:
    """Said to the listener as a request: no subject (an imperative), or "you" in a request ("I
    want you to always cite", "you can stop adding", and when `asking`, a question that is one:
    "could you stop adding?"); not "you always forget my name". The cue read as the verb's
    subject is none ("Quit putting ...", "Quit" parsed as a name)."""
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass") and (cue is None or c.i != cue.i)]
    if not subjects:
        return True
    modals = REQUESTING | ASKING_YOU if asking else REQUESTING
    return all(c.lower_ == "you" for c in subjects) and (
        verb.dep_ in ("ccomp", "xcomp") or any(c.dep_ == "aux" and c.lower_ in modals for c in verb.children))


def _object(action: "Token") -> list[str]:
    """The words after the action that say what it acts on, as lemmas: "version numbers" ->
    "version number" (read off the words, not the parse: spaCy's small model often takes
    "Always format dates" for a noun and a verb)."""
    out: list[str] = []
    for token in action.doc[action.i + 1:action.sent.end]:
        if token.dep_ in OBJECT_SKIPPED or token.pos_ == "ADJ" or token.lower_ in ("a", "an", "the", "all", "any",
                                                                                   "my", "your"):
            continue  # "exact times" is "times": "stop giving times" ends "always give exact times"
        if not token.is_alpha or token.tag_ in ("IN", "TO", "WRB", "WDT", "CC", "RB") or len(out) == OBJECT_WORDS \
                or token.tag_ == "VBG" and token.dep_ in ("acl", "advcl"):  # "... version numbers going forward"
            break
        out.append(token.lemma_.lower())
    return out


Subject = tuple[str, str]  # (name, kind)
Raw = tuple[Subject, str, tuple[str, ...], str, bool]  # subject, slot, qualifiers, value, positive


def _subject(verb: "Token") -> "Token | None":
    if any(c.dep_ == "expl" for c in verb.children):
        return None  # "there are 7 of us": nobody is 7
    subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
    # "Reorg again: my new boss is Chen": the parse may take a heading before a colon for a second
    # subject; the verb's is the one after it
    told = [c for c in subjects if not any(t.text == ":" for t in verb.doc[c.i + 1:verb.i])]
    if subjects:
        return (told or subjects)[0]
    if verb.dep_ in ("xcomp", "conj", "advcl") and verb.head is not verb:  # "stopped going": the head's subject
        return _subject(verb.head)
    return None


def _said_without_i(verb: "Token") -> bool:
    """Whether a verb tells what the speaker did, its "I" dropped as chats drop it: a sentence
    that opens with a verb in the past ("Moved to Manchester for the new flat", "Just relocated to
    Glasgow", "Got promoted to senior"), or a verb joined to one ("... and started at Zalando").
    A verb in its base form asks instead ("Move the meeting to Friday")."""
    while verb.dep_ in ("conj", "xcomp") and verb.head is not verb:
        verb = verb.head
    return verb.dep_ == "ROOT" and _past(verb) \
        and not any(c.dep_ in ("nsubj", "nsubjpass", "csubj", "expl") for c in verb.children)


def _past(verb: "Token") -> bool:
    """Whether a verb is in a past form (spaCy's small model tags "Sold my Civic" a base form)."""
    return verb.tag_ in ("VBD", "VBN") or verb.lemma_.lower() in VERB_LEMMAS


def _couple(subject: "Token", by_token: dict) -> "Token | None":
    """The other one of "Emma and I" (either way round), when a subject is the speaker and a person."""
    pair = [subject] + [c for c in subject.children if c.dep_ == "conj"]
    if len(pair) != 2 or not any(t.lower_ in ("i", "me") for t in pair):
        return None
    other = next((t for t in pair if t.lower_ not in ("i", "me")), None)
    if other is None:  # "me and I"
        return None
    other = next((c for c in other.children if c.dep_ == "appos"), other)  # "my wife Anna and I"
    return other if _kind_ok(other, PERSON, by_token) else None


def _person(token: "Token", speaker: str, addressee: str | None, by_token: dict) -> Subject | None:
    """The person a subject token is: I/we -> the speaker, you -> the addressee, a mention of a
    person (a name, "Robin's sister")."""
    low = token.lower_
    for child in token.children:  # "my sister Emma": Emma
        named = by_token.get(child.i) if child.dep_ == "appos" else None
        # A kin word ("Emma, my sister") or a name the tagger itself read as a person's. Keying
        # every name beside a kin word ("our daughter Ella", which it does not know) unlinks it
        # from what the kin word alone said ("our daughter is in daycare"): linking both ways
        # needs the name and the kin word to be one entity, which resolution does not make (two
        # daughters are two people).
        if named is not None and named.kind == "PERSON" and (child.pos_ != "PROPN" or child.ent_type_ == "PERSON"):
            return (named.name, named.kind)
    if low in SPEAKING or _user_noted(token, speaker):
        return (speaker, "PERSON")
    if low in ("you",) and addressee:
        return (addressee, "PERSON")
    mention = by_token.get(token.i)
    if mention is not None and mention.kind in ("PERSON", "PROPN"):
        return (mention.name, mention.kind)
    return None


def _user_noted(token: "Token", speaker: str) -> bool:
    """Whether the subject is the user of a chat with an agent as an agent notes them: "User lives
    in Paris.", "User's manager is Priya." (the notes an agent keeps through `remember`). Not "the
    user", who in a chat about software is as often the software's user ("the user clicks Save")."""
    return speaker == USER_ROLE and token.text == "User" and not any(c.dep_ == "det" for c in token.children)


def _owner(noun: "Token", speaker: str, addressee: str | None, by_token: dict) -> Subject | None:
    """Whose a thing is: "my rent" -> the speaker, "Maya's manager" -> Maya; a thing no one owns
    ("the deadline", "the app") is the speaker's (it is what they talk about)."""
    for child in noun.children:
        if child.dep_ == "poss":
            return _person(child, speaker, addressee, by_token)
    return (speaker, "PERSON")


def _of_verb(verb: "Token", subject: "Token", who: Subject | None, speaker: str, addressee: str | None,
             by_token: dict) -> Iterable[Raw]:
    lemma = VERB_LEMMAS.get(verb.lemma_.lower(), verb.lemma_.lower())
    negated = _negated(verb)
    other = _couple(subject, by_token)
    if other is not None and (lemma == "divorce" or lemma in ("split", "break")
                              and any(c.dep_ == "prt" and c.lower_ == "up" for c in verb.children)
                              and not any(c.dep_ == "dobj" for c in verb.children)):
        yield (speaker, "PERSON"), "partner", (), _value(other), negated  # "Emma and I split up"
        return
    objects = [c for c in verb.children if c.dep_ in ("dobj", "attr", "oprd", "acomp", "npadvmod")]
    # "moved back to Seattle", "is down to 190": the preposition hangs on the adverb
    holders = [verb] + [c for c in verb.children if c.dep_ in ("advmod", "prt", "prep")
                        and c.lower_ in ("back", "down", "up", "over", "out", "in", "forward")]
    preps = [(p.lower_, g) for h in holders for p in h.children if p.dep_ in ("prep", "agent", "dative")
             for g in p.children if g.dep_ == "pobj"]
    if verb.dep_ == "xcomp" and verb.head.lemma_.lower() in ENDING | STARTING:
        negated = negated or verb.head.lemma_.lower() in ENDING  # "stopped going to the gym"
    # the parse may take "my lisinopril" in "increased my lisinopril to 20mg" for an adverb
    target = next((o for o in objects if o.pos_ == "NOUN" and (o.dep_ == "dobj" or o.dep_ == "npadvmod"
                                                                and _speakers(o))), None)
    # "my doctor increased my lisinopril to 20mg", "the client moved the deadline to Friday": whoever
    # changed it, what changed is the speaker's thing, unless it is said to be another's
    by_another = who is not None and who[0] != speaker and target is not None \
        and not any(c.dep_ == "poss" and c.lower_ not in SPEAKING for c in target.children)
    if who is not None and subject.pos_ in ("NOUN", "PROPN") and (lemma == "be" or lemma in CHANGING) \
            and _dose_of_state(verb) is not None:
        who = None  # "Lisinopril is 20mg now": a medicine (the tagger may take it for a person), no one is a dose
    if who is not None and not (by_another and lemma in CHANGING):  # a person does, has, likes, is
        yield from _personal(verb, lemma, who, objects, preps, negated, by_token)
        return
    if lemma in CHANGING and target is not None:  # "leadership pushed the deadline to mid-Q3": the deadline changed
        owner = _owner(target, speaker, addressee, by_token)
        value = _new_value(lemma, preps) or _up_to(verb, target)
        if owner is not None and value is not None:
            head, quals = _thing(target)
            yield owner, NOUN_SLOTS.get(head, f"state:{head}"), quals, _value(value), not negated
        return
    # a thing is, or changes: "the deadline is March 1", "the deadline moved to March 15"
    yield from _of_thing(subject, lemma, objects, preps, negated, speaker, addressee, by_token)


def _of_thing(noun: "Token", lemma: str, objects: list, preps: list, negated: bool, speaker: str,
              addressee: str | None, by_token: dict) -> Iterable[Raw]:
    if noun.pos_ not in ("NOUN", "PROPN") or (noun.lower_ in ("it", "that", "this")):
        return
    kin = by_token.get(noun.i)
    owner = _owner(noun, speaker, addressee, by_token)
    if owner is None:
        return
    ordinal, counted = _ordinal(noun), noun
    if ordinal is None and (numbered := _numbered(noun)) is not None:
        counted, ordinal = numbered  # "baby number three arrived": as "our third baby arrived"
    if ordinal is not None and lemma in ARRIVING and not negated and _past(noun.head):
        yield owner, f"count:have:{_counted(counted)}", (), ordinal, True  # "our third baby arrived": three children
        return
    owned = any(c.dep_ == "poss" for c in noun.children)
    dose = _dose_of_state(noun.head) if lemma == "be" or lemma in CHANGING else None
    if dose is not None and not any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in noun.children):
        head, _ = _thing(noun)  # "lisinopril is 20mg now", "my atorvastatin went up to 40mg": a medicine's dose
        yield owner, f"state:{head}", (), dose, not negated
        return
    bare = noun.pos_ == "NOUN" and not any(c.dep_ == "det" for c in noun.children)
    if not owned and not any(c.dep_ == "det" and c.lower_ == "the" for c in noun.children) \
            and not (bare and lemma in CHANGING):  # "launch got pushed back to April 30", as people type
        return  # "art is so cool", "that painting is awesome": an opinion, not a thing's state
    if any(p.dep_ == "prep" and any(g.dep_ == "pcomp" for g in p.children) for p in noun.children):
        return  # "the probability of getting heads is 1/2": a general truth, not a thing's state
    if any(c.lower_ in FORMER for c in _modifiers(noun)):
        return  # "my old boss at Deloitte was Karen": what held once, no version of what holds now
    head, quals = _thing(noun)
    # a person's home or job is theirs ("my job"); "the training job" is a thing's state
    slot = NOUN_SLOTS.get(noun.lemma_.lower()) if owned else None
    # "my boss" is whom they report to, though the word names a person; "my direct manager" is not
    # "my skip-level manager": its qualifiers stay
    role = NAMED_ROLES.get(noun.lemma_.lower()) if owned and slot is None else None
    if slot is None and role is None and kin is not None and kin.kind == "PERSON":
        return  # "my sister ..." with a verb: a person, handled as one
    if slot == "employer" and lemma != "be" and lemma not in HAVING:
        return  # "our company uses Slack", "my company switched to Teams": what the company does
    if slot is not None:
        quals = ()  # "my job title", "my title": one attribute, whatever qualifies its name
    slot = slot or role or f"state:{head}"
    if lemma in HAVING:
        for obj in objects:
            count = _count(obj)
            if count is not None and not _given(obj):
                yield owner, f"count:have:{_counted(obj)}", tuple(sorted({head, *quals})), count, not negated
        return
    to = next((g for p, g in preps if p == "to"), None)
    if lemma in CHANGING and to is not None and _count(to) is not None:  # "our team has grown to 8 engineers"
        yield owner, f"count:have:{stem(to.lemma_)}", tuple(sorted({head, *quals})), _count(to) or "", not negated
        return
    if lemma in STATING or lemma in CHANGING or lemma in SCHEDULING or lemma in WRITING:
        value = next((g for p, g in preps if p in ("to", "in", "with")), None) if lemma in WRITING \
            else _state_value(lemma, objects, preps)
        if value is not None and value.lower_ == "due":  # "the grant report is due August 15": its deadline
            when = _due_date(value) or next((g for p, g in preps if p in ("on", "by")), None)
            if when is not None:
                yield owner, "state:deadlin", tuple(sorted({head, *quals})), _value(when), not negated
            return
        if value is not None and slot in VALUE_KINDS and not _kind_ok(value, VALUE_KINDS[slot], by_token):
            return  # "my take-home is $4,800" is no home
        if value is not None and (_concrete(value) or owned and (value.pos_ == "NOUN" or _favourite(noun))):
            yield owner, slot, quals, _value(value), not negated


def _personal(verb: "Token", lemma: str, who: Subject, objects: list, preps: list, negated: bool,
              by_token: dict) -> Iterable[Raw]:
    if lemma == "be":
        yield from _personal_be(verb, who, objects, preps, negated, by_token)
        return
    prt = next((c.lower_ for c in verb.children if c.dep_ == "prt"), "")
    if lemma in ENDING_PARTICLES and prt not in ENDING_PARTICLES[lemma] and \
            not any(c.dep_ == "prep" and c.lower_ in ENDING_PARTICLES[lemma] for c in verb.children) or \
            lemma in ENDING_DONE and not _past(verb):
        return
    ending = lemma in ENDING
    # attributes by verb and preposition
    moved_thing = any(o.dep_ == "dobj" for o in objects)
    if lemma == "work" and any(c.dep_ == "prt" or c.lower_ == "out" for c in verb.children):
        preps = []  # "working out at home" is no workplace; "working out of the London office for a course" no job
    for prep, obj in preps:
        slot = VERB_SLOTS.get((lemma, prep))
        if slot and slot[0] == "residence":
            if moved_thing:
                continue  # "we moved our hosting to AWS"
            obj = _place_in(obj, by_token) or obj
        if slot and slot[0] == "employer" and (_duration(obj) or _speakers(obj) and not _kind_ok(obj, PERSON, by_token)):
            continue  # "working on this for a while", "with an attorney for my invention" ("for my father" is a job)
        if slot and _kind_ok(obj, slot[1], by_token):
            yield who, slot[0], (), _value(obj), not (negated or ending)
    for obj in objects:
        slot = VERB_SLOTS.get((lemma, ""))
        # "seeing someone new, his name is Ravi": the name said after the person
        named = _named_later(obj) if slot and slot[1] == PERSON and obj.dep_ == "dobj" else None
        if slot and obj.dep_ == "dobj" and _kind_ok(named or obj, slot[1], by_token):
            yield who, slot[0], (), _value(named or obj), not (negated or ending)
        # "started a new job at Stripe"; the parse may hang "at Stripe" on the verb, where it may
        # also say when or where ("started a new job at 25", "at home"): an organisation only
        if obj.dep_ == "dobj" and obj.lemma_.lower() in ("job", "position", "role", "internship") and \
                lemma in STARTING | {"get", "take", "accept", "land", "quit", "leave"}:
            employers = [g for p in obj.children if p.dep_ == "prep" and p.lower_ in ("at", "with")
                         for g in p.children if g.dep_ == "pobj"]
            employers += [g for p in obj.children if p.dep_ == "prep" and p.lower_ == "as"
                          for a in p.children if a.dep_ == "pobj"
                          for g in _employer_of(a, by_token)]  # "a role as an engineer at Spotify"
            employers += [g for p, g in preps if p in ("at", "with") and g.head.head.i == verb.i
                          and _kind_ok(g, ("ORG", "PROPN"), by_token)]
            for g in employers:
                yield who, "employer", (), _value(g), not (negated or lemma in ("quit", "leave"))
    for prep, obj in preps:  # "working as a paramedic", "hired as a developer at Brightwave"
        if lemma == "work" and prep == "as":
            yield who, "occupation", (), _value(obj), not negated
        if lemma in ("work", "hire", "start") and prep == "as":
            for g in _employer_of(obj, by_token):
                yield who, "employer", (), _value(g), not negated
    # likes and habits
    if lemma in LIKING:
        for obj in objects:
            if obj.dep_ == "dobj":
                yield who, f"likes:{stem(obj.lemma_)}", (), "", LIKING[lemma] != negated
        for child in verb.children:
            if child.dep_ == "xcomp" and child.pos_ == "VERB":
                yield who, f"does:{stem(child.lemma_)}", (), "", LIKING[lemma] != negated
    if lemma in HABITS:
        thing = _habit(verb, lemma, objects, preps)
        if thing:
            yield who, f"does:{thing}", (), "", not negated
    if lemma in ENDING | STARTING:  # "I quit smoking", "I dropped Spanish"
        traded = [g for p in verb.children if p.dep_ == "prep" and p.lower_ == "in"
                  for g in p.children if g.dep_ == "pobj"] if lemma == "trade" else []  # "in" read as a preposition
        for obj in objects + traded:
            if obj.dep_ in ("dobj", "pobj") and obj.pos_ in ("NOUN", "PROPN") \
                    and obj.lemma_.lower() not in ("job", "position", "role"):
                yield who, f"does:{stem(obj.lemma_)}", (), "", lemma in STARTING and not negated
    if lemma in HABITS | CHANGING:  # "I switched from coffee to tea", "I drink tea instead of coffee"
        for other in _instead_of(verb, preps, lemma):
            yield who, f"does:{stem(other.lemma_)}", (), "", False
    # counts: "I have two cats", "I sleep six hours a night", "I weigh 80 kilos"
    verb_key = HAVING.get(lemma, lemma)
    units = []  # the unit of a dose read here, which the parse may also give as an object
    for obj in objects if lemma in DOSING else ():
        dose = _dose_after(obj) if obj.dep_ == "dobj" else None
        if dose is not None:  # "I take atorvastatin 20mg every night": the dose of atorvastatin, no count of mg
            head, _ = _thing(obj)
            units.append(obj.i + 2)
            yield who, f"state:{head}", (), dose, not negated
    for obj in objects:
        if obj.i in units:
            continue
        measure = _measure(obj)
        if measure and lemma in HAVING and obj.dep_ == "dobj" and obj.pos_ == "NOUN":  # "we have a $20k budget"
            head, quals = _thing(obj)
            said = {stem(t.lemma_.lower()) for t in measure}
            yield who, NOUN_SLOTS.get(head, f"state:{head}"), tuple(q for q in quals if q not in said), \
                " ".join(_number(t.lower_) if t.like_num else t.lemma_.lower() for t in measure), not negated
            continue
        ordinal = _ordinal(obj)
        # a child is had, once born ("we had our third baby"); "I had my second coffee" counts nothing
        acquired = lemma in ACQUIRING or lemma == "have" and _past(verb) and _counted(obj) == "child"
        if ordinal is not None and acquired and obj.dep_ == "dobj" and obj.pos_ == "NOUN":
            yield who, f"count:have:{_counted(obj)}", (), ordinal, not negated  # "we adopted a third cat"
            continue
        if _another(obj) and lemma in ACQUIRING and _past(verb) and obj.dep_ == "dobj" and obj.pos_ == "NOUN" \
                and not negated:  # "we adopted another cat": how many, unsaid, is no longer what it was
            yield who, f"count:have:{_counted(obj)}", (), MORE, True
            continue
        dosed = _dosed(obj)
        if dosed is not None and lemma in DOSING:  # "I take 10mg of lisinopril": the dose of lisinopril
            head, quals = _thing(dosed)
            amount = next(c for c in obj.children if c.dep_ == "nummod" and c.like_num)
            yield who, NOUN_SLOTS.get(head, f"state:{head}"), quals, _dose(amount, obj), not negated
            continue
        count = _count(obj)
        # a count said in the simple past tells an occasion or how it was ("ran 35 miles last week
        # for the relay" is no new weekly mileage), but a weight is read in the past ("weighed 172")
        if count is not None and obj.dep_ in ("dobj", "npadvmod", "attr") and verb_key in COUNTING \
                and obj.pos_ == "NOUN" and not _given(obj) and (verb.tag_ != "VBD" or verb_key == "weigh"):
            yield who, f"count:{verb_key}:{_counted(obj)}", (), count, not negated
    if lemma == "turn":  # "I turned 30"
        for obj in objects:
            if obj.like_num and _an_age(obj):
                yield who, "age", (), _number(obj.lower_), True
    if lemma in TRAVEL and _planned(verb):
        places = [g for p, g in preps if p == "to"] + [o for o in objects if o.dep_ == "dobj" and lemma == "visit"]
        for obj in places:
            if _kind_ok(obj, PLACE, by_token):
                yield who, "trip", (), _value(obj), not negated
    if lemma in CANCELLING:  # "we cancelled the Italy trip", "I cancelled my trip to Rome"
        for obj in objects:
            if obj.dep_ == "dobj" and obj.lemma_.lower() in TRIPS:
                places = [c for c in obj.children if c.dep_ == "compound"] + \
                         [g for p in obj.children if p.dep_ == "prep" and p.lower_ == "to" for g in p.children]
                for place in places:
                    if _kind_ok(place, PLACE, by_token):
                        yield who, "trip", (), _value(place), False
    # a thing the person changes: "we switched the database to PostgreSQL", "I upgraded the app"
    if lemma in CHANGING | WRITING | {"use"}:
        target = next((o for o in objects if o.dep_ == "dobj" and o.pos_ == "NOUN"), None)
        to = _new_value(lemma, preps, also=("for", "in") if lemma in WRITING else ("for",)) \
            or (_up_to(verb, target) if target is not None else None)
        if lemma == "use" and target is None:  # "I'm using MySQL for the database"
            used = next((o for o in objects if o.dep_ == "dobj"), None)
            if used is not None and to is not None and to.pos_ == "NOUN":
                head, quals = _thing(to)
                yield who, f"state:{head}", quals, _value(used), not negated
        elif lemma == "use" and target is not None:
            if to is not None and to.pos_ == "NOUN":
                head, quals = _thing(to)
                yield who, f"state:{head}", quals, _value(target), not negated
        elif target is not None and to is not None and lemma != "go" \
                and (lemma in CHANGING or to.pos_ == "PROPN"):  # "we built our backend in Flask", not "in a week"
            head, quals = _thing(target)
            yield who, NOUN_SLOTS.get(head, f"state:{head}"), quals, _value(to), not negated


def _employer_of(job: "Token", by_token: dict) -> list["Token"]:
    """The employer a job's own "at" names: a name ("a nurse at St. Mary's Hospital") or a kind
    of place ("a teacher at a local high school", "at a children's hospital"); not a time ("a
    nurse at night", "at the weekend"), and not a student's school."""
    if job.lemma_.lower() == "student":
        return []
    return [g for p in job.children if p.dep_ == "prep" and p.lower_ == "at" for g in p.children
            if g.dep_ == "pobj" and (_kind_ok(g, ("ORG", "PROPN", "FAC", "GPE"), by_token) or g.pos_ == "NOUN" and (
                g.lemma_.lower() in WORKPLACES or any(c.dep_ == "det" and c.lower_ in ("a", "an") or c.dep_ == "poss"
                                                      for c in g.children)))]


def _personal_be(verb: "Token", who: Subject, objects: list, preps: list, negated: bool,
                 by_token: dict) -> Iterable[Raw]:
    """I'm single / engaged to Priya / 29 years old / based in Lisbon / back at yoga / down to
    25mg of sertraline / on metformin 500mg."""
    for p, g in preps:
        dose = _dose_after(g) if p == "on" else None
        if dose is not None:  # "I'm on metformin 500mg (for blood sugar)": the dose of metformin
            head, _ = _thing(g)
            yield who, f"state:{head}", (), dose, not negated
        if p in ("at", "to") and g.head.head.lower_ == "back" and g.pos_ in ("NOUN", "VERB") \
                and not any(c.dep_ in ("det", "poss") for c in g.children):
            yield who, f"does:{stem(g.lemma_)}", (), "", not negated  # a habit resumed
        if p == "to" and g.head.head.lower_ in ("down", "up") and _count(g) is not None:
            thing = next((t for q in g.children if q.dep_ == "prep" and q.lower_ == "of"
                          for t in q.children if t.dep_ == "pobj"), None)
            if thing is not None and thing.pos_ in ("NOUN", "PROPN"):  # an amount of a thing
                head, quals = _thing(thing)
                yield who, NOUN_SLOTS.get(head, f"state:{head}"), quals, _value(g), not negated
    for obj in objects:
        low = obj.lower_
        if low == "single":
            yield who, "partner", (), "", negated
        if low in ("married", "engaged") or obj.lemma_ in ("marry", "engage"):
            for p in obj.children:
                if p.dep_ == "prep" and p.lower_ == "to":
                    for g in p.children:
                        if g.dep_ == "pobj":
                            yield who, "partner", (), _value(g), not negated
        if low == "old":  # "29 years old" (spaCy reads it as a date)
            for c in obj.children:
                if c.dep_ == "npadvmod" and verb.tag_ != "VBD":
                    count = next((_number(n.lower_) for n in c.children if n.dep_ == "nummod" and n.like_num), None)
                    if count is not None:
                        yield who, "age", (), count, not negated
        if obj.dep_ == "attr" and obj.pos_ == "NOUN" and obj.lemma_.lower() in OCCUPATIONS and verb.tag_ != "VBD" \
                and any(c.dep_ == "det" and c.lower_ in ("a", "an") for c in obj.children):
            yield who, "occupation", (), _value(obj), not negated  # "I'm a nurse", not "I was a nurse"
            for g in _employer_of(obj, by_token):  # "I'm a nurse at St. Mary's"
                yield who, "employer", (), _value(g), not negated
        if obj.lemma_ in ("base", "located"):
            for p in obj.children:
                if p.dep_ == "prep" and p.lower_ == "in":
                    for g in p.children:
                        if g.dep_ == "pobj":
                            yield who, "residence", (), _value(g), not negated
        if obj.dep_ in ("attr", "acomp") and obj.lower_ in DOERS and verb.tag_ != "VBD":  # "I'm a smoker"
            said_before = [*obj.children, *obj.doc[max(obj.sent.start, obj.i - 2):obj.i]]  # "ex-smoker": three tokens
            ended = any(t.lower_ in NO_LONGER for t in said_before)
            yield who, f"does:{stem(DOERS[obj.lower_])}", (), "", not (negated or ended)
        if obj.like_num and obj.dep_ == "attr" and _an_age(obj) and verb.tag_ != "VBD":  # "I'm 29"
            yield who, "age", (), _number(low), not negated


def _modal(verb: "Token", also: tuple[str, ...] = ()) -> bool:
    """Whether a modal (or one of `also`) helps the verb: "I can't run it", "I should use Redis"."""
    return any(c.dep_ == "aux" and (c.lower_ in MODALS or c.lower_ in also) for c in verb.children)


def _negated(verb: "Token") -> bool:
    for child in verb.children:
        if child.dep_ == "neg":
            return True
        if child.lower_ == "longer" and any(g.lower_ == "no" for g in child.children):
            return True
    return False


def _planned(verb: "Token") -> bool:
    """A trip not yet made: "I'm flying to Rome", "I will fly", "I'm going to fly", "I plan to
    visit Japan"."""
    auxes = {c.lower_ for c in verb.children if c.dep_ == "aux"}
    if auxes & {"will", "'ll", "am", "'m", "are", "'re", "is", "'s", "shall"} and verb.tag_ in ("VBG", "VB"):
        return True
    head = verb.head
    return verb.dep_ == "xcomp" and head.lemma_.lower() in PLANNING and head.tag_ in ("VBG", "VBP", "VBZ", "VB")


def _instead_of(verb: "Token", preps: list, lemma: str) -> list["Token"]:
    """What a change or a habit leaves behind: "switched from coffee", "migrated off Jira", "tea
    instead of coffee"."""
    out = [g for p, g in preps if p in ("from", "off") and lemma in ("switch", "change", "migrate", "move")]
    off = [c for c in verb.children if c.dep_ == "prt" and c.lower_ == "off"]
    if lemma in ("switch", "migrate", "move") and off:
        out += [c for c in verb.children if c.dep_ in ("dobj", "npadvmod")]  # "migrated off Jira last week"
        out += [g for g in off[0].children if g.dep_ == "pobj"]  # "migrated off Jira.", "off" parsed a particle with an object
    for token in verb.subtree:
        if token.lower_ == "of" and token.i > 0 and token.doc[token.i - 1].lower_ == "instead":
            out += [g for g in token.children if g.dep_ == "pobj"]
    return [t for t in out if t.pos_ in ("NOUN", "PROPN") and t.ent_type_ not in ("DATE", "TIME")]


def _new_value(lemma: str, preps: list, also: tuple[str, ...] = ()) -> "Token | None":
    """What a change sets a thing to: "to $750", or "at $1,400" for a cap; or the object of one
    of the prepositions `also` names ("for the database" after "using MySQL")."""
    return next((g for p, g in preps if p == "to" or p in also or p == "at" and lemma in SETTING_AT), None)


def _up_to(verb: "Token", target: "Token") -> "Token | None":
    """The new value of "bumped my rent up to $1,600" where the parse reads "up to" as part of the
    amount (quantifier modifiers) and hangs the amount on the verb or on the thing changed."""
    ups = [c for c in verb.children if c.dep_ in ("advmod", "prt") and c.lower_ in ("up", "down")]
    for holder in (verb, target, *ups):
        for child in holder.children:
            if child.dep_ in ("dobj", "npadvmod", "nummod", "pobj") and child.i != target.i and _to_inside(child):
                return child
    return None


def _to_inside(amount: "Token") -> bool:
    """Whether the parse read "up to" or "to" as part of an amount (a quantifier modifier)."""
    return any(t.dep_ == "quantmod" and t.lower_ == "to" for t in amount.subtree)


def _habit(verb: "Token", lemma: str, objects: list, preps: list) -> str | None:
    if lemma in VERB_KEYED:  # "I run every morning", not "I run the tests"
        if any(c.dep_ in ("prep", "prt") and c.lower_ in PHRASAL for c in verb.children):
            return None  # "run into issues", "run out of time"
        direct = any(o.dep_ == "dobj" for o in objects)
        return stem(lemma) if lemma in ("smoke", "vape") or not direct else None
    if lemma == "go":
        for child in verb.children:  # "go running"
            if child.dep_ in ("xcomp", "advcl") and child.tag_ == "VBG":
                return stem(child.lemma_)
        place = next((g for p, g in preps if p == "to"), None)
        return stem(place.lemma_) if place is not None and place.pos_ == "NOUN" else None
    if lemma == "take" and not (verb.tag_ in ("VBP", "VBZ") or verb.dep_ == "xcomp"
                                and verb.head.lemma_.lower() in ENDING | STARTING):
        # a habit in the simple present ("I take melatonin at night") or begun or ended ("stopped
        # taking metformin"); not once ("took the job", "didn't take my pills today") nor an idiom,
        # which is mostly said otherwise ("I'm taking the lead", "I'll take care of it")
        return None
    obj = next((o for o in objects if o.dep_ == "dobj"), None)
    if obj is not None and obj.pos_ in ("NOUN", "PROPN") and _count(obj) is None:
        return stem(obj.lemma_)
    return None


def _state_value(lemma: str, objects: list, preps: list) -> "Token | None":
    """What a thing's state is set to: the preposition "to"'s object for a change, else the
    complement (attr, acomp, object), else where or when it is ("on Tuesday")."""
    to = next((g for p, g in preps if p == "to"), None)
    if lemma in CHANGING and to is not None:
        return to
    if lemma in CHANGING:  # "rent's going up to $1,575"
        amount = next((o for o in objects if _to_inside(o)), None)
        if amount is not None:
            return amount
    for obj in objects:
        if obj.dep_ in ("attr", "acomp", "dobj", "oprd") and obj.lower_ not in ("down", "up"):
            return obj
    if to is not None:
        return to
    return next((g for p, g in preps if p in ("on", "at", "in", "about", "around")
                 or p == "for" and lemma in SCHEDULING), None)


def _due_date(due: "Token") -> "Token | None":
    """When something "due" is due: "due Friday", "due on May 3", "due by the 10th"."""
    for child in due.children:
        if child.dep_ == "npadvmod" and child.ent_type_ in ("DATE", "TIME"):
            return child
        if child.dep_ == "prep" and child.lower_ in ("on", "by"):
            return next((g for g in child.children if g.dep_ == "pobj"), None)
    return None


def _favourite(noun: "Token") -> bool:
    return any(c.lower_ in ("favorite", "favourite") for c in noun.children)


def _concrete(token: "Token") -> bool:
    """A value that is a fact, not an opinion: it holds a number, a name or a date."""
    return any(t.like_num or t.pos_ == "PROPN" or t.ent_type_ for t in token.subtree)


def _thing(noun: "Token") -> tuple[str, tuple[str, ...]]:
    """A thing's head lemma and what qualifies it: its compounds and adjectives, and the objects
    of its of/for/with/in ("the budget for the launch" -> budget, (launch,); "my grade in
    calculus" -> grade, (calculus,))."""
    quals = [c.lemma_.lower() for c in _modifiers(noun) if c.lemma_.lower() not in NOT_QUALIFIERS]
    for p in noun.children:
        if p.dep_ == "prep" and p.lower_ in ("of", "for", "with", "in"):
            quals += [g.lemma_.lower() for g in p.children if g.dep_ == "pobj"]
    return stem(noun.lemma_), tuple(sorted(set(stem(q) for q in quals)))


def _place_in(token: "Token", by_token: dict) -> "Token | None":
    """The place a phrase names: itself, or the place a home in it is in ("a small flat in
    Leeds"; not "a three-node Kubernetes cluster")."""
    if _kind_ok(token, PLACE, by_token):
        return token
    if token.lemma_.lower() not in DWELLINGS:
        return None
    for t in token.subtree:
        if _kind_ok(t, PLACE, by_token):
            while t.dep_ == "compound" and t.head is not t:  # "Jersey" of "Jersey City": the name's head
                t = t.head
            return t
    return None


def _modifiers(noun: "Token") -> list["Token"]:
    """A noun's compounds and adjectives, and theirs ("dashboard API response time")."""
    out = []
    for child in noun.children:
        if child.dep_ in ("compound", "amod", "nmod"):
            out += [child, *_modifiers(child)]
    return out


def _kind_ok(token: "Token", kinds: tuple[str, ...], by_token: dict) -> bool:
    if token.ent_type_ in ("DATE", "TIME", "CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL"):
        return False  # "for three years" is how long, not for whom
    if not kinds:
        return True
    mention = by_token.get(token.i)
    return bool({token.ent_type_, token.pos_, mention.kind if mention else ""} & set(kinds))


def _value(token: "Token") -> str:
    words = [t for t in _phrase(token) if t.dep_ not in NOT_VALUE and t.lower_ not in NOT_QUALIFIERS
             and not (t.dep_ == "quantmod" and t.lower_ in ("up", "down", "to"))  # "up to $35,000"
             and t.lower_ not in ("now", "about", "around", "approximately", "roughly", "instead")]
    # the value ends where a clause or a preposition after it begins ("Berlin last month")
    words = [t for t in words if t.ent_type_ not in ("DATE", "TIME") or token.ent_type_ in ("DATE", "TIME")]
    return " ".join(_number(t.lower_) if t.like_num else t.lemma_.lower() if t.pos_ == "NOUN" else t.lower_
                    for t in words).strip()


def _phrase(token: "Token") -> list["Token"]:
    """A value's own words: its subtree without the clauses and prepositions hanging on it."""
    out = [token]
    for child in token.children:
        if child.dep_ not in NOT_IN_VALUE:
            out += _phrase(child)
    return sorted(out, key=lambda t: t.i)


def _count(token: "Token") -> str | None:
    """The number a noun phrase counts ("two cats" -> 2, "a dog" -> 1), or None."""
    if token.ent_type_ == "DATE" or _measure(token):
        return None  # "March 15" counts no March, "a $20k budget" is one budget of $20k
    for child in token.children:
        if child.dep_ == "nummod" and child.like_num:
            return _number(child.lower_)
        if child.dep_ == "det" and child.lower_ in ("a", "an"):
            return "1"
    return None


MEASURES = ("MONEY", "PERCENT", "QUANTITY")


def _measure(noun: "Token") -> list["Token"]:
    """The amount a thing is said to be, before it ("a $20k budget", "a 95% target"): the words
    of a money, percent or quantity in its phrase, else none; "80 kilos" counts kilos (the noun
    is the amount's unit)."""
    if noun.ent_type_ in MEASURES:
        return []
    return [t for t in noun.subtree if t.i < noun.i and (t.ent_type_ in MEASURES or t.tag_ == "$")]


def _ordinal(noun: "Token") -> str | None:
    """How many there are with this one ("a third cat" -> 3), when an ordinal says it."""
    return next((ORDINALS[c.lower_] for c in noun.children if c.dep_ == "amod" and c.lower_ in ORDINALS), None)


def _another(noun: "Token") -> bool:
    """Whether the noun is one more of its kind ("another cat", "one more dog")."""
    said = {(c.dep_, c.lower_) for c in noun.children}
    return ("det", "another") in said or {("amod", "more"), ("nummod", "one")} <= said


def _dosed(noun: "Token") -> "Token | None":
    """What a dose is of ("10mg of lisinopril" -> lisinopril), when the noun is a dose's unit."""
    if noun.lower_ not in DOSE_UNITS or not any(c.dep_ == "nummod" and c.like_num for c in noun.children):
        return None
    return next((g for p in noun.children if p.dep_ == "prep" and p.lower_ == "of"
                 for g in p.children if g.dep_ == "pobj" and g.pos_ in ("NOUN", "PROPN")), None)


def _named_later(someone: "Token") -> "Token | None":
    """The name of a person first said without it ("a guy named Ravi", "someone called Ravi",
    "someone new, his name is Ravi"): the name's token, or None."""
    if someone.lemma_.lower() not in SOMEONE:
        return None
    for acl in someone.children:
        if acl.dep_ == "acl" and acl.lemma_.lower() in ("name", "call"):
            return next((c for c in acl.children if c.dep_ in ("oprd", "attr", "dobj") and c.pos_ == "PROPN"), None)
    for name in someone.sent:
        if name.lemma_.lower() == "name" and name.dep_ == "nsubj" and name.head.lemma_ == "be" \
                and any(c.dep_ == "poss" and c.lower_ in ("his", "her", "their") for c in name.children):
            return next((c for c in name.head.children if c.dep_ == "attr" and c.pos_ == "PROPN"), None)
    return None


def _dose_after(noun: "Token") -> str | None:
    """The dose said right after a medicine's name ("metformin 500mg", "lisinopril 10 mg"); None
    when none follows."""
    return _dose_at(noun.doc, noun.i + 1) if noun.pos_ in ("NOUN", "PROPN") else None


def _dose_of_state(verb: "Token") -> str | None:
    """A dose a thing is said to be or to have moved to ("sertraline is 100mg now", "went up to
    40mg", which the parse reads as an amount "up to 40"): within the words right after the verb."""
    return next((dose for j in range(verb.i + 1, verb.i + 4) if (dose := _dose_at(verb.doc, j)) is not None), None)


def _dose_at(doc: "Doc", j: int) -> str | None:
    """The dose said at word `j`: a number, then a unit of DOSE_UNITS."""
    if j + 1 < len(doc) and doc[j].like_num and doc[j + 1].lower_ in DOSE_UNITS:
        return _dose(doc[j], doc[j + 1])
    return None


def _dose(amount: "Token", unit: "Token") -> str:
    """A dose as every claim writes it, "500 mg" (what supersession.DOSE_VALUE reads)."""
    return f"{_number(amount.lower_)} {DOSE_UNITS[unit.lower_]}"


def _given(noun: "Token") -> bool:
    """A thing described by its measures ("a triangle with sides 3, 4 and 5 cm", "a table with
    12 columns"): the givens of a problem, not a count of what someone has."""
    return any(p.dep_ == "prep" and p.lower_ == "with" and any(t.like_num for t in p.subtree)
               for p in noun.children)


def _an_age(token: "Token") -> bool:
    """Whether a number can be someone's age: a whole number of years a person lives, not a price,
    a share or a measure ("around $1,200", "85%")."""
    if token.ent_type_ in ("ORDINAL", "MONEY", "PERCENT", "QUANTITY", "TIME") \
            or any(c.tag_ == "$" for c in token.children):
        return False
    number = _number(token.lower_)
    return number.isdigit() and 0 < int(number) <= MOST_YEARS


def _duration(token: "Token") -> bool:
    """"for a while", "for two years": how long, not for whom."""
    return token.ent_type_ in ("DATE", "TIME") or token.lemma_.lower() in DURATIONS


def _speakers(token: "Token") -> bool:
    """A thing the speaker calls their own ("my new invention")."""
    return any(c.dep_ == "poss" and c.lower_ in SPEAKING for c in token.children)


# What "number N" counts as one has N of them: the young of a family; else it names one ("order
# number 12", "room number 4").
NUMBERED = {"baby", "kid", "child", "son", "daughter", "grandchild", "grandbaby", "grandkid", "puppy", "kitten",
            "dog", "cat", "pup"}


def _numbered(noun: "Token") -> tuple["Token", str] | None:
    """What "number N" counts and N, for one of NUMBERED: "baby number three" -> (baby, 3)."""
    if noun.lower_ not in ("number", "no", "#"):
        return None
    what = next((c for c in noun.children if c.dep_ == "compound" and c.lemma_.lower() in NUMBERED), None)
    n = next((_number(c.lower_) for c in noun.children if c.dep_ == "nummod"), None)
    return (what, n) if what is not None and n is not None and n.isdigit() and int(n) > 1 else None


def _counted(token: "Token") -> str:
    """What is counted, one word for two ways of saying it ("one child", "two kids")."""
    return same_word(stem(token.lemma_))


def _number(word: str) -> str:
    word = word.replace(",", "")
    return NUMBERS.get(word, word)
