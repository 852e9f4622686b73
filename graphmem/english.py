"""English verb forms the zero-LLM rewriting needs: a verb's past, and its third person singular
present (a speaker's "I live" restated as "Sam lives", a question's "does she live" asked
back as "she lives"). Regular rules and a table of the common irregular verbs."""

from __future__ import annotations

import re

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
# the third person of a present form a first-person subject takes, contractions included
PRESENT = {"be": "is", "am": "is", "'m": "is", "are": "is", "'re": "is", "have": "has", "'ve": "has", "do": "does",
           "go": "goes"}
VOWELS = "aeiou"


def past(verb: str) -> str:
    """The past of `verb` (a base form)."""
    return PAST.get(verb) or _regular_past(verb)


def third_person(verb: str) -> str:
    """The third person singular present of `verb` (a base or first-person present form, lower
    case): live -> lives, am -> is, 've -> has."""
    return PRESENT.get(verb) or _regular_third_person(verb)


def _regular_past(verb: str) -> str:
    if verb.endswith("e"):
        return verb + "d"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in VOWELS:
        return verb[:-1] + "ied"
    if (len(re.findall(f"[{VOWELS}]+", verb)) == 1 and len(verb) >= 3 and verb[-1] not in VOWELS + "wxy"
            and verb[-2] in VOWELS and verb[-3] not in VOWELS):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def _regular_third_person(verb: str) -> str:
    if re.search(r"(s|x|z|ch|sh|o)$", verb):
        return verb + "es"
    if len(verb) > 2 and verb.endswith("y") and verb[-2] not in VOWELS:
        return verb[:-1] + "ies"
    return verb + "s"
