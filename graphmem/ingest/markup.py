"""Code and markup in a message, set apart from its prose before the parse.

Technical messages carry fenced code blocks, inline code, LaTeX and HTML tags. spaCy reads
them as prose: `request.get_json` becomes a person, `generate_password_hash(password` a place,
LaTeX a law, and every line of code a sentence; parsing them is also most of the parse's time.
`mask` replaces each such span with a placeholder word the parser treats as one opaque noun,
and remembers the span, so that extraction skips it (no entity, concept or sentence comes from
inside it) and the restatement puts it back verbatim. Single dollar signs are left alone: in
chat they are mostly prices and template strings, not LaTeX.

A long message's prose past `prose_limit` characters is masked too, as one "rest" span: the
parse (entities, relations, restatement) reads the head of the message, and the rest is kept
verbatim, cut into sentences by punctuation (`split_sentences`) and searchable by its words.
Parsing grows with the text, and the long messages of technical chats are mostly an
assistant's explanations, whose named things come early.

The prose the parse reads is typed plainly (`plain_typing`), as recall reads its questions and
memories: a phone's "I’m" and a hurried chat's "im" are "I'm" and "i'm" to every reader of words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

# A fenced block runs from its opening fence line to a closing fence of the same kind (or the
# end of the message: an unclosed fence is still code).
_FENCE = r"(?P<fence>^[ \t]*(?P<tick>```|~~~)[^\n]*\n(?:.*?\n)??[ \t]*(?P=tick)[ \t]*$|^[ \t]*(?:```|~~~).*\Z)"
_MATH = r"(?P<math>\$\$.+?\$\$|\\\[.+?\\\]|\\\(.+?\\\))"
_INLINE = r"(?P<inline>`[^`\n]+`)"
_TAG = r"(?P<tag></?[A-Za-z][\w-]*(?:\s[^<>\n]*)?/?>)"
# A Markdown heading: title case the parser takes for names ("Login Route" a person), glued to
# the paragraph below it; it ends a sentence and is none itself.
_HEADING = r"(?P<heading>^[ \t]*\#{1,6}[ \t][^\n]*$)"
KINDS = ("fence", "math", "inline", "tag", "heading")
SPANS = re.compile("|".join((_FENCE, _MATH, _INLINE, _TAG, _HEADING)), re.MULTILINE | re.DOTALL)
# spans that end a sentence and are no sentence themselves
BREAKS = ("fence", "heading", "rest")
# What a placeholder looks like: a lowercase word no message uses, numbered so that each maps
# back to its span. A message that happens to contain the stem is not masked at all.
STEM = "zqxspan"
PLACEHOLDER = re.compile(STEM + r"(\d+)")
# Code is searchable by its identifiers' words (`check_password_hash` -> check, password, hash):
# questions name functions and libraries. Language keywords are common words the lexical
# channel weighs down by their frequency.
CODE_WORD = re.compile(r"[A-Za-z][a-z]+|[A-Z]+(?![a-z])")


@dataclass
class Masked:
    """A message with its code and markup spans replaced by placeholders (`text`), the spans in
    order (`spans`, each with its kind: fence, math, inline, tag)."""

    text: str
    spans: list[tuple[str, str]] = field(default_factory=list)

    def restore_token(self, token_text: str) -> str | None:
        """The text a placeholder token stands for, as written, else None."""
        match = PLACEHOLDER.fullmatch(token_text)
        if match is None or int(match.group(1)) >= len(self.spans):
            return None
        return self.restore(self.spans[int(match.group(1))][1])

    def kind(self, token_text: str) -> str | None:
        """The kind of span a placeholder token stands for, else None."""
        match = PLACEHOLDER.fullmatch(token_text)
        if match is None or int(match.group(1)) >= len(self.spans):
            return None
        return self.spans[int(match.group(1))][0]

    def restore(self, text: str, drop: tuple[str, ...] = ()) -> str:
        """`text` (a piece of the masked text) with its placeholders replaced by their spans,
        those of the kinds in `drop` by a space."""
        if STEM not in text:
            return text

        def span(match: re.Match) -> str:
            index = int(match.group(1))
            if index >= len(self.spans):
                return match.group(0)
            kind, original = self.spans[index]
            return " " if kind in drop else self.restore(original, drop)

        return PLACEHOLDER.sub(span, text)

    def rest_sentences(self) -> list[str]:
        """The sentences of the unparsed rest (none when the whole message was parsed), code
        blocks left out."""
        pieces = (" ".join(self.restore(s, drop=BREAKS).split())
                  for kind, span in self.spans if kind == "rest" for s in split_sentences(span))
        return [p for p in pieces if p]

    def unparsed_words(self) -> list[str]:
        """The words the parse did not read, lower-cased, for the lexical channel: code
        identifiers (camelCase and snake_case split) and the rest's words."""
        return [w.lower() for kind, span in self.spans if kind != "tag"
                for w in CODE_WORD.findall(span if kind != "rest" else PLACEHOLDER.sub(" ", span))]


