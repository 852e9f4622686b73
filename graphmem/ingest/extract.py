"""What a turn says, without an LLM: its restatement (first and second person made explicit),
the entities it mentions, subject-verb-object relations between them, and the absolute
time it refers to. One spaCy parse per turn feeds all four."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING

from ..keys import bounded
from .claims import Claim, claims, requested
from .markup import BREAKS, Masked, stop_words
from .messages import USER_ROLE

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span, Token

# spaCy entity labels kept as entities (dates, numbers and amounts are not entities here)
ENTITY_LABELS = {"PERSON": "PERSON", "NORP": "GROUP", "ORG": "ORG", "GPE": "GPE", "LOC": "LOC", "FAC": "FAC",
                 "EVENT": "EVENT", "WORK_OF_ART": "WORK", "PRODUCT": "PRODUCT", "LANGUAGE": "LANGUAGE",
                 "LAW": "LAW"}
KIN = {"sister", "brother", "mom", "mother", "dad", "father", "son", "daughter", "kids", "kid", "children",
       "child", "husband", "wife", "partner", "boyfriend", "girlfriend", "friend", "friends", "family",
       "grandma", "grandmother", "grandpa", "grandfather", "aunt", "uncle", "cousin", "niece", "nephew",
       "parents", "boss", "mentor", "dog", "cat", "pet", "pets", "team", "coworker", "colleague"}
NOT_PEOPLE = {"dog", "cat", "pet", "pets", "team", "family"}  # pets and groups: a name beside them is no person's
FIRST = {"i": "{s}", "me": "{s}", "myself": "{s}", "my": "{s}'s", "mine": "{s}'s"}
SECOND = {"you": "{a}", "yourself": "{a}", "your": "{a}'s", "yours": "{a}'s"}
VERB_AFTER = {("'m", "am"): "is", ("'re", "are"): "is", ("'ve", "have"): "has", ("'ll",): "will", ("'d",): "would",
              ("were",): "was"}
VAGUE = {"thank", "thanks", "lot", "thing", "stuff", "kinda", "gonna", "wow", "yeah", "bit"}
TIME_CUE = re.compile(r"\b(yesterday|today|tonight|tomorrow|ago|last|next|this|past|week|weekend|month|year|"
                      r"monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|"
                      r"may|june|july|august|september|october|november|december|\d{4})\b", re.IGNORECASE)


# doc.user_data key of the message's Masked (markup.mask), set by the caller before extraction:
# its placeholder tokens stand for code and markup, which yield no entity and no sentence
MASKED = "graphmem.masked"


def masked_of(doc: Doc) -> Masked | None:
    return doc.user_data.get(MASKED)


@dataclass
class Mention:
    name: str
    kind: str
    tokens: range  # token indices of the doc the mention covers (empty for implied speakers)


@dataclass
class Extraction:
    restated: str
    sentences: list[str] = field(default_factory=list)  # the restatement, sentence by sentence
    mentions: list[Mention] = field(default_factory=list)
    relations: list[tuple[int, str, int]] = field(default_factory=list)  # (mention, label, mention)
    refers_to: datetime | None = None
    time_text: str | None = None
    terms: dict[str, int] = field(default_factory=dict)  # lemma -> count, for the lexical index
    claims: list[Claim] = field(default_factory=list)  # what it says of someone (claims.py)
    standing: bool = False  # a standing instruction ("Always include version numbers when I ask ...")
    preference: bool = False  # a stated preference ("I prefer writing in the mornings")
    addressee: str | None = None  # whom its "you" means, when it says you and the restatement could tell


def extract(doc: Doc, speaker: str, addressee: str | None, date: datetime | None) -> Extraction:
    parts = _restated_tokens(doc, speaker, addressee)
    out = Extraction("".join(parts).strip(), _sentences(doc, parts))
    out.mentions = mentions(doc, speaker, addressee)
    out.relations = relations(doc, out.mentions)
    out.claims = claims(doc, speaker, addressee, out.mentions)
    out.refers_to, out.time_text = resolve_time(doc, date)
    out.standing = speaker == USER_ROLE and standing_instruction(doc)
    out.preference = speaker == USER_ROLE and not out.standing and stated_preference(doc)
    if addressee and says_you(doc):
        out.addressee = addressee
    return out


def says_you(doc: Doc) -> bool:
    """Whether the turn speaks to its listener ("you", "your"): then its addressee is among its
    mentions, and the restatement names them."""
    return any(t.lower_ in SECOND for t in doc)


# -- standing instructions ---------------------------------------------------------------

# Words that make a request hold beyond the turn it is made in.
STANDING = re.compile(r"\b(always|never|from now on|every time|whenever|going forward|in (the )?future|"
                      r"each time)\b", re.IGNORECASE)
NOT_STANDING = re.compile(r"\bnever mind\b", re.IGNORECASE)
# A request with a subject: "I want you to always cite sources", "Please never ...".
ASKING = re.compile(r"\b(i want you to|i'd like you to|i would like you to|please)\b", re.IGNORECASE)
# A standing instruction is a short turn: a long one is a conversation that happens to say "always".
STANDING_CHARS = 400


def standing_instruction(doc: Doc) -> bool:
    """Whether the turn tells its listener how to act from now on: a short turn with a sentence
    that is a request (an imperative: "Always include version numbers when I ask about
    libraries", "Never use emojis"; "I want you to ...", "please ..."; or a question that asks
    for it: "Could you always cite your sources?") and says it holds
    beyond this turn (always, never, from now on, whenever, every time, going forward). Only a
    user's message to an agent is read so (`extract`): between people, "never give up!" is
    encouragement, not an instruction."""
    text = doc.text.strip()
    if len(text) > STANDING_CHARS or not STANDING.search(text) or NOT_STANDING.search(text):
        return False
    for sent in doc.sents:
        if not STANDING.search(sent.text):
            continue
        if sent.text.rstrip().endswith("?"):  # a question asks; it instructs only when it asks the listener to act
            if requested(sent):
                return True
        elif ASKING.search(sent.text) or _imperative(sent):
            return True
    return False


def _imperative(sent: Span) -> bool:
    """A verb with no subject heads the sentence; or the sentence opens with "always" or
    "never" and a word spaCy's small model takes for a noun or a present verb ("Always format
    dates ...", "Always include ..." are parsed so)."""
    root = sent.root
    if root.tag_ in ("VB", "VBP") and not any(c.dep_ in ("nsubj", "nsubjpass", "expl") for c in root.children):
        return True
    words = [t for t in sent if not t.is_punct and t.lower_ != "please"]
    return len(words) > 1 and words[0].lower_ in ("always", "never") and words[1].tag_ in ("VB", "VBP", "NN")


