"""What a question asks, without an LLM: the stored entities it names, the time it is about,
and its type (single-hop, multi-hop, temporal, open-domain). Rules, kept explainable: each
decision is written into `Analysis.notes`."""

from __future__ import annotations

import re
from calendar import monthrange
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from ..ingest.extract import FIRST, Mention, mentions, query_terms, restate
from ..ingest.messages import USER_ROLE
from ..models import Models
from ..simplex import normalise
from ..store import Store
from ..vectors import as_param
from .phrasing import ask_back
from .tuning import COMMON_SHARE, CONCEPT_MATCH_FLOOR, ENTITY_MATCH_SCAN, NAME_MATCH_FLOOR

if TYPE_CHECKING:
    from spacy.language import Language

TEMPORAL = re.compile(r"^\s*when\b|\b(what|which) (year|month|day|date|time|week)\b|\bhow long (ago|before|after)\b|"
                      r"\bin (19|20)\d\d\b", re.IGNORECASE)
OPEN = re.compile(r"\b(would|likely|might|probably|could|considered?|if)\b", re.IGNORECASE)
AGGREGATE = re.compile(r"\b(both|in common|how many|what (activities|kinds?|types?|things|books|events|places)|"
                       r"where (has|have)|which .* (has|have)|what .* (has|have) .* (done|made|bought|seen|visited))\b",
                       re.IGNORECASE)
# The kind of entity a question asks for, when its words say so: (pattern, stored kinds, what
# the note calls them). The evidence of a question asking for a place mentions a place far more
# often than turns do at large (docs/tuning.md); events, companies and people told nothing
# (events are rarely tagged; every speaker is a person).
ANSWER_KINDS = (
    (re.compile(r"^\s*where\b|\b(cit(y|ies)|countr(y|ies)|places?|locations?|areas?|states?|destinations?)\b",
                re.IGNORECASE), ("GPE", "LOC", "FAC"), "places"),
    (re.compile(r"\b(books?|novels?|movies?|films?|series|shows?|songs?|albums?|games?)\b", re.IGNORECASE),
     ("WORK", "PRODUCT", "ORG"), "titles"),
)

# Where and in what order things were said ("throughout our conversations", "across my
# requests", "the order in which I brought up"): a question about the conversation itself.
ACROSS_THE_CONVERSATION = re.compile(
    r"\b(?:throughout|across|during|over|in|from)\s+(?:all\s+(?:of\s+)?)?our\s+(?:previous\s+|past\s+|"
    r"recent\s+|earlier\s+)?(?:conversations?|chats?|discussions?|sessions?|talks?)(?:,?\s+in\s+order)?\b|"
    r"\bacross\s+(?:all\s+)?(?:my|the)\s+(?:sessions?|conversations?|chats?|requests?)\b|"
    r"\bthe\s+order\s+in\s+which\s+(?:(?:I|we)\s+(?:first\s+)?(?:brought\s+up|mentioned|discussed|raised|"
    r"talked\s+about)\b|(?=\w+\s+(?:first\s+)?(?:brought\s+up|mentioned|discussed|raised|talked\s+about)\b))|"
    r",\s*in\s+order(?=\s*(?:[?.!]|$))", re.IGNORECASE)

# Words about the conversation itself and the answer's form, not about what memory holds: the
# request ("Can you walk me through ...", "Could you give me a summary of ..."), where things
# were said ("throughout our conversations"), the order asked for ("the order in which I
# brought up", "in order") and how many to name ("Mention only five items."). Every memory is
# said in the conversation, so these words match none better than another; as search words
# they match whichever memory happens to say "order" or "summary". Recall searches with the
# question without them (`without_frame`); everything else reads the question as asked.
# What a request asks the listener to do, and "a summary of" after it: the frame "can you" opens,
# and the same asked without it.
_ASKED_TO = r"list|walk\s+me\s+through|remind\s+me(?:\s+(?:of|about))?|summari[sz]e|give\s+me|describe"
_SUMMARY_OF = r"(?:(?:a|an|the)\s+(?:\w+\s+)?(?:summary|overview|recap|rundown)\s+of\s+)?"
FRAME = (
    re.compile(r"^\s*(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:" + _ASKED_TO + r"|tell\s+me|provide)\s+"
               + _SUMMARY_OF, re.IGNORECASE),
    re.compile(r"(?:^|(?<=[.?!]))\s*(?:mention|list|name|give|include)\s+(?:only\s+(?:and\s+only\s+)?)?\w+\s+"
               r"(?:items?|things?|points?)\b[^.?!]*[.?!]?", re.IGNORECASE),
    ACROSS_THE_CONVERSATION,
    # the same asked without "can you", as agents and people in a hurry ask: "Summarize my house
    # buying situation.", "Tell me about my family.", "List everything I've told you about my car."
    re.compile(r"^\s*(?:please\s+)?(?:" + _ASKED_TO + r"|tell\s+me(?:\s+about)?)\s+" + _SUMMARY_OF
               + r"(?:(?:what|everything|all)\s+(?:you\s+know|I(?:'ve|’ve|\s+have)?\s+(?:told|said\s+to|"
               r"mentioned\s+to)\s+you)\s+(?:about|of)\s+)?", re.IGNORECASE),
)


