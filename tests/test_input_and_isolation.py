"""Bad input gets a clear error and writes nothing; users never see each other."""

from __future__ import annotations

import json
import re

import pytest

from graphmem import InputError, SimplexTooLarge, TooManyFaces, UnknownEntity, UnknownUser


def test_empty_simplex_is_rejected(cx):
    with pytest.raises(InputError, match="at least one vertex"):
        cx.insert([])


def test_a_string_is_not_a_simplex(cx):
    with pytest.raises(InputError, match="not a single string"):
        cx.insert("Alice")


def test_too_large_says_how_to_raise_the_bound(cx, mem):
    limit = mem.settings.max_simplex_size
    with pytest.raises(SimplexTooLarge, match=r"GRAPHMEM_MAX_SIMPLEX_SIZE") as info:
        cx.insert([f"v{i}" for i in range(limit + 1)])
    assert info.value.size == limit + 1 and info.value.limit == limit
    with pytest.raises(UnknownUser):
        cx.stats()  # nothing was written, not even the user


def test_face_enumeration_is_bounded_not_cut(cx, mem):
    names = [f"v{i}" for i in range(20)]  # 2^20 - 1 faces > max_faces
    cx.insert(names)
    with pytest.raises(TooManyFaces, match="max_dim"):
        cx.faces(names)
    assert len(cx.faces(names, max_dim=1)) == 20 + 190


def test_unknown_user_is_named(mem):
    cx = mem.complex("nobody-has-this-id")
    for call in (lambda: cx.find(["#1"]), lambda: cx.cofaces(["x"]), cx.stats):
        with pytest.raises(UnknownUser, match="nobody-has-this-id"):
            call()


def test_unknown_vid_writes_nothing(cx):
    cx.insert(["Alice", "Bob"])
    before = cx.stats()
    with pytest.raises(UnknownEntity):
        cx.insert_many([[1, 2], [1, 999]])  # the valid word in the batch is not counted either
    assert cx.stats() == before
    assert cx.find([1, 2]).count == 1


def test_unknown_vid_in_a_later_batch_writes_nothing(cx):
    vids = list(cx.ensure_entities([f"v{i}" for i in range(40)]).values())
    words = [[vids[i], vids[j]] for i in range(40) for j in range(i + 1, 40)]  # 780: two batches
    with pytest.raises(UnknownEntity):
        cx.insert_many(words + [[vids[0], 10_000]])
    assert cx.stats()["simplices"] == 0


def test_same_vertex_by_name_and_vid(cx):
    vids = cx.ensure_entities(["Alice"])
    with pytest.raises(InputError, match="twice"):
        cx.insert(["Alice", vids["Alice"]])


def test_bad_vertex_types(cx):
    for bad in ([True], [1.5], [None], ["   "], [0]):
        with pytest.raises(InputError):
            cx.insert(bad)


def test_names_are_stored_verbatim(cx):
    tricky = ["O'Brien", "`x`", "{y}", "RETURN 1; MATCH (n) DETACH DELETE n", "\\u0000 back\\slash"]
    stored = cx.insert(tricky)
    assert set(stored.names) == set(tricky)
    assert cx.find(list(reversed(tricky))).count == 1
    assert cx.verify() == []


def test_users_are_isolated(mem, user):
    alice, bob = mem.complex(user + "-a"), mem.complex(user + "-b")
    alice.insert(["Paris", "Rome", "Oslo"])
    bob.insert(["Paris", "Rome"])
    # the same names get the same vids in both users: only the user id separates them
    assert alice.vids(["Paris", "Rome"]) == bob.vids(["Paris", "Rome"])
    assert [s.names for s in bob.cofaces(["Paris"])] == [("Paris", "Rome")]
    assert len(alice.cofaces(["Paris"])) == 1 and alice.cofaces(["Paris"])[0].dimension == 2
    assert bob.find(["Paris", "Rome", "Oslo"]) is None
    assert bob.gaps(["Paris", "Rome"]) == []
    assert [g.names for g in alice.gaps(["Paris", "Rome"])] == [("Paris", "Rome")]
    assert bob.remove(["Paris"], cofaces=True) == 1
    assert alice.find(["Oslo", "Paris", "Rome"]).count == 1
    assert alice.stats()["simplices"] == 1 and alice.verify() == [] and bob.verify() == []


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_k_must_be_a_positive_integer(mem, cx, k):
    cx.insert(["Alice", "Bob"])
    with pytest.raises(InputError, match="k must be a positive integer"):
        mem.recall("Alice", user=cx.user, k=k)


