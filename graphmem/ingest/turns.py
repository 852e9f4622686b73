"""A turn: one message of a transcript, as every reader gives it, and what readers share: the
bound on a turn's length, what a turn's text may hold, and dates read as naive UTC."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any, Iterable

from ..errors import InputError
from ..keys import unstorable

# The longest turn parsed as one: longer ones are split at whitespace into consecutive turns of
# the same speaker, session and date (source ids "chat.txt:12", "chat.txt:12#2", ...). spaCy
# refuses a text over nlp.max_length (1,000,000 characters), and parsing one needs memory in
# proportion to its length: measured with en_core_web_sm, about 55 MiB for 20,000 characters
# (300 MiB for 100,000), so this bounds what one turn's parse may take. A chat message is
# rarely a tenth of it (20,000 characters are about 3,500 words).
MAX_TURN_CHARS = 20_000


@dataclass(frozen=True)
class Turn:
    source_id: str  # LoCoMo dia_id ("D1:3"); a JSON message's id; else "file:line" ("messages:3" from to_turns)
    speaker: str
    text: str
    session: str  # "1", "2", ... ; a JSONL session; a text file's block number
    session_date: datetime | None
    line: int  # 1-based line in the source file, for error messages
    caption: str | None = None  # LoCoMo blip_caption: the caption of a shared image
    index: int = 0  # position in the transcript
    message_id: str | None = None  # the message's own id, when its source gives one (a JSON "id", a dia_id)


def check_storable(turns: Iterable[Turn], source: str | None) -> None:
    """InputError naming the first turn, by `source` and its line (else by its source id), with
    a field no backend can store: checked before anything is written, on every backend alike."""
    for t in turns:
        for field, value in (("speaker", t.speaker), ("text", t.text), ("caption", t.caption),
                             ("session", t.session), ("id", t.message_id)):
            problem = unstorable(value) if isinstance(value, str) else None
            if problem is not None:
                message = f"the message's {field} holds {problem}, which cannot be stored"
                if source is None:
                    raise InputError(message, source=f"turn {t.source_id}")
                raise InputError(message, source=source, line=t.line)


def split_long_turns(turns: list[Turn], limit: int | None = None) -> list[Turn]:
    """Each turn longer than `limit` (MAX_TURN_CHARS) as consecutive turns of at most that many
    characters, cut at whitespace where there is some in the second half of the window; the
    pieces after the first get source ids (and message ids) `ID#2`, `ID#3`, ..."""
    limit = limit or MAX_TURN_CHARS
    if all(len(t.text) <= limit for t in turns):
        return turns
    out = []
    for turn in turns:
        pieces = _pieces(turn.text, limit) if len(turn.text) > limit else [turn.text]
        for number, piece in enumerate(pieces, start=1):
            if number == 1:
                out.append(replace(turn, text=piece))
                continue
            out.append(replace(turn, text=piece, source_id=f"{turn.source_id}#{number}",
                               message_id=f"{turn.message_id}#{number}" if turn.message_id else None))
    return out


def _pieces(text: str, limit: int) -> list[str]:
    pieces, start = [], 0
    while len(text) - start > limit:
        end = start + limit
        cut = max(text.rfind(space, start, end + 1) for space in " \n\t\r")
        cut = cut if cut > start + limit // 2 else end  # no whitespace near the end: cut the word
        if text[start:cut].strip():
            pieces.append(text[start:cut].strip())
        start = cut
    if text[start:].strip():
        pieces.append(text[start:].strip())
    return pieces


def _parse_date(value: Any, *, date_order: str | None = None) -> datetime | None:
    """An absolute date, as naive UTC, from epoch seconds or milliseconds (UTC), ISO text (an
    offset is converted to UTC; none is taken as UTC) or LoCoMo's "1:56 pm on 8 May, 2023";
    None when it is not one. `date_order` ("DMY", "MDY") reads numeric dates like 08/05/2023."""
    if value is None or value == "" or isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return _from_epoch(value)
    text = str(value).strip()
    if re.fullmatch(r"\d{9,14}(\.\d+)?", text):
        return _from_epoch(float(text))
    try:
        return _naive_utc(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        pass
    import dateparser

    settings: dict[str, Any] = {"STRICT_PARSING": False, "REQUIRE_PARTS": ["day", "month", "year"]}
    if date_order:
        settings["DATE_ORDER"] = date_order
    return _naive_utc(dateparser.parse(text, languages=["en"], settings=settings))


def _from_epoch(value: float) -> datetime | None:
    """Seconds since 1970 (UTC); a value above 1e11 (the year 5138 in seconds) is milliseconds."""
    try:
        return datetime.fromtimestamp(value / 1000 if abs(value) > 1e11 else value, timezone.utc).replace(tzinfo=None)
    except (OverflowError, OSError, ValueError):
        return None


def _naive_utc(moment: datetime | None) -> datetime | None:
    if moment is None or moment.tzinfo is None:
        return moment
    return moment.astimezone(timezone.utc).replace(tzinfo=None)