def about_the_conversation(query: str) -> bool:
    """Whether a question asks about what was said across the conversation ("throughout our
    conversations", "across my requests", "the order in which I brought up")."""
    return bool(ACROSS_THE_CONVERSATION.search(query))


def without_frame(query: str) -> str:
    """`query` without its words about the conversation and the answer's form (FRAME); the
    query itself when that would leave less than two words."""
    core, found = query, 0
    for pattern in FRAME:
        core, n = pattern.subn(" ", core)
        found += n
    if not found:
        return query
    core = re.sub(r"\s+([?.!,])", r"\1", " ".join(core.split())).strip(" ,")
    return core if len(re.findall(r"\w+", core)) >= 2 else query


@dataclass
class Matched:
    vid: int
    name: str
    kind: str
    score: float  # 1.0 by name or alias, else the cosine of the names
    how: str  # "name", "alias" or "vector"
    frequency: int = 1
    common: bool = False  # in more than COMMON_SHARE of the memories


@dataclass
class Analysis:
    query: str
    type: str
    entities: list[Matched]
    time_range: tuple[float, float] | None
    time_text: str | None
    vector: list[float]
    words: list[str]  # lemmas of the content words, for the lexical channel
    memories: int = 0  # how many memories the user holds
    notes: list[str] = field(default_factory=list)
    answer_kinds: list[str] = field(default_factory=list)  # entity kinds the question asks for (ANSWER_KINDS)
    topic: str = ""  # the question without the names of the speakers most memories are said by (`topic_of`)
    topic_vector: list[float] = field(default_factory=list)  # its embedding (the query's own when they are one)
    unknown: list[str] = field(default_factory=list)  # names the question uses that match no stored entity
    asked_back: str | None = None  # the question as the agent would ask it of the user (phrasing.ask_back)
    asker: str | None = None  # whose "I" the question means: recall's asker, or the user of a chat with an agent
    thing: str | None = None  # what the question asks about (`asked_thing`): "deadline" in "When is the deadline ...?"
    question: str = ""  # the question the query asks (`as_question`): itself, or "What is X?" for a phrase X

    def persons(self) -> list[str]:
        """The names of the people the question names."""
        return [e.name for e in self.entities if e.kind == "PERSON"]

    def specific_vids(self) -> list[int]:
        """The matched vertices that are not everywhere (all of them if every one is)."""
        specific = [e.vid for e in self.entities if not e.common]
        return specific or [e.vid for e in self.entities]

    def to_dict(self) -> dict:
        return {"type": self.type, "topic": self.topic, "entities": [vars(e) for e in self.entities],
                "answer_kinds": self.answer_kinds,
                "time_text": self.time_text,
                "time_range": [datetime.fromtimestamp(t, timezone.utc).isoformat() for t in self.time_range]
                if self.time_range else None, "notes": self.notes, "unknown": self.unknown, "asker": self.asker,
                "thing": self.thing, "question": self.question}


def analyse(store: Store, models: Models, user: str, query: str, asker: str | None = None,
            asked_at: datetime | None = None) -> Analysis:
    """`asker`: the speaker who asks, whose first person ("Where did I adopt my dog?") the
    question is restated in, as turns are at ingest ("Where did Alice adopt Alice's dog?");
    `asked_at`: when it is asked (default: now), what its dates are read from (`_time_range`)."""
    with models.parsing() as nlp:  # the question's docs die with the analysis
        return _analyse(store, models, nlp, user, query, asker, asked_at)


