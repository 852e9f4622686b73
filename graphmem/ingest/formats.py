"""Chat transcripts in, `Turn`s out: LoCoMo conversation JSON, JSON Lines of messages (or an
OpenAI-style `messages` array), and plain `Speaker: text` lines.

Every reader validates the whole file before returning, so a malformed file is rejected
before anything is written, naming the file and line. Messages in JSON go through the same
normalisation as an agent's messages (`messages.Normaliser`): OpenAI or Anthropic shape, names
as speakers, no system prompts or tool plumbing. Every datetime read is naive UTC: offsets are
converted, epochs (seconds or milliseconds) are UTC. A turn longer than `turns.MAX_TURN_CHARS` is
split into consecutive turns, so no one parse holds more than that much text."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from ..errors import InputError
from .turns import Turn, _parse_date, check_storable, split_long_turns

FORMATS = ("locomo", "jsonl", "messages", "text")
JSON_MESSAGES = ("jsonl", "messages")  # the formats whose messages are normalised (messages.Normaliser)


def read_transcript(path: str | Path, format: str | None = None, *, keep_tool_results: bool = False) -> list[Turn]:
    """Parse one transcript file; `format` overrides detection (one of FORMATS);
    `keep_tool_results` keeps the tool results of JSON messages as the tools' observations."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8").removeprefix("\ufeff")
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None
    except IsADirectoryError:
        raise InputError("a directory, not a file", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", source=str(path)) from None
    if not raw.strip():
        raise InputError("empty file", source=str(path))
    fmt = format or detect_format(raw, path)
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}", source=str(path))
    if fmt in JSON_MESSAGES:
        turns = READERS[fmt](raw, str(path), keep_tool_results=keep_tool_results)  # type: ignore[call-arg]
    else:
        turns = READERS[fmt](raw, str(path))
    if not turns:
        raise InputError(f"no turns found (read as {fmt})", source=str(path))
    check_storable(turns, str(path))
    return [_with_index(t, i) for i, t in enumerate(split_long_turns(turns))]


def detect_format(raw: str, path: Path) -> str:
    head = raw.lstrip()[:1]
    if head == "{":
        try:
            data = json.loads(raw)
        except json.JSONDecodeError:
            return "jsonl"  # several JSON objects, one per line
        if isinstance(data, dict) and any(re.fullmatch(r"session_\d+", k) for k in data):
            return "locomo"
        if isinstance(data, dict) and "messages" in data:
            return "messages"
        if isinstance(data, dict) and ({"content", "text", "role", "speaker"} & data.keys()):
            return "jsonl"  # a single message
        raise InputError("unknown format: a JSON object that is neither a LoCoMo conversation, a message "
                         "nor {\"messages\": [...]}; pass --format", source=str(path), line=1)
    if head == "[":
        try:
            json.loads(raw)
        except json.JSONDecodeError:
            # `[2023-05-08 13:56] Alice: ...` or a chat export of that shape: text, not broken JSON
            first = raw.lstrip().split("\n", 1)[0]
            if path.suffix in (".txt", ".md", ".log") or _timed(first, "DMY", None) or _header_date(first) is not None:
                return "text"
        return "messages"
    if path.suffix in (".json", ".jsonl"):
        raise InputError("unknown format: JSON that is neither LoCoMo, JSON Lines nor a messages array; "
                         "pass --format", source=str(path))
    return "text"


# -- LoCoMo ---------------------------------------------------------------------------


def read_locomo(raw: str, source: str) -> list[Turn]:
    data = _load_json(raw, source)
    if not isinstance(data, dict):
        raise InputError("a LoCoMo file holds one JSON object", source=source, line=1)
    data = data.get("conversation", data)  # the upstream locomo10.json nests it
    sessions = sorted((int(k.split("_")[1]) for k in data if re.fullmatch(r"session_\d+", k)))
    turns = []
    for number in sessions:
        key = f"session_{number}"
        date = _parse_date(data.get(f"{key}_date_time"))
        if not isinstance(data[key], list):
            raise InputError(f"{key} is not a list of turns", source=source, line=_line_of(raw, f'"{key}"'))
        for i, turn in enumerate(data[key]):
            where = turn.get("dia_id") if isinstance(turn, dict) else None
            line = _line_of(raw, f'"{where}"') if where else _line_of(raw, f'"{key}"')
            if not isinstance(turn, dict) or not str(turn.get("text") or "").strip() and not turn.get("blip_caption"):
                raise InputError(f"{key} turn {i + 1} has no text", source=source, line=line)
            if not turn.get("speaker"):
                raise InputError(f"{key} turn {i + 1} has no speaker", source=source, line=line)
            turns.append(Turn(str(turn.get("dia_id") or f"{Path(source).name}:{line}"), str(turn["speaker"]),
                              str(turn.get("text") or "").strip(), str(number), date, line,
                              caption=turn.get("blip_caption") or None, message_id=turn.get("dia_id") or None))
    return turns


