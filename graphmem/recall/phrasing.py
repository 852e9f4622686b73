"""The user's question asked back by the agent, zero-LLM: "Where does Caroline's sister
live?" becomes "Do you know where Caroline's sister lives?" (recall's gaps ask it). The parse
undoes the question's inversion: the wh-phrase, then the subject, then the auxiliary (a do is
dropped and its tense and person go to the verb), then the rest; a yes/no question becomes
"whether ..."; the asker's I and my become you and your."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

WH = {"WDT", "WP", "WP$", "WRB"}
SUBJECTS = {"nsubj", "nsubjpass", "expl"}
# A wh-phrase is at most this many words before its auxiliary ("What kind of pottery does ..."),
# made of these parts of speech.
WH_PHRASE = 7
WH_PHRASE_PARTS = {"NOUN", "PROPN", "ADJ", "ADV", "DET", "ADP", "NUM", "PUNCT", "SYM", "CCONJ"}
# the asker's words as the agent says them to the asker
TO_YOU = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are"}
PAST = {"be": "was", "have": "had", "do": "did", "go": "went", "meet": "met", "see": "saw", "buy": "bought",
        "make": "made", "take": "took", "get": "got", "give": "gave", "come": "came", "find": "found",
        "leave": "left", "tell": "told", "say": "said", "think": "thought", "know": "knew", "eat": "ate",
        "drink": "drank", "write": "wrote", "read": "read", "run": "ran", "begin": "began", "bring": "brought",
        "build": "built", "feel": "felt", "fly": "flew", "grow": "grew", "hear": "heard", "keep": "kept",
        "lose": "lost", "pay": "paid", "put": "put", "sell": "sold", "send": "sent", "sing": "sang", "sit": "sat",
        "sleep": "slept", "speak": "spoke", "spend": "spent", "stand": "stood", "swim": "swam", "teach": "taught",
        "win": "won", "wear": "wore", "ride": "rode", "draw": "drew", "choose": "chose", "catch": "caught",
        "break": "broke", "become": "became", "fall": "fell", "forget": "forgot", "hold": "held", "lead": "led",
        "let": "let", "mean": "meant", "set": "set", "cut": "cut", "hit": "hit", "hurt": "hurt", "quit": "quit",
        "throw": "threw", "understand": "understood", "wake": "woke", "drive": "drove", "shut": "shut",
        "light": "lit", "lend": "lent", "bend": "bent", "feed": "fed", "fight": "fought", "forgive": "forgave",
        "hide": "hid", "shoot": "shot", "sink": "sank", "steal": "stole", "stick": "stuck", "strike": "struck",
        "swing": "swung", "tear": "tore", "bite": "bit", "blow": "blew", "dig": "dug", "freeze": "froze"}
PRESENT = {"be": "is", "have": "has", "do": "does", "go": "goes"}
VOWELS = "aeiou"


def ask_back(doc: "Doc") -> str | None:
    """The question in `doc` as one the agent asks the user: "Where does Caroline's sister
    live?" -> "Do you know where Caroline's sister lives?", "Did Carol meet Rex?" -> "Do you know
    whether Carol met Rex?"; the asker's I and my become you and your. None when `doc` is not a
    question this can turn (no wh-word and no leading auxiliary)."""
    tokens = [t for t in doc if not (t.is_punct and t.i == len(doc) - 1)]
    if not tokens:
        return None
    wh = tokens[0].tag_ in WH or len(tokens) > 1 and tokens[0].pos_ == "ADP" and tokens[1].tag_ in WH  # "In which city"
    aux = next((t for t in tokens[:WH_PHRASE + 1] if t.pos_ == "AUX" and _subject_after(t) is not None), None)
    said: list[tuple["Token | None", str]] = []  # (the question's token, or None for a word added; its text)
    if aux is None or not (aux.i == 0 or wh and all(t.tag_ in WH or t.pos_ in WH_PHRASE_PARTS for t in tokens[:aux.i])):
        if not wh:
            return None
        said = [(t, _you(t)) for t in tokens]  # the wh-word is the subject ("Who adopted Rex?"): as it stands
    else:
        subject = _subject_after(aux)
        assert subject is not None
        start, end = subject.left_edge.i, _subject_end(subject, aux)
        do = aux.lemma_.lower() == "do"
        verb = aux.head if do and aux.head.i >= end and aux.head.pos_ in ("VERB", "AUX") else None
        said = [(t, _you(t)) for t in tokens[:aux.i]] + ([] if wh else [(None, "whether")])
        said += [(t, _you(t)) for t in doc[start:end]]
        if not do:
            said.append((aux, _you(aux, subject_is_i=subject.lower_ == "i")))
        said += [(t, _inflect(t.lower_, aux) if verb is not None and t.i == verb.i else _you(t)) for t in tokens[end:]]
    out = ""
    for (t, text), (after, _) in zip(said, said[1:] + [(None, "")]):
        adjacent = t is not None and after is not None and after.i == t.i + 1
        out += text + (t.whitespace_ if adjacent and t is not None else " ")
    return f"Do you know {out.strip()}?"


def _subject_end(subject: "Token", aux: "Token") -> int:
    """Where the subject's words end: its whole subtree, unless the parse hung the main verb of
    `aux` on it ("When is Caroline's youth center putting on a show?": the subject ends before
    "putting")."""
    end = subject.right_edge.i + 1
    verb = aux.head
    if aux.dep_ in ("aux", "auxpass") and subject.left_edge.i < verb.i < end:
        return verb.i
    # or parsed the participle after "is" or "has" as the subject's modifier
    participle = next((c for c in subject.rights if c.dep_ == "acl" and c.tag_ in ("VBG", "VBN")
                       and c.i == subject.i + 1), None)
    if participle is not None and aux.lemma_ in ("be", "have"):
        return participle.i
    return end


def _subject_after(aux: "Token") -> "Token | None":
    return next((t for t in aux.doc[aux.i + 1:] if t.dep_ in SUBJECTS and t.head.i in (aux.i, aux.head.i)
                 and t.left_edge.i == aux.i + 1), None)


def _you(t: "Token", subject_is_i: bool = False) -> str:
    if subject_is_i and t.lower_ == "was":
        return "were"
    swapped = TO_YOU.get(t.lower_)
    if swapped is not None:
        return swapped
    if t.i == 0 and t.pos_ != "PROPN":  # the question's capital goes inside "Do you know ..."
        return t.text[:1].lower() + t.text[1:]
    return t.text


def _inflect(verb: str, aux: "Token") -> str:
    """`verb` (a base form) in the tense and person the do-auxiliary `aux` carried."""
    did = aux.lower_ == "did" or "Tense=Past" in str(aux.morph)
    if did:
        return PAST.get(verb) or _regular_past(verb)
    if aux.lower_ == "does":
        return PRESENT.get(verb) or _third_person(verb)
    return verb


def _regular_past(verb: str) -> str:
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in VOWELS:
        return verb[:-1] + "ied"
    if (len(re.findall(f"[{VOWELS}]+", verb)) == 1 and len(verb) >= 3 and verb[-1] not in VOWELS + "wxy"
            and verb[-2] in VOWELS and verb[-3] not in VOWELS):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _third_person(verb: str) -> str:
    if re.search(r"(s|x|z|ch|sh|o)$", verb):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in VOWELS:
        return verb[:-1] + "ies"
    return verb + "s"