def _analyse(store: Store, models: Models, nlp: "Language", user: str, query: str, asker: str | None,
             asked_at: datetime | None = None) -> Analysis:
    notes: list[str] = []
    doc = whole = nlp(query)
    asked_back = ask_back(doc)  # the question's own words, before an asker's restatement
    core = without_frame(query)
    if core != query:
        notes.append(f"searched without its words about the conversation: {core!r}")
        doc = nlp(core)
    # "I" anywhere in the question, its words about the conversation too ("the order in which I
    # brought up ..."); only the words searched are restated
    if asker is None and any(t.lower_ in FIRST for t in whole) and \
            store.run("recall_entities_by_name", user_id=user, norms=[normalise(USER_ROLE)]):
        asker = USER_ROLE  # an agent's chat: "I" in a question to it is the user it talks with
    if asker:
        said = restate(doc, asker)
        if said != doc.text:
            notes.append(f"asked by {asker}: {said!r}")
            doc = nlp(said)
    found = [m for m in mentions(doc, speaker="", addressee=None) if len(m.name) >= 2]
    words = query_terms(doc)
    by_norm = {normalise(m.name): m for m in found}
    rows = store.run("recall_entities_by_name", user_id=user, norms=list(by_norm)) if by_norm else []
    total = store.run("user_memories", user_id=user)[0]["memories"]
    matched: dict[int, Matched] = {}
    named: dict[str, int] = {}  # a mention's normalised name -> the vid it matched by name or alias
    for row in rows:
        how = "name" if row["norm"] in by_norm else "alias"
        frequency = row["frequency"] or 1
        matched[row["vid"]] = Matched(row["vid"], row["name"], row["kind"], 1.0, how, frequency,
                                      _common(frequency, total))
        for norm in [row["norm"], *(normalise(a) for a in row["aliases"] or [])]:
            named.setdefault(norm, row["vid"])
    speakers = _speakers_named(store, user, by_norm, named, matched)
    topic = topic_of(doc, [m for m in found if normalise(m.name) in speakers])
    unmatched = [m for norm, m in by_norm.items() if norm not in named]
    own = [doc.text] if topic == doc.text else [doc.text, topic]  # the question (and its topic when it differs)
    if len(own) > 1:
        notes.append(f"topic {topic!r}: the question without the speakers' names, which most memories carry")
    vectors = models.embedder().embed(own + [m.name for m in unmatched])
    topic_vector = vectors[len(own) - 1]
    unknown = []
    for mention, vector in zip(unmatched, vectors[len(own):]):
        floor = CONCEPT_MATCH_FLOOR if mention.kind == "CONCEPT" else NAME_MATCH_FLOOR
        hits = _nearest_entity(store, user, as_param(vector))
        if not (hits and hits[0]["score"] >= floor) and mention.kind != "CONCEPT":
            unknown.append(mention.name)
            notes.append(f"{mention.name!r} matches no entity in memory")
        if hits and hits[0]["score"] >= floor and hits[0]["vid"] not in matched:
            hit = hits[0]
            frequency = hit["frequency"] or 1
            matched[hit["vid"]] = Matched(hit["vid"], hit["name"], hit["kind"], round(hit["score"], 3), "vector",
                                          frequency, _common(frequency, total))
            notes.append(f"{mention.name!r} matched entity {hit['name']!r} by name embedding ({hit['score']:.2f})")
    entities = sorted(matched.values(), key=lambda e: e.vid)
    time_range, time_text = _time_range(doc, asked_at)
    kind = _type(doc.text, entities, time_text, notes)
    return Analysis(query, kind, entities, time_range, time_text, as_param(vectors[0]), words, total, notes,
                    _answer_kinds(doc.text, notes), topic, as_param(topic_vector), unknown, asked_back, asker,
                    asked_thing(whole), as_question(whole))


def _nearest_entity(store: Store, user: str, vector: list[float]) -> list[dict]:
    """The user's entity whose name embeds nearest `vector`, by the shared index, or exactly
    when the index, read ENTITY_MATCH_SCAN deep, reaches none of the user's."""
    asked = {"user_id": user, "vector": vector, "limit": 1}
    return store.run("recall_entity_match", scan=ENTITY_MATCH_SCAN, **asked) or \
        store.run("recall_entity_match_exact", **asked)


def _common(frequency: int, total: int) -> bool:
    return total > 0 and frequency > COMMON_SHARE * total


def _speakers_named(store: Store, user: str, by_norm: dict[str, Mention], named: dict[str, int],
                    matched: dict[int, Matched]) -> set[str]:
    """The normalised names, among the question's mentions, of people who speak the user's
    memories and are in more than COMMON_SHARE of them: the names that tell little about what
    is asked (`topic_of`). A person only talked about keeps their name ("Where did Alice adopt
    Rex?": Rex is the topic)."""
    common = {norm: matched[named[norm]] for norm in by_norm if norm in named and matched[named[norm]].common}
    if not common:
        return set()
    rows = store.run("recall_speakers", user_id=user, names=sorted({e.name for e in common.values()}))
    speakers = {r["name"] for r in rows}
    return {norm for norm, e in common.items() if e.name in speakers}


# What heads a query that is a phrase, as agents search memory ("standup time", "user's current
# phone", "diet"), and the tags of a word that makes it more: a verb of its own, a question word.
PHRASE_HEADS = frozenset({"NOUN", "PROPN", "ADJ", "NUM"})
NOT_A_PHRASE = frozenset({"VBZ", "VBP", "VBD", "MD", "WP", "WP$", "WRB", "WDT"})