# -- JSON Lines and messages arrays ---------------------------------------------------


def read_jsonl(raw: str, source: str, *, keep_tool_results: bool = False) -> list[Turn]:
    norm = _normaliser(source, keep_tool_results)
    turns = []
    for number, text in enumerate(raw.splitlines(), start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"bad JSON: {exc.msg} (column {exc.colno})", source=source, line=number) from None
        turns.extend(norm.message(record, line=number))
    return turns


def read_messages(raw: str, source: str, *, keep_tool_results: bool = False) -> list[Turn]:
    data = _load_json(raw, source)
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        raise InputError("expected a JSON array of messages or {\"messages\": [...]}", source=source, line=1)
    lines = _object_lines(raw)
    norm = _normaliser(source, keep_tool_results)
    return [t for i, m in enumerate(messages) for t in norm.message(m, line=lines[i] if i < len(lines) else 1)]


def _normaliser(source: str, keep_tool_results: bool):
    """Messages in a file: a message's `id` is its source id, else `FILE:LINE`."""
    from .messages import Normaliser

    return Normaliser(source, keep_tool_results=keep_tool_results, ids_as_source=True,
                      position_name=Path(source).name)


# -- plain text -----------------------------------------------------------------------

SPEAKER_LINE = re.compile(r"^\s*([^:\n]{1,60}?)\s*:\s+(.*\S)\s*$")
DATE_HEADER = re.compile(r"^\s*(?:#+\s*|\[|-{2,}\s*)?(.*?)(?:\]|\s*-{2,})?\s*$")
# A turn that starts with its time: `[2023-05-08 13:56] Alice: ...`, `[08/05/2023, 13:56:02] Alice: ...`
# (WhatsApp on iOS), `08/05/2023, 13:56 - Alice: ...` or `2023-05-08 13:56 - Alice: ...` (on Android),
# `[13:56] Alice: ...` (a time of day, on the date of the session's header).
TIMED_LINE = re.compile(
    r"^\s*(?:\[(?P<bracket>[^\]\n]{4,40})\]\s*(?:[-\u2013]\s+)?"
    r"|(?P<plain>\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[AaPp]\.?\s?[Mm]\.?)?)"
    r"\s+[-\u2013]\s+)(?P<rest>\S.*?)\s*$")
NUMERIC_TIME = re.compile(r"(\d{1,4})[./-](\d{1,2})[./-](\d{1,4}),?\s+(\d{1,2})[:.](\d{2})(?:[:.](\d{2}))?"
                          r"\s*(?:([AaPp])\.?\s?[Mm]\.?)?")
CLOCK_TIME = re.compile(r"(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(?:([AaPp])\.?\s?[Mm]\.?)?")
NUMERIC_DATE = re.compile(r"^\s*\[?(\d{1,2})[./-](\d{1,2})[./-]\d{2,4}\b", re.MULTILINE)
INVISIBLE = dict.fromkeys(map(ord, "\ufeff\u200e\u200f\u202a\u202c"))  # marks chat exports put in lines


