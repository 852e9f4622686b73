"""`python -m bench.updates` reads pairs written by people: a bad line gets one line naming the
file and the line, before anything is written."""

from __future__ import annotations

import pytest

from bench.sets import typed
from bench.updates import main, read_pairs
from graphmem.errors import InputError

PAIR = '{"kind": "update", "older": "I live in Leeds.", "newer": "I moved to Bristol.", "question": "Where do I live?"}'


@pytest.mark.parametrize("bad, says", [
    ('{"kind": "update", "older": "I live in Leeds.", "newer": "I moved to Bristol."}', "needs 'question'"),
    ('{"kind": "changed", "older": "a", "newer": "b", "question": "q"}', '"update" or "unrelated"'),
    ('{"kind": "update", "older": "", "newer": "b", "question": "q"}', "needs 'older'"),
    ("{not json", "not JSON"),
])
def test_a_bad_pair_is_named_by_file_and_line(tmp_path, capsys, bad, says):
    path = tmp_path / "pairs.jsonl"
    path.write_text(f"{PAIR}\n\n{bad}\n", encoding="utf-8")
    assert main([str(path)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {path}:3: ") and says in err and "\n" not in err


def test_pairs_that_are_not_asked_need_no_question(tmp_path):
    path = tmp_path / "pairs.jsonl"
    path.write_text('{"kind": "unrelated", "older": "I live in Leeds.", "newer": "My sister lives in Rome."}\n',
                    encoding="utf-8")
    assert read_pairs(path, ask=False)[0]["kind"] == "unrelated"
    with pytest.raises(InputError, match="pairs.jsonl:1: a pair needs 'question'"):
        read_pairs(path)


def test_a_set_is_typed_as_a_phone_or_a_hurried_chat_types_it(tmp_path, capsys):
    said = {"older": "I'm at my parents' place, 'for now'. Don't ask, that's it", "answer": [0, 2]}
    assert typed(said, "typographic") == \
        {"older": "I\u2019m at my parents\u2019 place, 'for now'. Don\u2019t ask, that\u2019s it", "answer": [0, 2]}
    assert typed(said, "unmarked") == \
        {"older": "Im at my parents' place, 'for now'. Dont ask, thats it", "answer": [0, 2]}
    path = tmp_path / "pairs.jsonl"
    path.write_text(f"{PAIR}\n", encoding="utf-8")
    assert main([str(path), "--typed", "typographic"]) == 0
    assert "pairs" in capsys.readouterr().out and path.read_text(encoding="utf-8") == f"{PAIR}\n"
