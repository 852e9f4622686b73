"""Small memories (bench/histories.py): a user's dozen messages on several topics, some facts
changed, as an agent's memory holds them in its first weeks. There every message is among the
first results, so a change told about one thing is there to be taken for a version of another:
recall must answer the present with the newer fact, the past with the older, and leave a fact
that did not change, or only seemed to, where it is."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bench.histories import KINDS, measure, read_histories
from graphmem import Memory
from graphmem.errors import InputError

DATA = Path(__file__).parent / "data"
START = datetime(2025, 3, 1, 9, tzinfo=timezone.utc)
LATER = START + timedelta(days=40)


def _history(mem: Memory, user: str, messages: list[tuple[datetime, str]]) -> list[str]:
    return [mem.add([("user", text)], user=user, at=at).memory_ids[0] for at, text in messages]


def _first(mem: Memory, user: str, question: str) -> str:
    return mem.recall(question, user=user, k=5, asked_at=LATER + timedelta(days=1)).memories[0].uid


def test_a_change_about_another_thing_is_no_version_of_a_fact(mem, user):
    """The messages of one person are all near each other: "I relocated to Vancouver" was read as
    the newer version of the Postgres migration, and the Postgres message as the older version
    of the move. The migration told done is its version."""
    ids = _history(mem, user, [
        (START, "Hi! I'm Priya, a backend engineer at Lumen Health in Toronto."),
        (START + timedelta(minutes=1), "Our main service is written in Go and we deploy it to GKE."),
        (START + timedelta(minutes=2), "I'm vegetarian, by the way, if you ever suggest recipes."),
        (START + timedelta(minutes=3), "We're migrating from Postgres 13 to Postgres 16 next month."),
        (LATER, "I relocated to Vancouver last week, same job, now fully remote."),
        (LATER + timedelta(minutes=1), "Rates dropped a bit. Thinking I'd refinance if they get to 6%, not yet though."),
    ])
    assert _first(mem, user, "Which Postgres version are we moving to?") == ids[3]  # not the relocation
    assert _first(mem, user, "Any dietary restrictions I have?") == ids[2]
    assert _first(mem, user, "Where do we deploy our service?") == ids[1]
    done = _history(mem, user, [(LATER + timedelta(minutes=2), "Update: the Postgres 16 migration is done, went smoothly.")])
    assert _first(mem, user, "Which Postgres version are we on?") == done[0]


def test_the_askers_own_fact_first_then_its_newer_version(mem, user):
    """A coworker's change ranked first gives way to the asker's own fact (whose.mine_first), and
    then that fact's newer version goes above it: the other way round, the versions were read of
    the coworker's message."""
    ids = _history(mem, user, [
        (START, "I work night shifts at St. Luke's, 7pm to 7am, three nights a week."),
        (LATER, "a coworker of mine switched to day shift and says she's sleeping way better"),
        (LATER + timedelta(days=3), "Got moved to day shifts starting next week, 7a to 7p. Any tips for flipping my sleep?"),
    ])
    assert _first(mem, user, "What shifts am I working now?") == ids[2]


# Floors: what the set reaches, less one question, for the arithmetic's small differences between
# CPUs. The sets were written, without seeing graphmem, by someone asked for small memories in which
# facts change (bench/README.md, "Small memories"); the second, with the most look-alikes and facts
# left unchanged, runs here (a minute and a half), all four in `python -m bench.histories`. The first's
# floors would be current 0.71, past 0.58, unchanged 0.8, lookalike 0.76.
@pytest.mark.parametrize("name, floors", [
    ("histories_unseen_b.jsonl", {"current": 0.67, "past": 0.68, "unchanged": 0.71, "lookalike": 0.61}),
])
def test_histories_written_by_someone_who_never_read_the_code(mem, user, name, floors):
    figures = measure(mem, DATA / name, user, dense=False)  # no Dense figure is asserted
    print(f"{name}: " + ", ".join(f"{k} {figures.share(figures.answered, k):.1%}" for k in KINDS)
          + "".join(f"; {w}" for w in figures.wrong))
    assert sum(figures.asked.values()) >= 150
    for kind, floor in floors.items():
        assert figures.share(figures.answered, kind) >= floor, kind


def test_a_bad_history_is_refused_with_its_line(tmp_path):
    path = tmp_path / "h.jsonl"
    path.write_text('{"user": "a", "messages": [{"at": "2025-01-01T00:00:00Z", "text": "I live in Leeds."}], '
                    '"questions": [{"question": "Where do I live?", "answer": [0], "kind": "current"}]}\n'
                    '{"user": "b", "messages": [{"at": "2025-01-01T00:00:00Z", "text": "I live in Leeds."}], '
                    '"questions": [{"question": "Where do I live?", "answer": [3], "kind": "current"}]}\n')
    with pytest.raises(InputError) as raised:
        read_histories(path)
    assert str(raised.value).startswith(f"{path}:2: a question needs")