def mask(text: str, prose_limit: int | None = None) -> Masked:
    """`text` with its code and markup spans replaced, and its prose past `prose_limit`
    characters (see the module's docstring)."""
    long = prose_limit is not None and len(text) > prose_limit
    if STEM in text or not (long or any(c in text for c in "`\\<~$#")):
        return Masked(plain_typing(text))
    spans: list[tuple[str, str]] = []

    def placeholder(match: re.Match) -> str:
        kind = next(k for k in KINDS if match.group(k) is not None)
        spans.append((kind, match.group(0)))
        # a space where the span touches a word, so that the placeholder is a token of its own
        before = " " if match.start() > 0 and text[match.start() - 1].isalnum() else ""
        after = " " if match.end() < len(text) and text[match.end()].isalnum() else ""
        return f"{before}{STEM}{len(spans) - 1}{after}"

    masked = plain_typing(SPANS.sub(placeholder, text))  # the spans stay as written
    if prose_limit is not None and len(masked) > prose_limit:
        cut = _boundary(masked, prose_limit)
        if cut < len(masked):
            spans.append(("rest", masked[cut:]))
            masked = f"{masked[:cut]}{STEM}{len(spans) - 1}"
    return Masked(masked, spans)


# Every reader of words (the parse, the readings of claims and of versions) reads "don't" and
# "Joe's" spelt with an ASCII apostrophe. People type them otherwise: typographic quotes, as
# phones and word processors type them, are read as the plain ones (one person's "Joe’s" is
# another's "Joe's"); and a hurried chat's contractions without their apostrophe ("im", "dont",
# "youre") with it: those that spell no English word ("ill", "its", "were", "well", "id", "hell",
# "lets" do), in lower case or capitalised ("Dont"); "Im" and "Ive", which are names too, but not
# after a capitalised word that is no function word ("so Im moving", "So Im moving", not "Jony
# Ive", "Yoon-ah Im").
PLAIN_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u201c": '"', "\u201d": '"'})
UNMARKED = {word.replace("'", ""): word for word in (
    "don't", "doesn't", "didn't", "isn't", "aren't", "wasn't", "weren't", "haven't", "hasn't", "hadn't",
    "won't", "wouldn't", "can't", "couldn't", "shouldn't", "mustn't", "needn't", "ain't",
    "i'm", "i've", "you've", "we've", "they've", "would've", "could've", "should've", "you're", "they're",
    "that's", "what's", "there's", "where's", "she's", "you'll", "they'll", "that'll", "you'd", "they'd")}
CONTRACTED = re.compile(r"\b(?:" + "|".join(UNMARKED) + r")\b", re.IGNORECASE)
NAMES_TOO = {"im", "ive"}
NAME_BEFORE = re.compile(r"\b([A-Z][\w'-]*)[ \t]+$")


def plain_typing(text: str) -> str:
    """`text` as the readers of words know it: its typographic quotes plain, its unmarked
    contractions marked (PLAIN_QUOTES, UNMARKED)."""
    def marked(match: re.Match) -> str:
        word = match.group(0)
        if word.islower():
            return UNMARKED[word]
        if word[1:].islower() and (word.lower() not in NAMES_TOO or not _after_a_name(match)):
            return UNMARKED[word.lower()].capitalize()
        return word

    return CONTRACTED.sub(marked, text.translate(PLAIN_QUOTES))


def _after_a_name(match: re.Match) -> bool:
    before = NAME_BEFORE.search(match.string, 0, match.start())
    return before is not None and before.group(1).lower() not in stop_words()


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """spaCy's English stop words."""
    from spacy.lang.en.stop_words import STOP_WORDS  # here: the one-shot CLI commands import no spaCy

    return frozenset(STOP_WORDS)


def prose(text: str) -> str:
    """`text` with its code and markup spans left out."""
    return SPANS.sub(" ", text)


def _boundary(text: str, at: int) -> int:
    """Where to cut `text` near `at`: the next paragraph, else line, else sentence end, else
    space (the cut keeps the whitespace before it)."""
    window = text[at:at + 1000]
    for pattern in (r"\n\s*\n", r"\n", r"[.!?]\s", r"\s"):
        match = re.search(pattern, window)
        if match:
            return at + match.end()
    return len(text)


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[A-Z0-9*])|\s*\n\s*")


def split_sentences(text: str) -> list[str]:
    """Sentences by punctuation and line breaks, for prose that was not parsed; a piece that is
    a code block alone is left out."""
    out = []
    for piece in SENTENCE_END.split(text):
        piece = piece.strip()
        if piece and not is_placeholder(piece):
            out.append(piece)
    return out


def is_placeholder(token_text: str) -> bool:
    return PLACEHOLDER.fullmatch(token_text) is not None