# -- stated preferences ------------------------------------------------------------------

# "I prefer", "I'd much prefer", "I'd rather", "my preference": the user says what they like
# better. Not "do I prefer ...?", which asks.
PREFERS = re.compile(r"(?<!\bdo )(?<!\bdid )(?<!\bwould )(?<!\bshould )"
                     r"\b(I(['’]d| would)?( (really|usually|generally|much|still|now|always|strongly|definitely))? prefer"
                     r"|I(['’]d| would)( much)? rather|my (personal )?preference)\b", re.IGNORECASE)
# A stated preference is a short turn: a long one is a conversation that happens to prefer something.
PREFERENCE_CHARS = 600


def stated_preference(doc: Doc) -> bool:
    """Whether the turn states what its speaker prefers ("I prefer e-books for their
    portability", "I'd rather keep dependencies minimal"): a short turn saying so in the first
    person. Read only in a user's message to an agent (`extract`), as standing instructions
    are: the agent's later suggestions should follow it."""
    text = doc.text.strip()
    return len(text) <= PREFERENCE_CHARS and PREFERS.search(text) is not None


# -- terms ----------------------------------------------------------------------------

WORD = re.compile(r"[^\W_]+")


def terms(doc: Doc, speaker: str, caption: str | None) -> dict[str, int]:
    """What the lexical channel matches: lower-cased lemmas of the turn's content words, the
    speaker's name and the words of an image caption, with their counts."""
    from collections import Counter

    stop = stop_words()
    words = [(t.lemma_ or t.text).lower() for t in doc if (t.is_alpha or t.like_num) and not t.is_stop]
    words += WORD.findall(speaker.lower())
    masked = masked_of(doc)
    if masked is not None:  # code identifiers and the unparsed rest: questions name functions and libraries
        words += [w for w in masked.unparsed_words() if w not in stop]
    if caption:
        words += [w for w in WORD.findall(caption.lower()) if w not in stop]
    return dict(Counter(map(bounded, words)))


def query_terms(doc: Doc) -> list[str]:
    return list(dict.fromkeys(bounded((t.lemma_ or t.text).lower()) for t in doc
                              if (t.is_alpha or t.like_num) and not t.is_stop))


# -- restatement ----------------------------------------------------------------------