def read_text(raw: str, source: str) -> list[Turn]:
    """`Speaker: text` lines; a blank line starts a new session, and a line that is only a
    date (e.g. `## 8 May 2023` or `[2023-05-08 13:56]`) starts one on that date. A turn may
    begin with its own time (`[2023-05-08 13:56] Alice: ...`, chat exports of that shape); a
    timed turn on another day than its session's starts a new session, and a timed line with
    no speaker (an export's "Alice joined") is no turn. Any other line continues the message
    above it (a blank line inside a message is kept as a paragraph break); a file must begin
    with a turn or a date."""
    name, order = Path(source).name, _date_order(raw)
    turns: list[Turn] = []
    session, date, day, fresh = 1, None, None, False
    taken, gap, continuing = 0, 0, False  # turns in this session; blank lines since the last text; a message is open
    for number, line in enumerate(raw.splitlines(), start=1):
        line = line.translate(INVISIBLE)
        if not line.strip():
            fresh, gap = bool(turns), gap + 1
            continue
        timed = _timed(line, order, date)
        if timed is None and (shaped := _unread_stamp(line)) is not None:
            raise InputError(f"not a date: {shaped!r} (a turn that begins with its time, `[2023-05-08 13:56] "
                             "Alice: ...`, must hold a real day and time)", source=source, line=number)
        if timed is not None:
            moment, speaker, said = timed
            continuing, gap = speaker is not None, 0
            if speaker is None:
                continue
            if turns and (fresh or taken and moment and day and moment.date() != day):
                session, taken = session + 1, 0
            day, fresh, taken = moment.date() if moment else day, False, taken + 1
            turns.append(Turn(f"{name}:{number}", speaker, said, str(session), moment or date, number))
            continue
        match = SPEAKER_LINE.match(line)
        header_date = None if match and not _looks_like_date(line) else _header_date(line)
        if header_date is not None:
            session, date, fresh = session + (1 if turns else 0), header_date, False
            day, taken, gap, continuing = header_date.date(), 0, 0, False
            continue
        if not match and (shaped := _marked_date(line)) is not None:
            raise InputError(f"not a date: {shaped!r} (a line marked as a date, `## 8 May 2023` or "
                             "`[2023-05-08]`, must hold a real day, month and year)", source=source, line=number)
        if match:
            if fresh:
                session, fresh, taken = session + 1, False, 0
            turns.append(Turn(f"{name}:{number}", match[1], match[2], str(session), date, number))
            taken, gap, continuing = taken + 1, 0, True
            continue
        if not continuing:
            raise InputError("expected `Speaker: text` or a date line (other lines continue the message "
                             "above them, and there is none)", source=source, line=number)
        turns[-1] = replace(turns[-1], text=turns[-1].text + ("\n\n" if gap else "\n") + line.rstrip())
        fresh, gap = False, 0
    return turns


def _timed(line: str, order: str, date: datetime | None) -> tuple[datetime | None, str | None, str] | None:
    """(its time, its speaker or None, its text) for a line that begins with a time; else None.
    A time of day alone takes its date from `date` (none without one)."""
    match = TIMED_LINE.match(line)
    if match is None:
        return None
    stamp = _spaces(match["bracket"] or match["plain"])
    clock = CLOCK_TIME.fullmatch(stamp)
    if clock:
        moment = _at_clock(date, clock) if date else None
    else:
        moment = _stamp(stamp, order)
        if moment is None:
            return None  # "[laughs] Alice: ..." is a line like any other
    said = SPEAKER_LINE.match(match["rest"])
    return (moment, said[1], said[2]) if said else (moment, None, match["rest"])


def _unread_stamp(line: str) -> str | None:
    """The time a line begins with, when it has a date's shape (`_marked_date`) and `_timed`
    read none from it (`[2023-02-30 13:56] Alice: ...`); else None ("[laughs] Alice: ...")."""
    match = TIMED_LINE.match(line)
    return _marked_date(f"[{_spaces(match['bracket'] or match['plain'])}]") if match else None


def _stamp(stamp: str, order: str) -> datetime | None:
    """A chat export's date and time; day-first or month-first numbers as `order` says."""
    match = NUMERIC_TIME.fullmatch(stamp)
    if match is None:
        return _parse_date(stamp, date_order=order)
    a, b, c = match[1], match[2], match[3]
    year, month, day = (a, b, c) if len(a) == 4 else (c, a, b) if order == "MDY" else (c, b, a)
    try:
        moment = datetime(int(year) + (2000 if len(year) <= 2 else 0), int(month), int(day))
    except ValueError:
        return None
    return _at_clock(moment, match, first=4)


def _at_clock(date: datetime, clock: re.Match, first: int = 1) -> datetime | None:
    hour, minute, second, half = clock[first], clock[first + 1], clock[first + 2], clock[first + 3]
    hour_n = int(hour) % 12 + (12 if half in ("p", "P") else 0) if half else int(hour)
    try:
        return date.replace(hour=hour_n, minute=int(minute), second=int(second or 0), microsecond=0)
    except ValueError:
        return None


