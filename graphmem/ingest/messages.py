"""Messages as an agent holds them, made `Turn`s: one string, `(speaker, text)` pairs, OpenAI
chat messages (`role`, `content` as text or parts, `name`, `tool_calls`, `tool` results) or
Anthropic messages (`content` blocks: `text`, `tool_use`, `tool_result`, `image`, `thinking`...).

System and developer prompts and tool plumbing (tool calls, tool results, messages with no text
left) are not memories: they are dropped, not refused. With `keep_tool_results` a tool's result
is kept as an observation whose speaker is the tool. A message's speaker is its `name` when it
has one, else its role. The JSON transcript readers of `formats` use the same `Normaliser`, so a
file and a live conversation give the same turns."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from ..errors import InputError
from .turns import Turn, _naive_utc, _parse_date, check_storable, split_long_turns

# The speaker of a user's message that names none (and of one string added as is): recall takes a
# first-person question to a memory holding such messages as asked by it (recall/analysis.py).
USER_ROLE = "user"
AGENT_ROLE = "assistant"  # the speaker of an agent's reply that names none
PROMPT_ROLES = frozenset({"system", "developer"})  # instructions to the model, not things said
TOOL_ROLES = frozenset({"tool", "function", "ipython"})  # a tool's result (OpenAI, legacy, Llama)
TEXT_PARTS = frozenset({"text", "input_text", "output_text"})  # content parts that are text
CALL_PARTS = frozenset({"tool_use", "server_tool_use", "mcp_tool_use"})  # Anthropic tool calls
TIME_KEYS = ("timestamp", "created_at", "time", "date")


def to_turns(messages: Any, *, keep_tool_results: bool = False, at: datetime | None = None,
             source: str = "messages") -> list[Turn]:
    """The turns worth remembering in `messages`: one string (said by "user"), a list of
    `(speaker, text)` pairs, or a list of OpenAI or Anthropic message dicts (one dict alone is
    one message). `at` is the time of messages that carry none (UTC when naive); a turn's
    session is the message's `session` / `session_id`, else the UTC date of its time, else "1".
    Source ids read `messages:3` (the third message); `message_id` is a message's own `id`.
    A malformed message raises `InputError` naming its position (`messages:3: ...`)."""
    if isinstance(messages, str):
        records: list[Any] = [(USER_ROLE, messages)]
    elif isinstance(messages, Mapping):
        records = [messages]
    elif isinstance(messages, (list, tuple)):
        records = list(messages)
    else:
        raise InputError("messages must be a string, or a list of message dicts or (speaker, text) pairs; "
                         f"got {type(messages).__name__}", source=source)
    if at is not None and not isinstance(at, datetime):
        raise InputError(f"at must be a datetime, not {type(at).__name__}", source=source)
    norm = Normaliser(source, keep_tool_results=keep_tool_results, at=at)
    turns = [t for i, record in enumerate(records) for t in norm.message(record, line=i + 1)]
    check_storable(turns, source)  # a file's messages are checked where the file is read (read_transcript)
    return [replace(t, index=i) for i, t in enumerate(split_long_turns(turns))]


class Normaliser:
    """One conversation's messages, in order. It remembers the tool calls it has seen, so that
    a tool's result is spoken by the tool that was called.

    `ids_as_source`: a message's own `id` is also its source id (how the transcript files have
    always named their turns); otherwise a source id is `SOURCE:POSITION`."""

    def __init__(self, source: str, *, keep_tool_results: bool = False, at: datetime | None = None,
                 ids_as_source: bool = False, position_name: str | None = None):
        self.source, self.keep, self.at = source, keep_tool_results, _naive_utc(at)
        self.ids_as_source, self.position_name = ids_as_source, position_name or source
        self.tools: dict[str, str] = {}  # tool call id -> the called tool's name

    def error(self, message: str, line: int) -> InputError:
        return InputError(message, source=self.source, line=line)

    def message(self, record: Any, *, line: int) -> list[Turn]:
        """The turns one message gives (none, one, or with kept tool results several);
        `line` is its position (1-based) in the list, or its line in a file."""
        if isinstance(record, (list, tuple)):
            return self._pair(record, line)
        if not isinstance(record, Mapping):
            raise self.error(f"a message must be an object (a dict) or a (speaker, text) pair, "
                             f"not {_kind(record)}", line)
        role = record.get("role")
        if role is None and record.get("type") in RESPONSE_ITEMS:
            return self._response_item(record, line)
        if role is not None and not isinstance(role, str):
            raise self.error(f"\"role\" must be a string, not {_kind(role)}", line)
        role = (role or "").strip()
        self._remember_calls(record, line)
        if role.lower() in PROMPT_ROLES:
            return []
        when, session = self._when(record, line)
        own_id = _text_id(record.get("id", record.get("dia_id")))
        if role.lower() in TOOL_ROLES:
            if not self.keep:
                return []
            call = _text_id(record.get("tool_call_id"))
            name = record.get("name") if isinstance(record.get("name"), str) and record["name"].strip() else None
            speaker = name or self.tools.get(call or "") or "tool"
            text = self._content(record.get("content", record.get("text")), line, results=None)
            return self._turns([(speaker.strip(), text, own_id or call)], line, when, session)
        speaker = self._speaker(record, role, line)
        if "content" not in record and "text" not in record and not _calls(record):
            raise self.error("message has no text (\"content\" or \"text\")", line)
        content = record.get("content")
        results: list[tuple[str, str, str | None]] = []
        text = self._content(record.get("text") if content is None else content, line, results=results)
        return self._turns([*results, (speaker, text, own_id)], line, when, session)

    # -- parts of a message ------------------------------------------------------------

    def _pair(self, pair: list | tuple, line: int) -> list[Turn]:
        if len(pair) != 2:
            raise self.error(f"a (speaker, text) pair has two items, not {len(pair)}", line)
        speaker, text = pair
        if not isinstance(speaker, str) or not speaker.strip():
            got = "a blank one" if isinstance(speaker, str) else _kind(speaker)
            raise self.error(f"a pair's speaker must be a non-empty string, not {got}", line)
        if not isinstance(text, str):
            raise self.error(f"a pair's text must be a string, not {_kind(text)}", line)
        return self._turns([(speaker.strip(), text, None)], line, self.at, _session(None, self.at))

    def _speaker(self, record: Mapping, role: str, line: int) -> str:
        for key in ("speaker", "name"):
            value = record.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if value is not None and not isinstance(value, str):
                raise self.error(f"\"{key}\" must be a string, not {_kind(value)}", line)
            if value and value.strip():
                return value.strip()
        if not role:
            raise self.error("a message needs a \"role\" (or a \"speaker\" or \"name\")", line)
        return role

    def _when(self, record: Mapping, line: int) -> tuple[datetime | None, str]:
        stamp = next((record[k] for k in TIME_KEYS if record.get(k) not in (None, "")), None)
        when = _parse_date(stamp) if stamp is not None else self.at
        if stamp is not None and when is None:
            raise self.error(f"unreadable timestamp {stamp!r}", line)
        return when, _session(record.get("session", record.get("session_id")), when)

    def _content(self, content: Any, line: int, results: list | None) -> str:
        """The text of a message's content; its tool calls remembered, and its tool results
        added to `results` as (tool, text, call id) when they are kept."""
        if content is None:
            return ""
        if isinstance(content, str):
            return content
        if not isinstance(content, list):
            raise self.error(f"\"content\" must be a string or a list of parts, not {_kind(content)}", line)
        texts = []
        for number, part in enumerate(content, start=1):
            if isinstance(part, str):
                texts.append(part)
                continue
            if not isinstance(part, Mapping):
                raise self.error(f"content part {number} must be an object or a string, not {_kind(part)}", line)
            kind = part.get("type")
            if kind in TEXT_PARTS or kind is None and "text" in part:
                if not isinstance(part.get("text"), str):
                    raise self.error(f"content part {number}: \"text\" must be a string, "
                                     f"not {_kind(part.get('text'))}", line)
                texts.append(part["text"])
            elif kind in CALL_PARTS and isinstance(part.get("name"), str):
                self.tools[str(part.get("id"))] = part["name"]
            elif kind == "tool_result" and results is not None and self.keep:
                call = _text_id(part.get("tool_use_id"))
                results.append((self.tools.get(call or "", "tool"),
                                self._content(part.get("content"), line, results=None), call))
            # anything else (images, audio, documents, thinking, refusals, tool plumbing) has no text to remember
        return "\n".join(t for t in texts if t.strip())

    def _remember_calls(self, record: Mapping, line: int) -> None:
        for call in _calls(record):
            function = call.get("function") if isinstance(call, Mapping) else None
            name = function.get("name") if isinstance(function, Mapping) else None
            if isinstance(name, str):
                self.tools[str(call.get("id"))] = name

    def _response_item(self, item: Mapping, line: int) -> list[Turn]:
        """An OpenAI Responses API item that is not a message: a call, its output, reasoning."""
        if item["type"] == "function_call":
            if isinstance(item.get("name"), str):
                self.tools[str(item.get("call_id"))] = item["name"]
            return []
        if item["type"] != "function_call_output" or not self.keep:
            return []
        call = _text_id(item.get("call_id"))
        when, session = self._when(item, line)
        text = self._content(item.get("output"), line, results=None)
        return self._turns([(self.tools.get(call or "", "tool"), text, _text_id(item.get("id")) or call)],
                           line, when, session)

    def _turns(self, said: list[tuple[str, str, str | None]], line: int, when: datetime | None,
               session: str) -> list[Turn]:
        """One turn per (speaker, text, message id) with text; a message's extra turns (its kept
        tool results) get source ids `ID.1`, `ID.2`, ... beside the message's own `ID`."""
        kept = [(speaker, text.strip(), own) for speaker, text, own in said if text.strip()]
        turns = []
        for number, (speaker, text, own) in enumerate(kept):
            base = own if self.ids_as_source and own else f"{self.position_name}:{line}"
            source_id = base if number == len(kept) - 1 else f"{base}.{number + 1}"
            turns.append(Turn(source_id, speaker, text, session, when, line, message_id=own))
        return turns


RESPONSE_ITEMS = frozenset({"function_call", "function_call_output", "reasoning", "web_search_call",
                            "file_search_call", "computer_call", "computer_call_output"})


def _session(given: Any, when: datetime | None) -> str:
    if given is not None and str(given).strip():
        return str(given).strip()
    return when.date().isoformat() if when else "1"


def _calls(record: Mapping) -> list:
    calls = record.get("tool_calls")
    legacy = record.get("function_call")  # the OpenAI API before tool_calls: one call, no id
    return [*(calls if isinstance(calls, list) else []),
            *([{"id": None, "function": legacy}] if isinstance(legacy, Mapping) else [])]


def _text_id(value: Any) -> str | None:
    return None if value is None or isinstance(value, bool) or str(value) == "" else str(value)


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__