def _sentences(doc: Doc, parts: list[str]) -> list[str]:
    """The restatement (`parts`, one per token) cut where spaCy cuts the turn's sentences (one
    piece when the pipeline sets no sentence boundaries); pieces without a word are left out. A
    code block ends a sentence and is none itself; the unparsed rest of a long message is cut
    by its punctuation (markup.Masked.rest_sentences)."""
    spans = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    masked = masked_of(doc)
    if masked is None or not masked.spans:
        pieces = ["".join(parts[span.start:span.end]).strip() for span in spans]
    else:
        pieces = []
        for span in spans:
            piece: list[str] = []
            for token in span:
                if masked.kind(token.text) in BREAKS:
                    pieces.append("".join(piece).strip())
                    piece = []
                else:
                    piece.append(parts[token.i])
            pieces.append("".join(piece).strip())
        pieces += masked.rest_sentences()
    return [p for p in pieces if WORD.search(p)]


def restate(doc: Doc, speaker: str, addressee: str | None = None) -> str:
    """The text said by `speaker` (to `addressee`) with its first and second person made
    explicit: "I went with my sister" said by Caroline -> "Caroline went with Caroline's sister"."""
    return "".join(_restated_tokens(doc, speaker, addressee)).strip()


def _restated_tokens(doc: Doc, speaker: str, addressee: str | None) -> list[str]:
    """Each token's text in the restatement (`restate`), with the space before it."""
    parts = []
    replaced_subject = False
    masked = masked_of(doc)
    for token in doc:
        low = token.lower_
        text = token.text
        original = masked.restore_token(text) if masked is not None else None
        if original is not None:  # code and markup, put back as written
            text, replaced_subject = original, False
        elif low in FIRST:
            text, replaced_subject = FIRST[low].format(s=speaker), low == "i"
        elif low in SECOND and addressee:
            text, replaced_subject = SECOND[low].format(a=addressee), low == "you"
        elif replaced_subject:
            for forms, verb in VERB_AFTER.items():
                if low in forms:
                    text = verb
                    break
            replaced_subject = False
        if text != token.text and token.text[:1].isupper() and not text[:1].isupper():
            text = text[:1].upper() + text[1:]
        needs_space = token.i > 0 and (doc[token.i - 1].whitespace_ or (low.startswith("'") and text != token.text))
        parts.append((" " if needs_space else "") + text)
    return parts


# -- entities -------------------------------------------------------------------------


def mentions(doc: Doc, speaker: str, addressee: str | None) -> list[Mention]:
    """Named entities, proper-noun runs, kin ("my sister" -> "Caroline's sister"), the
    speaker when the turn speaks of itself (I, my) and the addressee when it says you, and
    the concepts (noun phrase heads) the turn is about."""
    found: list[Mention] = []
    masked = masked_of(doc)
    # code and markup placeholders: nothing is read from inside them
    taken: set[int] = {t.i for t in doc if masked.kind(t.text)} if masked is not None and masked.spans else set()

    def add(name: str, kind: str, tokens: range) -> None:
        name = " ".join(name.split()).strip(" '\"-.,!?")
        if len(name) < 2 or any(i in taken for i in tokens):
            return
        taken.update(tokens)
        found.append(Mention(name, kind, tokens))

    # a name beside a kin word is a person's, whatever spaCy's small model took it for (it reads
    # many names as places or organisations, and some as no entity at all)
    people = {i for kin in doc if kin.lower_ in KIN and kin.lower_ not in NOT_PEOPLE
              for name in _named(kin) for i in range(name.start, name.end)}
    for ent in doc.ents:
        if ent.label_ in ("DATE", "TIME"):
            taken.update(range(ent.start, ent.end))  # times are resolved, not entities
        elif ent.label_ in ENTITY_LABELS:
            span = _trim(ent)
            if span is not None:
                tokens = range(span.start, span.end)
                add(span.text, "PERSON" if people.intersection(tokens) else ENTITY_LABELS[ent.label_], tokens)
    for token in doc:
        if token.lower_ in KIN and token.i not in taken:
            owner = _owner(token, speaker, addressee)
            if owner:
                add(f"{owner}'s {token.lemma_.lower()}", "PERSON", range(token.i, token.i + 1))
    for run in _propn_runs(doc):
        if not any(i in taken for i in run):
            add(doc[run.start:run.stop].text, "PERSON" if people.intersection(run) else "PROPN", run)
    for token in doc:
        if token.pos_ == "NOUN" and not token.is_stop and token.i not in taken and len(token.lemma_) > 2 \
                and token.lemma_.isalpha() and token.lemma_.lower() not in VAGUE \
                and not (token.dep_ == "compound" and token.head.pos_ == "NOUN"):
            compound = [c for c in token.children if c.dep_ == "compound" and c.pos_ == "NOUN" and c.i not in taken]
            start = compound[0].i if compound else token.i
            name = " ".join([c.lower_ for c in compound] + [token.lemma_.lower()])
            add(name, "CONCEPT", range(start, token.i + 1))
    if any(t.lower_ in FIRST for t in doc):
        found.append(Mention(speaker, "PERSON", range(0)))
    if addressee and says_you(doc):
        found.append(Mention(addressee, "PERSON", range(0)))
    return found