def test_a_name_the_store_does_not_know_is_reported_as_unknown(mem, user, tmp_path):
    path = tmp_path / "chat.txt"
    path.write_text("Alice: Bob and I hiked in Porto.\nBob: Porto was lovely.\n")
    mem.ingest(path, user=user)
    got = mem.recall("Did Alice and Zyxwvutsrq ever visit Porto together?", user=user, k=3)
    assert "Zyxwvutsrq" in got.analysis.unknown
    unknown = [g for g in got.gaps if g.kind == "unknown"]
    assert [(g.names, g.vids, g.question) for g in unknown] == [(("Zyxwvutsrq",), (), "Who or what is Zyxwvutsrq?")]


def test_a_home_that_is_a_file_is_one_clear_error(tmp_path):
    from graphmem import ConfigError, Memory

    home = tmp_path / "not-a-directory"
    home.write_text("")
    with pytest.raises(ConfigError, match="GRAPHMEM_HOME"):
        Memory(home=home)


@pytest.mark.parametrize("bad, named", [("a\x00b", "a NUL character (U+0000)"), ("a\ud800b", "a lone surrogate (U+D800)")])
def test_text_no_backend_can_store_is_one_clear_error_and_writes_nothing(mem, user, tmp_path, bad, named):
    """A NUL ends FalkorDB's statement and a lone surrogate (JSON's "\\ud800") has no UTF-8: each
    was a confusing server error or a UnicodeEncodeError traceback. Now one line, naming the
    message, the file and line, or the argument, on every backend, before anything is written."""
    with pytest.raises(InputError, match=rf"^messages:2: the message's text holds {re.escape(named)}"):
        mem.add([("Sam", "I live in Paris."), ("Sam", bad)], user=user)
    with pytest.raises(InputError, match=rf"^messages:1: the message's speaker holds {re.escape(named)}"):
        mem.add([(bad, "I live in Paris.")], user=user)
    transcript = tmp_path / "chat.jsonl"
    transcript.write_text('{"speaker": "Sam", "text": "I live in Paris."}\n'
                          + json.dumps({"speaker": "Sam", "text": bad}) + "\n")  # JSON escapes both
    with pytest.raises(InputError, match=rf"^{re.escape(str(transcript))}:2: the message's text holds"):
        mem.ingest(transcript, user=user)
    with pytest.raises(InputError, match=rf"the conversation name holds {re.escape(named)}"):
        mem.add([("Sam", "I live in Paris.")], user=user, conversation=bad)
    with pytest.raises(UnknownUser):
        mem.complex(user).stats()  # nothing was written, not even the user
    mem.add([("Sam", "I live in Paris.")], user=user)
    with pytest.raises(InputError, match=rf"the query holds {re.escape(named)}"):
        mem.recall(f"Where do I live? {bad}", user=user)
    with pytest.raises(InputError, match=rf"the asker holds {re.escape(named)}"):
        mem.recall("Where do I live?", user=user, asker=bad)


def test_any_other_argument_no_backend_takes_is_named_by_the_driver(mem, user, backend):
    """The drivers' net under every statement: a parameter with a lone surrogate is named on every
    backend, and one with a NUL on FalkorDB (whose server would read the statement only up to
    it; Neo4j stores a NUL as any other character), instead of a traceback or a server error."""
    mem.add([("Sam", "I live in Paris.")], user=user)
    with pytest.raises(InputError, match=r"^\$\w+ holds a lone surrogate \(U\+D800\), which cannot be stored or searched$"):
        mem.memories(user, entity="Par\ud800is")
    if backend == "falkordb":
        with pytest.raises(InputError, match=r"^\$\w+ holds a NUL character \(U\+0000\), which FalkorDB cannot take$"):
            mem.memories(user, entity="Par\x00is")


def test_a_user_id_add_refuses_is_not_left_waiting_for_close(home, user, caplog):
    from graphmem import Memory, Settings

    with Memory(settings=Settings(home=home)) as own:
        with pytest.raises(InputError, match="non-empty string"):
            own.add([("Sam", "I live in Paris.")], user="")
        with caplog.at_level("WARNING"):
            own.close()
    assert "abstracts not derived on close" not in caplog.text
