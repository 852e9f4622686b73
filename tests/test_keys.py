"""No user input can take the embedded server down: every value that reaches a key is bounded
and canonical, user ids are checked at the edge, and FalkorDB enforces no constraint on a
string key (its enforcement crashed the server on a value over 4,096 bytes or with surrounding
whitespace)."""

from __future__ import annotations

import threading
from datetime import datetime, timezone

import pytest

from graphmem import InputError, Turn
from graphmem.keys import KEY_BYTES, bounded, check_user


def alive(mem) -> bool:
    return mem.run("user_exists", user_id="nobody")[0]["known"] is False


def turn(text: str, speaker: str = "Alice", session: str = "s1", line: int = 1) -> Turn:
    return Turn(source_id=f"m{line}", speaker=speaker, text=text, session=session,
                session_date=datetime(2024, 5, 8, tzinfo=timezone.utc), line=line)


@pytest.mark.parametrize("text", [
    "I love " + "x" * 4097 + " very much.",
    "My number is " + "7" * 5000 + ".",
    "我" * 2000,
    ("Paris is lovely in spring. " * 4000)[:100_000],
    "We met " + "Zqx" * 3600 + " in Lisbon.",  # one long token a tagger may take for a name
], ids=["long-word", "digits", "cjk", "100k-message", "long-name"])
def test_a_message_with_a_huge_token_is_stored_and_the_server_lives(mem, user, text):
    summary = mem.ingest([turn(text), turn("And then we had lunch in Lisbon.", "Bob", line=2)], user=user)
    assert summary.memories_added == 2 and alive(mem)
    assert mem.ingest([turn(text), turn("And then we had lunch in Lisbon.", "Bob", line=2)],
                      user=user).memories_added == 0  # the retry finds them
    assert mem.recall("lunch in Lisbon", user=user, k=2).memories


@pytest.mark.parametrize("session", ["s" * 5000, "session one ", " s2"], ids=["5000-chars", "trailing-space",
                                                                            "leading-space"])
def test_an_odd_session_id_is_stored_and_the_server_lives(mem, user, session):
    assert mem.ingest([turn("I adopted a cat.", session=session)], user=user).memories_added == 1
    assert alive(mem) and mem.complex(user).stats()["sessions"] == 1


def test_a_huge_speaker_or_entity_name_is_stored_and_the_server_lives(mem, user):
    speaker = "Al" * 3000
    assert mem.ingest([turn("I visited Rome.", speaker=speaker)], user=user).memories_added == 1
    cx = mem.complex(user)
    name = "Ω" * 3000
    simplex = cx.insert([name, "Rome"])
    assert alive(mem) and cx.find([name, "Rome"]) == simplex and name in simplex.names


def test_the_raw_statement_with_a_huge_key_does_not_crash_the_server(mem, user):
    mem.run("ensure_entities", user_id=user, entities=[{"norm": "x" * 4097, "name": "n", "kind": "GPE"}], now=0.0,
            pending=False)
    mem.run("ensure_entities", user_id=user, entities=[{"norm": " padded ", "name": "n", "kind": "GPE"}], now=0.0,
            pending=False)
    assert alive(mem)


@pytest.mark.parametrize("bad", ["Alice ", " Alice", "Alice\t", "\r\nFLUSHALL\r\n", "a" * 5000, "A\x00lice",
                                 "e\u0301", ""])
def test_a_bad_user_id_is_refused_in_one_line_before_anything_is_written(mem, bad):
    for call in (lambda: mem.complex(bad), lambda: mem.ingest([turn("hello there")], user=bad),
                 lambda: mem.recall("hello", user=bad)):
        with pytest.raises(InputError) as caught:
            call()
        assert "\n" not in str(caught.value) and "user id" in str(caught.value)
    assert alive(mem)


def test_user_ids_are_exact_and_opaque():
    assert check_user("Ａlice") == "Ａlice" and check_user("alice") == "alice"  # no folding: two users
    assert check_user("ünïcødé ✓") == "ünïcødé ✓"


def test_bounded_keys_are_short_canonical_and_distinct():
    long_a, long_b = "a" * 5000, "a" * 4999 + "b"
    assert bounded("Paris") == "Paris"
    assert len(bounded(long_a).encode()) <= KEY_BYTES and bounded(long_a) != bounded(long_b)
    assert bounded(" x ") == bounded(" x ").strip() and bounded(" x ") != bounded("x")
    assert bounded(bounded(long_a)) == bounded(long_a)  # a key is its own key


def test_concurrent_writers_never_duplicate_a_string_key(mem, user):
    names = [f"Place {i}" for i in range(40)]
    errors: list[BaseException] = []

    def write(offset: int) -> None:
        try:
            cx = mem.complex(user)
            for i in range(len(names)):
                cx.insert([names[(i + offset) % len(names)], names[(i + offset + 1) % len(names)]])
        except BaseException as exc:  # noqa: BLE001 (reported below)
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(k * 7,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    rows = mem.driver.run("MATCH (e:Entity {user_id: $u}) RETURN e.norm AS norm, count(*) AS n", {"u": user})
    assert len(rows) == len(names) and all(r["n"] == 1 for r in rows)
    nodes = mem.driver.run("MATCH (s:SimplexNode {user_id: $u}) RETURN s.key AS key, count(*) AS n", {"u": user})
    assert all(r["n"] == 1 for r in nodes)
    assert mem.complex(user).verify() == []