def _date_order(raw: str) -> str:
    """"DMY" or "MDY" for a file's numeric dates (08/05/2023): month-first when some second
    number is over 12 and no first one is; else day-first (the more common order in chat
    exports, and the only one possible when a first number is over 12)."""
    firsts, seconds = set(), set()
    for match in NUMERIC_DATE.finditer(raw):
        firsts.add(int(match[1]))
        seconds.add(int(match[2]))
    return "MDY" if max(seconds, default=0) > 12 and max(firsts, default=0) <= 12 else "DMY"


def _header_date(line: str) -> datetime | None:
    """The date of a line that holds only a date (`## 8 May 2023`, `[2023-05-08 13:56]`)."""
    if len(line) > 80 or not any(ch.isdigit() for ch in line):
        return None  # no date; and prose is not given to the date parser
    header = DATE_HEADER.match(line)
    return _parse_date(header[1]) if header else None


# A word of a date: a number (an ordinal's ending apart), a month or weekday, a time's marks.
DATE_WORDS = frozenset(
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct "
    "october nov november dec december mon monday tue tues tuesday wed wednesday thu thur thurs thursday fri "
    "friday sat saturday sun sunday st nd rd th am pm a m on at of the t z utc gmt".split())
MONTHS = frozenset(w for w in DATE_WORDS if w[:3] in "jan feb mar apr may jun jul aug sep oct nov dec".split())
NUMERIC_DAY = re.compile(r"\d{4}[./-]\d{1,2}[./-]\d{1,2}|\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})\b")  # not 1.5.2


def _marked_date(line: str) -> str | None:
    """What a line marked as a date line (`## `, `[...]`, `-- ... --`) holds when that has the
    shape of a date (a month, or numbers like 2023-02-30 or 30/02/23, and nothing but date words); else
    None. Such a line is read by `_header_date`, so one this returns for is no real date. A
    line without the marks, or marked but holding prose (`## Chapter 3`), is an ordinary line."""
    bare = line.strip()
    if not (bare.startswith(("#", "--")) or bare.startswith("[") and bare.endswith("]")):
        return None
    header = DATE_HEADER.match(line)
    inner = _spaces(header[1]) if header else ""
    words = re.findall(r"[^\W\d_]+|\d+", inner)
    if (not re.fullmatch(r"[\w\s,./:+\-]+", inner) or not any(ch.isdigit() for ch in inner)
            or any(w.isalpha() and w.lower() not in DATE_WORDS for w in words)):
        return None
    return inner if NUMERIC_DAY.search(inner) or any(w.lower() in MONTHS for w in words) else None


def _spaces(text: str) -> str:
    return text.replace("\u202f", " ").replace("\xa0", " ").strip()


def _looks_like_date(text: str) -> bool:
    return bool(re.fullmatch(r"[\s\d:\-/.,\[\]T]+(am|pm)?\s*", text, re.IGNORECASE))


READERS: dict[str, Callable[[str, str], list[Turn]]] = {
    "locomo": read_locomo, "jsonl": read_jsonl, "messages": read_messages, "text": read_text}


# -- helpers --------------------------------------------------------------------------


def _load_json(raw: str, source: str) -> Any:
    try:
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(f"bad JSON: {exc.msg} (column {exc.colno})", source=source, line=exc.lineno) from None


def _line_of(raw: str, needle: str) -> int:
    at = raw.find(needle)
    return raw.count("\n", 0, at) + 1 if at >= 0 else 1


def _object_lines(raw: str) -> list[int]:
    """The line where each top-level message object of a JSON array starts (for errors)."""
    lines, depth, line, in_string, escaped = [], 0, 1, False, False
    for ch in raw:
        if ch == "\n":
            line += 1
        if in_string:
            escaped, in_string = (not escaped and ch == "\\"), in_string and (escaped or ch != '"')
            continue
        if ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if ch == "{" and depth == (3 if raw.lstrip().startswith("{") else 2):
                lines.append(line)
        elif ch in "]}":
            depth -= 1
    return lines


def _with_index(turn: Turn, index: int) -> Turn:
    return replace(turn, index=index)