def _named(kin: Token) -> list[Span]:
    """The names a kin word of someone's stands beside, as the parse joins them: "my sister Leah",
    "Leah, my sister", "my kids Ana and Bo" (each with its other proper nouns: "my boss Priya
    Nair"); none beside one of no one's ("shows like "Friends," "Game of Thrones"")."""
    if not any(c.dep_ == "poss" for c in kin.children):
        return []
    beside = [c for c in kin.children if c.dep_ == "appos"] + ([kin.head] if kin.dep_ == "appos" else [])
    name = next((t for t in beside if t.pos_ == "PROPN"), None)
    if name is None:
        return []
    names = [name] + [c for c in name.children if c.dep_ == "conj" and c.pos_ == "PROPN"]
    return [name.doc[_first_of_name(n):n.i + 1] for n in names]


def _first_of_name(last: Token) -> int:
    start = last.i
    while start > 0 and last.doc[start - 1].pos_ == "PROPN" and last.doc[start - 1].head == last:
        start -= 1
    return start


def _trim(ent: Span) -> Span | None:
    """Drop leading determiners and possessive endings: "the Smiths's" -> "Smiths"."""
    start, end = ent.start, ent.end
    while start < end and ent.doc[start].pos_ in ("DET", "PRON", "PUNCT", "CCONJ"):
        start += 1
    while end > start and ent.doc[end - 1].pos_ in ("PART", "PUNCT", "CCONJ"):
        end -= 1
    return ent.doc[start:end] if end > start else None


def _owner(token: Token, speaker: str, addressee: str | None) -> str | None:
    for child in token.children:
        if child.dep_ == "poss":
            low = child.lower_
            if low in ("my", "mine"):
                return speaker
            if low in ("your", "yours"):
                return addressee
            if child.pos_ == "PROPN":
                return child.text
    return None


def _propn_runs(doc: Doc) -> list[range]:
    runs, start = [], None
    for token in list(doc) + [None]:
        if token is not None and token.pos_ == "PROPN" and token.is_alpha and not token.is_stop:
            start = token.i if start is None else start
        elif start is not None:
            runs.append(range(start, token.i if token is not None else len(doc)))
            start = None
    return runs


# -- relations ------------------------------------------------------------------------


def relations(doc: Doc, found: list[Mention]) -> list[tuple[int, str, int]]:
    """(subject, verb[_preposition], object) between mentions, from the dependency parse."""
    at: dict[int, int] = {}
    for index, mention in enumerate(found):
        for i in mention.tokens:
            at[i] = index
    speaker_index = next((i for i, m in enumerate(found) if not m.tokens and m.kind == "PERSON"), None)
    out = []
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.lemma_ == "be" and verb.dep_ == "aux":
            continue
        subjects = [c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")]
        objects = [(c, "") for c in verb.children if c.dep_ in ("dobj", "attr", "oprd")]
        objects += [(g, "_" + p.lower_) for p in verb.children if p.dep_ in ("prep", "dative")
                    for g in p.children if g.dep_ == "pobj"]
        for subject in subjects:
            s = at.get(subject.i, speaker_index if subject.lower_ == "i" else None)
            for obj, prep in objects:
                o = at.get(obj.i)
                if s is not None and o is not None and s != o:
                    out.append((s, verb.lemma_.lower() + prep, o))
    return out


# -- times ----------------------------------------------------------------------------


def resolve_time(doc: Doc, date: datetime | None) -> tuple[datetime | None, str | None]:
    """The first DATE expression resolved against the session date: "last Saturday" said on
    Monday 8 May 2023 -> 2023-05-06."""
    if date is None or not TIME_CUE.search(doc.text):
        return None, None
    for ent in doc.ents:
        if ent.label_ == "DATE":
            when = parse_relative(ent.text, date)
            if when is not None:
                return when, ent.text
    return None, None


def parse_relative(text: str, base: datetime) -> datetime | None:
    return _parse_relative(text.lower().strip(), base)


@lru_cache(maxsize=4096)
def _parse_relative(text: str, base: datetime) -> datetime | None:
    import dateparser

    text = re.sub(r"^(the|this past|over the|on|in|during|since)\s+", "", text)
    return dateparser.parse(text, languages=["en"], settings={
        "RELATIVE_BASE": base, "PREFER_DATES_FROM": "past", "RETURN_AS_TIMEZONE_AWARE": False})
