"""Chat transcripts in, `Turn`s out: LoCoMo conversation JSON, JSON Lines of messages (or an
OpenAI-style `messages` array), and plain `Speaker: text` lines.

Every reader validates the whole file before returning, so a malformed file is rejected
before anything is written, naming the file and line."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from ..errors import InputError

FORMATS = ("locomo", "jsonl", "messages", "text")


@dataclass(frozen=True)
class Turn:
    source_id: str  # LoCoMo dia_id ("D1:3"); a JSONL id; else "file:line"
    speaker: str
    text: str
    session: str  # "1", "2", ... ; a JSONL session; a text file's block number
    session_date: datetime | None
    line: int  # 1-based line in the source file, for error messages
    caption: str | None = None  # LoCoMo blip_caption: the caption of a shared image
    index: int = 0  # position in the transcript


def read_transcript(path: str | Path, format: str | None = None) -> list[Turn]:
    """Parse one transcript file; `format` overrides detection (one of FORMATS)."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError("no such file", source=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", source=str(path)) from None
    fmt = format or detect_format(raw, path)
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}", source=str(path))
    turns = READERS[fmt](raw, str(path))
    if not turns:
        raise InputError(f"no turns found (read as {fmt})", source=str(path))
    return [_with_index(t, i) for i, t in enumerate(turns)]


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
        if isinstance(data, dict) and ({"content", "text"} & data.keys()):
            return "jsonl"  # a single message
        raise InputError("unknown format: a JSON object that is neither a LoCoMo conversation, a message "
                         "nor {\"messages\": [...]}; pass --format", source=str(path), line=1)
    if head == "[":
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
                              caption=turn.get("blip_caption") or None))
    return turns


# -- JSON Lines and messages arrays ---------------------------------------------------


def read_jsonl(raw: str, source: str) -> list[Turn]:
    turns = []
    for number, text in enumerate(raw.splitlines(), start=1):
        if not text.strip():
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"bad JSON: {exc.msg} (column {exc.colno})", source=source, line=number) from None
        turns.append(_message(record, source, number))
    return turns


def read_messages(raw: str, source: str) -> list[Turn]:
    data = _load_json(raw, source)
    messages = data.get("messages") if isinstance(data, dict) else data
    if not isinstance(messages, list):
        raise InputError("expected a JSON array of messages or {\"messages\": [...]}", source=source, line=1)
    lines = _object_lines(raw)
    return [_message(m, source, lines[i] if i < len(lines) else 1) for i, m in enumerate(messages)]


def _message(record: Any, source: str, line: int) -> Turn:
    if not isinstance(record, dict):
        raise InputError("a message must be a JSON object", source=source, line=line)
    speaker = record.get("speaker") or record.get("role") or record.get("name")
    text = record.get("content", record.get("text"))
    if isinstance(text, list):  # OpenAI content parts
        text = " ".join(p.get("text", "") for p in text if isinstance(p, dict))
    if not isinstance(text, str) or not text.strip():
        raise InputError("message has no text (\"content\" or \"text\")", source=source, line=line)
    if not speaker:
        raise InputError("message has no speaker (\"speaker\" or \"role\")", source=source, line=line)
    stamp = record.get("timestamp") or record.get("time") or record.get("date")
    date = _parse_date(stamp) if stamp is not None else None
    if stamp is not None and date is None:
        raise InputError(f"unreadable timestamp {stamp!r}", source=source, line=line)
    session = record.get("session", record.get("session_id"))
    if session is None:
        session = date.date().isoformat() if date else "1"
    return Turn(str(record.get("id") or f"{Path(source).name}:{line}"), str(speaker), text.strip(), str(session), date, line)


# -- plain text -----------------------------------------------------------------------

SPEAKER_LINE = re.compile(r"^\s*([^:\n]{1,60}?)\s*:\s+(.*\S)\s*$")
DATE_HEADER = re.compile(r"^\s*(?:#+\s*|\[|-{2,}\s*)?(.*?)(?:\]|\s*-{2,})?\s*$")


def read_text(raw: str, source: str) -> list[Turn]:
    """`Speaker: text` lines; a blank line starts a new session, and a line that is only a
    date (e.g. `## 8 May 2023` or `[2023-05-08 13:56]`) starts one on that date."""
    turns: list[Turn] = []
    session, date, fresh = 1, None, False
    for number, text in enumerate(raw.splitlines(), start=1):
        if not text.strip():
            fresh = bool(turns)
            continue
        match = SPEAKER_LINE.match(text)
        header = DATE_HEADER.match(text)
        header_date = None if match and not _looks_like_date(text) or header is None else _parse_date(header[1])
        if header_date is not None:
            session, date, fresh = session + (1 if turns else 0), header_date, False
            continue
        if not match:
            raise InputError("expected `Speaker: text` or a date line", source=source, line=number)
        if fresh:
            session, fresh = session + 1, False
        turns.append(Turn(f"{Path(source).name}:{number}", match[1], match[2], str(session), date, number))
    return turns


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


def _parse_date(value: Any) -> datetime | None:
    """An absolute date from a timestamp, ISO text or LoCoMo's "1:56 pm on 8 May, 2023"."""
    if value is None or value == "":
        return None
    if isinstance(value, (int, float)):
        return datetime.fromtimestamp(value)
    text = str(value).strip()
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError:
        pass
    import dateparser

    return dateparser.parse(text, languages=["en"], settings={"STRICT_PARSING": False,
                                                              "REQUIRE_PARTS": ["day", "month", "year"]})


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
    from dataclasses import replace

    return replace(turn, index=index)
