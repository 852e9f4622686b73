"""Messages as an agent holds them, made turns (graphmem.ingest.messages.to_turns): every shape,
plumbing dropped, names as speakers, tool results kept on request, times in UTC, bad input in
one line. Pure functions: no database, no models."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from graphmem.errors import InputError
from graphmem.ingest.turns import MAX_TURN_CHARS
from graphmem.ingest.messages import to_turns

OPENAI = [
    {"role": "system", "content": "You are a helpful travel assistant."},
    {"role": "developer", "content": "Answer in French."},
    {"role": "user", "name": "Dana", "content": "Find me a hotel in Lyon.", "id": "u1"},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "search_hotels", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "Hotel Lumiere, 120 EUR a night"},
    {"role": "assistant", "content": [{"type": "text", "text": "Hotel Lumiere has a room."},
                                      {"type": "text", "text": "Shall I book it?"}]},
]

ANTHROPIC = [
    {"role": "user", "content": "What is the weather in Porto?"},
    {"role": "assistant", "content": [
        {"type": "thinking", "thinking": "The user wants the weather.", "signature": "x"},
        {"type": "text", "text": "Let me check."},
        {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Porto"}}]},
    {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "toolu_1", "content": [{"type": "text", "text": "18C, sunny"}]}]},
    {"role": "user", "content": [
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBOR"}},
        {"type": "text", "text": "Here is my balcony in Porto."}]},
    {"role": "assistant", "content": "It is 18C and sunny in Porto."},
]


def said(turns) -> list[tuple[str, str]]:
    return [(t.speaker, t.text) for t in turns]


def test_one_string_is_one_message_of_the_user():
    turns = to_turns("  I moved to Porto last spring.  ")
    assert said(turns) == [("user", "I moved to Porto last spring.")]
    assert (turns[0].source_id, turns[0].session, turns[0].session_date, turns[0].index) == ("messages:1", "1", None, 0)


def test_speaker_text_pairs_keep_their_speakers_and_order():
    turns = to_turns([("Dana", "I moved to Porto."), ("Eli", "Porto suits you!"), ["Dana", "It does."]])
    assert said(turns) == [("Dana", "I moved to Porto."), ("Eli", "Porto suits you!"), ("Dana", "It does.")]
    assert [t.index for t in turns] == [0, 1, 2]
    assert [t.source_id for t in turns] == ["messages:1", "messages:2", "messages:3"]


def test_openai_messages_lose_prompts_and_plumbing_and_speak_by_name():
    turns = to_turns(OPENAI)
    assert said(turns) == [("Dana", "Find me a hotel in Lyon."),
                           ("assistant", "Hotel Lumiere has a room.\nShall I book it?")]
    assert [t.source_id for t in turns] == ["messages:3", "messages:6"]  # provenance: the position given
    assert [t.message_id for t in turns] == ["u1", None]  # the message's own id
    assert [t.index for t in turns] == [0, 1]  # among the kept messages
    assert not any("helpful" in t.text or "French" in t.text for t in turns)


def test_openai_tool_results_are_kept_as_the_tools_observations_on_request():
    turns = to_turns(OPENAI, keep_tool_results=True)
    assert said(turns)[1] == ("search_hotels", "Hotel Lumiere, 120 EUR a night")  # named from the call's function
    assert turns[1].message_id == "call_1"
    named = to_turns([{"role": "tool", "name": "weather", "tool_call_id": "x", "content": "rain"}], keep_tool_results=True)
    unknown = to_turns([{"role": "tool", "tool_call_id": "nobody-called-it", "content": "rain"}], keep_tool_results=True)
    assert said(named) == [("weather", "rain")] and said(unknown) == [("tool", "rain")]
    assert to_turns([{"role": "tool", "tool_call_id": "x", "content": "rain"}]) == []  # default: not a memory


def test_legacy_function_calls_and_results():
    messages = [{"role": "assistant", "content": None, "function_call": {"name": "lookup", "arguments": "{}"}},
                {"role": "function", "name": "lookup", "content": "42"}]
    assert to_turns(messages) == []
    assert said(to_turns(messages, keep_tool_results=True)) == [("lookup", "42")]


def test_anthropic_blocks_keep_only_text():
    turns = to_turns(ANTHROPIC)
    assert said(turns) == [("user", "What is the weather in Porto?"), ("assistant", "Let me check."),
                           ("user", "Here is my balcony in Porto."), ("assistant", "It is 18C and sunny in Porto.")]
    assert [t.source_id for t in turns] == ["messages:1", "messages:2", "messages:4", "messages:5"]
    assert not any("wants the weather" in t.text for t in turns)  # thinking is not said


def test_anthropic_tool_results_speak_as_the_tool_used():
    turns = to_turns(ANTHROPIC, keep_tool_results=True)
    assert said(turns)[2] == ("get_weather", "18C, sunny")
    assert (turns[2].source_id, turns[2].message_id) == ("messages:3", "toolu_1")
    assert len(turns) == 5


def test_a_message_with_text_and_a_tool_result_gives_two_turns_with_distinct_ids():
    message = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t9", "content": "done"},
                                           {"type": "text", "text": "Thanks, and book the train too."}]}
    turns = to_turns([message], keep_tool_results=True)
    assert said(turns) == [("tool", "done"), ("user", "Thanks, and book the train too.")]
    assert [t.source_id for t in turns] == ["messages:1.1", "messages:1"]
    assert said(to_turns([message])) == [("user", "Thanks, and book the train too.")]


def test_messages_with_no_text_left_are_dropped_not_refused():
    messages = [{"role": "user", "content": ""}, {"role": "user", "content": "   "},
                {"role": "assistant", "content": [{"type": "image_url", "image_url": {"url": "http://x/y.png"}}]},
                {"role": "assistant", "content": [{"type": "redacted_thinking", "data": "zz"}]},
                {"type": "reasoning", "summary": []},
                {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
                {"role": "user", "content": "the only memory"}]
    assert said(to_turns(messages)) == [("user", "the only memory")]
    assert to_turns("") == [] and to_turns([]) == []


def test_responses_api_function_output_is_kept_on_request():
    items = [{"type": "function_call", "call_id": "c", "name": "get_time", "arguments": "{}"},
             {"type": "function_call_output", "call_id": "c", "output": "noon"}]
    assert to_turns(items) == []
    assert said(to_turns(items, keep_tool_results=True)) == [("get_time", "noon")]


def test_timezone_offsets_are_stored_in_utc_and_sessions_are_utc_dates():
    turns = to_turns([{"role": "user", "content": "late", "timestamp": "2023-05-08T23:30:00-05:00"},
                      {"role": "user", "content": "zulu", "created_at": "2023-05-09T01:00:00Z"}])
    assert [t.session_date for t in turns] == [datetime(2023, 5, 9, 4, 30), datetime(2023, 5, 9, 1, 0)]
    assert all(t.session_date.tzinfo is None for t in turns)  # naive UTC, as graphmem holds them
    assert [t.session for t in turns] == ["2023-05-09", "2023-05-09"]


def test_epoch_seconds_and_milliseconds_are_utc():
    moment = datetime(2023, 5, 8, 13, 56, 2)
    seconds = moment.replace(tzinfo=timezone.utc).timestamp()
    turns = to_turns([{"role": "user", "content": "s", "time": seconds},
                      {"role": "user", "content": "ms", "timestamp": int(seconds * 1000) + 250},
                      {"role": "user", "content": "text", "timestamp": str(int(seconds))}])
    assert [t.session_date for t in turns] == [moment, moment + timedelta(milliseconds=250), moment]


def test_at_is_the_time_of_messages_without_one_and_their_own_session_wins():
    at = datetime(2024, 3, 1, 22, 0, tzinfo=timezone(timedelta(hours=-5)))
    turns = to_turns([{"role": "user", "content": "no time"},
                      {"role": "user", "content": "own time", "timestamp": "2024-01-02T10:00:00"},
                      {"role": "user", "content": "own session", "session_id": "trip"},
                      ("Dana", "a pair")], at=at)
    assert [t.session_date for t in turns] == [datetime(2024, 3, 2, 3, 0), datetime(2024, 1, 2, 10, 0),
                                                datetime(2024, 3, 2, 3, 0), datetime(2024, 3, 2, 3, 0)]
    assert [t.session for t in turns] == ["2024-03-02", "2024-01-02", "trip", "2024-03-02"]


def test_a_turn_longer_than_the_limit_is_split_at_whitespace():
    word = "porto "
    text = word * (MAX_TURN_CHARS // len(word) * 2 + 10)
    turns = to_turns([{"role": "user", "content": text, "id": "long"}, ("Dana", "short")])
    pieces = [t for t in turns if t.speaker == "user"]
    assert len(pieces) == 3 and all(len(t.text) <= MAX_TURN_CHARS for t in pieces)
    assert all(t.text.startswith("porto") and t.text.endswith("porto") for t in pieces)  # no word cut
    assert " ".join(t.text for t in pieces) == text.strip()
    assert [t.source_id for t in pieces] == ["messages:1", "messages:1#2", "messages:1#3"]
    assert [t.message_id for t in pieces] == ["long", "long#2", "long#3"]
    assert [t.index for t in turns] == [0, 1, 2, 3] and turns[3].speaker == "Dana"


@pytest.mark.parametrize("messages, where, words", [
    (42, "messages: ", "got int"),
    ({"content": "hi"}, "messages:1: ", "role"),
    ([{"role": "user", "content": "ok"}, {"content": "no role"}], "messages:2: ", "role"),
    ([{"role": "user", "content": 5}], "messages:1: ", "content"),
    ([{"role": "user", "content": [{"type": "text", "text": None}]}], "messages:1: ", "part 1"),
    ([{"role": "user"}], "messages:1: ", "no text"),
    ([("Dana", 3)], "messages:1: ", "text must be a string"),
    ([("Dana", "hi", "extra")], "messages:1: ", "two items"),
    (["just a string in a list"], "messages:1: ", "not str"),
    ([{"role": 7, "content": "x"}], "messages:1: ", "role"),
    ([{"role": "user", "content": "x", "timestamp": "not a time at all"}], "messages:1: ", "unreadable timestamp"),
])
def test_bad_input_is_one_line_naming_the_message(messages, where, words):
    with pytest.raises(InputError) as err:
        to_turns(messages)
    text = str(err.value)
    assert text.startswith(where) and words in text and "\n" not in text


def test_errors_name_the_source_given():
    with pytest.raises(InputError, match=r"^session-42:3: "):
        to_turns([("A", "x"), ("B", "y"), {"content": "z"}], source="session-42")


def test_a_first_person_question_to_an_agents_memory_is_the_users(mem, user):
    """Messages of the role user (no name) are said by "user": a question in the first person
    to that memory is read as the user's ("my dog" is the user's dog), unless an asker is given."""
    mem.add([{"role": "user", "content": "My dog is called Biscuit and he loves the beach."},
             {"role": "assistant", "content": "Biscuit sounds like a happy dog! My favourite dog is Rex."}],
            user=user)
    got = mem.recall("What is my dog called?", user=user, k=2)
    assert any(note.startswith("asked by user") for note in got.notes)
    assert "Biscuit" in got.memories[0].text
    named = mem.recall("What is my dog called?", user=user, k=2, asker="assistant")
    assert not any(note.startswith("asked by user") for note in named.notes)