def as_question(doc) -> str:
    """The question a query asks: the query itself, or for a phrase (PHRASE_HEADS, no word of
    NOT_A_PHRASE) "What is <phrase>?": what it names, as things stand now. The readings of a
    fact's versions read questions ("What is my standup time?"); an agent's search for "standup
    time" asks the same."""
    text = doc.text.strip()
    if not text or any(t.dep_ == "ROOT" and t.pos_ not in PHRASE_HEADS or t.tag_ in NOT_A_PHRASE for t in doc):
        return text
    return f"What is {text.rstrip('?').strip()}?"


# Heads of a noun phrase that name no thing a question asks about: who asks, the wh-word, the
# words a question asks for a time with ("What time ...", "which day")
NOT_A_THING = frozenset({"time", "date", "day", "what", "which", "who", "how", "i", "you", "we", "it"})


def asked_thing(doc) -> str | None:
    """What a question asks about: the head of its first noun phrase that names a thing ("the
    deadline" of "When is the deadline for submitting my application for the role?"), lower case
    and without a plural s, as recency keys words."""
    for chunk in doc.noun_chunks:
        root = chunk.root
        if root.pos_ != "PRON" and root.tag_ not in ("WP", "WDT") and root.lower_ not in NOT_A_THING:
            return root.lower_.rstrip("s")
    return None


def topic_of(doc, people: list[Mention]) -> str:
    """The question without the mentions of `people` (and their possessive 's): "What has
    Melanie painted?" -> "What has painted?". `people` are the speakers most memories are said
    by (`_speakers_named`): every memory a speaker says carries the speaker's name (restated
    turns begin "Melanie: ..."), so the name in a question pulls its embedding toward all of
    them alike and away from what is asked."""
    dropped = {i for m in people for i in m.tokens}
    if not dropped:
        return doc.text
    dropped |= {i + 1 for i in dropped if i + 1 < len(doc) and doc[i + 1].lower_ in ("'s", "’s", "'")}
    topic = " ".join("".join(t.text_with_ws for t in doc if t.i not in dropped).split())
    return topic if any(c.isalnum() for c in topic) else doc.text


def _answer_kinds(query: str, notes: list[str]) -> list[str]:
    kinds: list[str] = []
    for pattern, stored, called in ANSWER_KINDS:
        if pattern.search(query):
            kinds += stored
            notes.append(f"asks for {called}: memories mentioning {', '.join(stored)} entities")
    return list(dict.fromkeys(kinds))


def _type(query: str, entities: list[Matched], time_text: str | None, notes: list[str]) -> str:
    named = [e for e in entities if e.kind != "CONCEPT"]
    if TEMPORAL.search(query) or time_text:
        notes.append("temporal: asks when, or names a time")
        return "temporal"
    if OPEN.search(query):
        notes.append("open-domain: asks what would or might be")
        return "open-domain"
    if len(named) >= 2 or AGGREGATE.search(query):
        notes.append("multi-hop: several named entities, or gathers facts")
        return "multi-hop"
    return "single-hop"


def _time_range(doc, asked_at: datetime | None = None) -> tuple[tuple[float, float] | None, str | None]:
    """An absolute range for a DATE the query names: a day, a month or a year, one without a
    year ("in January") in the year it is `asked_at` (UTC; default: now), a relative one ("last
    week") from then."""
    import dateparser

    settings: dict[str, Any] = {"PREFER_DAY_OF_MONTH": "first", "RETURN_AS_TIMEZONE_AWARE": False}
    if asked_at is not None:
        settings["RELATIVE_BASE"] = asked_at.astimezone(timezone.utc).replace(tzinfo=None)
    for ent in doc.ents:
        if ent.label_ != "DATE":
            continue
        text = ent.text
        when = dateparser.parse(text, languages=["en"], settings=settings)
        if when is None:
            continue
        if re.fullmatch(r"\D*(19|20)\d\d\D*", text) and not re.search(r"[a-z]{3,}", text.lower().replace("in ", "")):
            start, end = datetime(when.year, 1, 1), datetime(when.year + 1, 1, 1)
        elif not re.search(r"\b\d{1,2}(st|nd|rd|th)?\b(?!\d)", text.replace(str(when.year), "")):
            start = datetime(when.year, when.month, 1)
            end = start + timedelta(days=monthrange(when.year, when.month)[1])
        else:
            start = datetime(when.year, when.month, when.day)
            end = start + timedelta(days=1)
        to = lambda d: d.replace(tzinfo=timezone.utc).timestamp()  # noqa: E731
        return (to(start), to(end)), text
    return None, None
