"""Transcript files as they come (graphmem.ingest.formats): multi-line messages, turns that begin
with their time and chat exports of that shape, offsets and millisecond epochs, agent transcripts
in OpenAI or Anthropic shape, turns too long for one parse, empty files. Pure reading: no
database, no models (ingesting such files end to end is in test_ingest.py)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from graphmem.errors import InputError
from graphmem.ingest.formats import detect_format, read_transcript
from graphmem.ingest.turns import MAX_TURN_CHARS, _parse_date


def read(tmp_path, name: str, content: str, **options):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    return read_transcript(path, **options)


def said(turns) -> list[tuple[str, str]]:
    return [(t.speaker, t.text) for t in turns]


# -- text: multi-line messages ----------------------------------------------------------


def test_lines_that_are_no_turn_continue_the_message_above(tmp_path):
    turns = read(tmp_path, "chat.txt", "## 8 May 2023\nAlice: I have a list:\n- flour\n  - eggs\n\n"
                 "and a second paragraph.\nBob: Noted.\n\nAlice: Next time.\n")
    assert said(turns) == [("Alice", "I have a list:\n- flour\n  - eggs\n\nand a second paragraph."),
                           ("Bob", "Noted."), ("Alice", "Next time.")]
    assert [t.session for t in turns] == ["1", "1", "2"]  # the blank line inside a message starts no session
    assert [t.source_id for t in turns] == ["chat.txt:2", "chat.txt:7", "chat.txt:9"]
    assert turns[0].session_date == datetime(2023, 5, 8)


@pytest.mark.parametrize("content, line", [
    ("this line has no speaker\nAlice: hello\n", 1),
    ("\n\n   \nno speaker after blank lines\n", 4),
    ("Alice: hello\n## 9 May 2023\nprose right after a date\n", 3),
])
def test_a_file_must_begin_with_a_turn_or_a_date(tmp_path, content, line):
    with pytest.raises(InputError) as err:
        read(tmp_path, "prose.txt", content)
    assert f"prose.txt:{line}: expected `Speaker: text` or a date line" in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("marked", ["## 31 February 2023", "## May 2023", "[2023-02-30]", "-- 30 Feb 2023 --",
                                    "## Tuesday, 31st of April 2023, 10:30 am"])
def test_a_line_marked_as_a_date_that_is_no_date_is_refused_with_its_line(tmp_path, marked):
    with pytest.raises(InputError) as err:
        read(tmp_path, "dates.txt", f"Alice: hi\n{marked}\nBob: a bad date\n")
    assert "dates.txt:2: not a date: " in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("line", ["[2023-02-30 13:56] Bob: hi", "30/02/2023, 13:56 - Bob: hi",
                                  "[31 April 2023 10:30] Bob: hi"])
def test_a_turn_whose_time_is_no_date_is_refused_with_its_line(tmp_path, line):
    with pytest.raises(InputError) as err:
        read(tmp_path, "timed.txt", f"[2023-02-27 13:50] Alice: hi\n{line}\n")
    assert "timed.txt:2: not a date: " in str(err.value) and "\n" not in str(err.value)


def test_marked_prose_and_a_bare_non_date_continue_the_message_above(tmp_path):
    lines = ["## Chapter 3", "## Top 5 things I did in May", "## 1.5.2", "[laughs]", "31 February 2023"]
    turns = read(tmp_path, "notes.txt", "Alice: my notes\n" + "\n".join(lines) + "\nBob: ok\n")
    assert said(turns) == [("Alice", "\n".join(["my notes", *lines])), ("Bob", "ok")]


# -- text: turns that begin with their time ----------------------------------------------


def test_bracketed_times_are_the_turns_times_and_a_new_day_a_new_session(tmp_path):
    turns = read(tmp_path, "chat.txt", "[2023-05-08 13:56] Alice: I adopted Rex.\n[2023-05-08 13:57] Bob: Lovely!\n"
                 "a second line of Bob's\n[2023-05-09 09:00] Alice: Rex ate my shoes.\n")
    assert said(turns) == [("Alice", "I adopted Rex."), ("Bob", "Lovely!\na second line of Bob's"),
                           ("Alice", "Rex ate my shoes.")]
    assert [t.session_date for t in turns] == [datetime(2023, 5, 8, 13, 56), datetime(2023, 5, 8, 13, 57),
                                               datetime(2023, 5, 9, 9, 0)]
    assert [t.session for t in turns] == ["1", "1", "2"]


def test_whatsapp_exports_read_as_text(tmp_path):
    ios = read(tmp_path, "ios.txt", "\u200e[08/05/2023, 13:56:02] Alice: Rex is home!\n"
               "[08/05/2023, 13:58:40] Bob: \u200eWelcome, Rex.\n[13/05/2023, 1:05:00\u202fPM] Alice: Rex met Emma.\n")
    assert said(ios) == [("Alice", "Rex is home!"), ("Bob", "Welcome, Rex."), ("Alice", "Rex met Emma.")]
    assert [t.session_date for t in ios] == [datetime(2023, 5, 8, 13, 56, 2), datetime(2023, 5, 8, 13, 58, 40),
                                             datetime(2023, 5, 13, 13, 5)]  # day first: 13 cannot be a month
    android = read(tmp_path, "android.txt", "08/05/2023, 13:55 - Messages and calls are end-to-end encrypted.\n"
                   "08/05/2023, 13:56 - Alice: Rex is home!\nHe is tiny.\n2023-05-08 14:00 - Bob: Welcome!\n")
    assert said(android) == [("Alice", "Rex is home!\nHe is tiny."), ("Bob", "Welcome!")]  # the notice is no turn
    assert android[0].session_date == datetime(2023, 5, 8, 13, 56) and android[0].source_id == "android.txt:2"


def test_month_first_exports_are_read_month_first(tmp_path):
    turns = read(tmp_path, "us.txt", "[05/08/2023, 1:56 PM] Alice: hi\n[05/13/2023, 9:00 AM] Bob: later\n")
    assert [t.session_date for t in turns] == [datetime(2023, 5, 8, 13, 56), datetime(2023, 5, 13, 9, 0)]


def test_a_time_of_day_takes_the_date_of_its_header(tmp_path):
    turns = read(tmp_path, "irc.txt", "## 8 May 2023\n[13:56] Alice: hi\n[14:02] Bob: yo\n")
    assert [t.session_date for t in turns] == [datetime(2023, 5, 8, 13, 56), datetime(2023, 5, 8, 14, 2)]


def test_bracketed_text_that_is_no_time_is_an_ordinary_line(tmp_path):
    turns = read(tmp_path, "chat.txt", "Alice: hello\n[laughs] Bob: funny\n")
    assert said(turns) == [("Alice", "hello"), ("[laughs] Bob", "funny")]


@pytest.mark.parametrize("suffix", [".txt", ".json"])
def test_a_file_starting_with_a_bracketed_time_is_text_not_bad_json(tmp_path, suffix):
    path = tmp_path / f"chat{suffix}"
    path.write_text("[2023-05-08 13:56] Alice: I adopted Rex.\n")
    assert detect_format(path.read_text(), path) == "text"
    assert said(read_transcript(path)) == [("Alice", "I adopted Rex.")]


def test_broken_json_is_still_reported_as_bad_json(tmp_path):
    with pytest.raises(InputError, match=r"broken\.json:1: bad JSON"):
        read(tmp_path, "broken.json", '[{"role": "user", "content": "hi"}')


def test_timed_text_keeps_offsets_in_utc(tmp_path):
    turns = read(tmp_path, "tz.txt", "[2023-05-08T23:30:00-05:00] Alice: late\n[2023-05-09T06:00:00+02:00] Bob: early\n")
    assert [t.session_date for t in turns] == [datetime(2023, 5, 9, 4, 30), datetime(2023, 5, 9, 4, 0)]


# -- empty files, long turns ---------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "\n\n   \n", "\ufeff"])
def test_an_empty_file_says_it_is_empty(tmp_path, content):
    with pytest.raises(InputError) as err:
        read(tmp_path, "empty.txt", content)
    assert str(err.value) == f"{tmp_path / 'empty.txt'}: empty file"


def test_a_turn_too_long_for_one_parse_is_split_not_refused(tmp_path):
    body = " ".join(f"word{i}" for i in range(MAX_TURN_CHARS // 3))  # ~2.5 times the limit
    turns = read(tmp_path, "long.txt", f"## 8 May 2023\nAlice: {body}\nBob: short\n")
    alice = [t for t in turns if t.speaker == "Alice"]
    assert len(alice) == 3 and all(len(t.text) <= MAX_TURN_CHARS for t in alice)
    assert " ".join(t.text for t in alice) == body  # cut at whitespace only, nothing lost
    assert [t.source_id for t in alice] == ["long.txt:2", "long.txt:2#2", "long.txt:2#3"]
    assert {(t.session, t.session_date, t.line) for t in alice} == {("1", datetime(2023, 5, 8), 2)}
    assert [t.index for t in turns] == [0, 1, 2, 3]


def test_a_word_longer_than_the_limit_is_cut(tmp_path):
    turns = read(tmp_path, "blob.txt", "Alice: " + "x" * (MAX_TURN_CHARS + 5) + "\n")
    assert [len(t.text) for t in turns] == [MAX_TURN_CHARS, 5]


# -- JSON transcripts go through the message normalisation ----------------------------------


def test_an_agent_transcript_ingests_with_the_right_speakers_and_no_plumbing(tmp_path):
    messages = [
        {"role": "system", "content": "You are a helpful travel assistant."},
        {"role": "user", "name": "Dana", "content": "I want to see Lyon.", "id": "m1"},
        {"role": "assistant", "content": None,
         "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "search", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "Lyon: Vieux Lyon, Fourviere"},
        {"role": "assistant", "content": [{"type": "text", "text": "Visit Vieux Lyon."}]},
    ]
    array = read(tmp_path, "agent.json", json.dumps({"messages": messages}, indent=1))
    lines = read(tmp_path, "agent.jsonl", "\n".join(json.dumps(m) for m in messages))
    assert said(array) == said(lines) == [("Dana", "I want to see Lyon."), ("assistant", "Visit Vieux Lyon.")]
    assert [t.source_id for t in lines] == ["m1", "agent.jsonl:5"]  # the own id, else file:line
    assert [t.message_id for t in lines] == ["m1", None]
    assert lines[1].line == 5 and array[1].source_id == f"agent.json:{array[1].line}"  # where the object starts
    kept = read(tmp_path, "agent.jsonl", "\n".join(json.dumps(m) for m in messages), keep_tool_results=True)
    assert said(kept)[1] == ("search", "Lyon: Vieux Lyon, Fourviere")


def test_an_anthropic_transcript_keeps_only_text(tmp_path):
    messages = [{"role": "user", "content": "Weather in Porto?"},
                {"role": "assistant", "content": [{"type": "text", "text": "Checking."},
                                                  {"type": "tool_use", "id": "t1", "name": "weather", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "sunny"}]}]
    assert said(read(tmp_path, "a.json", json.dumps(messages))) == [("user", "Weather in Porto?"), ("assistant", "Checking.")]


def test_jsonl_offsets_and_millisecond_epochs_are_utc(tmp_path):
    turns = read(tmp_path, "t.jsonl", '{"role": "user", "content": "a", "timestamp": "2023-05-08T23:30:00-05:00"}\n'
                 '{"role": "user", "content": "b", "timestamp": 1683590400123}\n')
    assert [t.session_date for t in turns] == [datetime(2023, 5, 9, 4, 30), datetime(2023, 5, 9, 0, 0, 0, 123000)]
    assert [t.session for t in turns] == ["2023-05-09", "2023-05-09"]


def test_a_single_tool_call_message_is_not_an_error(tmp_path):
    with pytest.raises(InputError, match="no turns found"):  # the file holds nothing to remember, said in one line
        read(tmp_path, "call.jsonl", '{"role": "assistant", "content": null, "tool_calls": []}\n')


def test_locomo_dia_ids_are_message_ids(tmp_path):
    data = {"speaker_a": "A", "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hello"}]}
    turn = read(tmp_path, "conv.json", json.dumps(data))[0]
    assert (turn.source_id, turn.message_id, turn.session_date) == ("D1:1", "D1:1", datetime(2023, 5, 8, 13, 56))


# -- dates -----------------------------------------------------------------------------------


def test_parse_date_gives_naive_utc():
    moment = datetime(2023, 5, 8, 13, 56, 2)
    epoch = moment.replace(tzinfo=timezone.utc).timestamp()
    assert _parse_date(epoch) == _parse_date(int(epoch * 1000)) == _parse_date(str(int(epoch))) == moment
    assert _parse_date("2023-05-08T15:56:02+02:00") == _parse_date("2023-05-08T13:56:02Z") == moment
    assert _parse_date(datetime(2023, 5, 8, 15, 56, 2, tzinfo=timezone(timedelta(hours=2))).isoformat()) == moment
    assert _parse_date("1:56 pm on 8 May, 2023") == datetime(2023, 5, 8, 13, 56)
    assert _parse_date(True) is None and _parse_date("") is None and _parse_date(float("nan")) is None

