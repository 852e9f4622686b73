"""The BEAM harness (`bench.beam`): reading a conversation, evidence and the older/newer pair of
each paired question, Recall@k and All@k per ability on known rankings, newer-above-older, and
the run behind `graphmem bench beam` with graphmem on a real embedded database.

The conversation here is hand-written in BEAM's shape (never BEAM data: evaluation only)."""

from __future__ import annotations

import io
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner
from rich.console import Console

from bench.beam import (ABILITY_IDS, BeamResult, conversation_folders, load_conversation, load_conversations,
                        message_ids, newer_above_older, read_chat, run, scored_abilities)
from bench.locomo import BM25, run_conversations
from graphmem.cli import main
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import InputError


def message(mid: int, role: str, content: str, anchor: str | None = None) -> dict:
    m = {"id": mid, "role": role, "content": content, "time_anchor": anchor}
    if role == "user":
        m["question_type"] = "main_question"
    return m


CHAT = [
    {"batch_number": 1, "time_anchor": None, "turns": [
        [message(0, "user", "I live in Lisbon and I work as a baker at a small bakery. ->-> 1,1", "March-15-2024"),
         message(1, "assistant", "That sounds lovely; Lisbon has great pastries.")],
        [message(2, "user", "My dashboard API takes about 900ms to respond.->-> 1,2"),
         message(3, "assistant", "You could add caching with Redis to speed it up.")],
    ]},
    {"batch_number": 2, "time_anchor": None, "turns": [
        [message(4, "user", "I have never lived in Lisbon, I always lived in Porto. ->-> 2,(free text\nhere)",
                 "April-02-2024"),
         message(5, "assistant", "Porto is a beautiful city on the Douro river.")],
        [message(6, "user", "After the caching tweaks the dashboard API now responds in 250ms. ->-> 2,2"),
         message(7, "assistant", "Great improvement.")],
    ]},
]

IE, KU, KU2, CR, EO, TR = ("Which city has great pastries?", "What is the dashboard API response time now?",
                           "How fast is the dashboard API?", "Where have I lived?",
                           "In which order did I mention Lisbon, the API and Porto?", "How long after ... ?")
PROBING = {
    "abstention": [{"question": "What is my cat's name?", "source_chat_ids": None}],
    "information_extraction": [{"question": IE, "answer": "Lisbon", "source_chat_ids": [1]}],
    "knowledge_update": [{"question": KU, "answer": "250ms", "source_chat_ids": {"original_info": [2], "updated_info": [6]}},
                         {"question": KU2, "answer": "250ms", "source_chat_ids": {"original_info": [2], "updated_info": [6]}}],
    # the second statement is the earlier message: newer and older go by message order
    "contradiction_resolution": [{"question": CR, "ideal_answer": "?",
                                  "source_chat_ids": {"first_statement": [4], "second_statement": [0]}}],
    "event_ordering": [{"question": EO, "source_chat_ids": [[0, 2], [4], 4, 99]}],
    "temporal_reasoning": [{"question": TR, "source_chat_ids": {"first_event": [0], "second_event": [6]}}],
}


@pytest.fixture
def split(tmp_path) -> Path:
    """A split folder holding conversations 2 and 10 (numeric order: 2 first), the same chat."""
    for n in ("10", "2"):
        folder = tmp_path / "100K" / n
        folder.mkdir(parents=True)
        (folder / "chat.json").write_text(json.dumps(CHAT), encoding="utf-8")
        (folder / "probing_questions.json").write_text(json.dumps(PROBING), encoding="utf-8")
    return tmp_path / "100K"


class Fixed:
    """A fixed ranking per question: the figures are known in advance."""

    def __init__(self, rankings: dict[str, list[str]]):
        self.rankings = rankings

    def prepare(self, conversation_id, turns):
        pass

    def retrieve(self, conversation_id, question, k):
        return self.rankings.get(question, [])[:k]


def test_a_chat_is_read_as_turns_without_the_marker(split):
    turns = read_chat(split / "2")
    assert [t.source_id for t in turns] == [str(i) for i in range(8)]
    assert [t.message_id for t in turns] == [str(i) for i in range(8)]
    assert turns[0].text == "I live in Lisbon and I work as a baker at a small bakery."
    assert turns[2].text == "My dashboard API takes about 900ms to respond."
    assert turns[4].text == "I have never lived in Lisbon, I always lived in Porto."  # a marker over two lines
    assert [t.speaker for t in turns[:2]] == ["user", "assistant"]
    assert [t.session for t in turns] == ["1"] * 4 + ["2"] * 4
    assert turns[3].session_date == datetime(2024, 3, 15, tzinfo=timezone.utc)
    assert turns[7].session_date == datetime(2024, 4, 2, tzinfo=timezone.utc)


def test_questions_evidence_and_the_newer_statement(split):
    assert [f.name for f in conversation_folders([split])] == ["2", "10"]
    assert [c.id for c in load_conversations([split], limit=1)] == ["100K-2"]
    conv = load_conversation(split / "2")
    qs = {q.question: q for q in conv.questions.questions}
    assert len(qs) == 6 and [d.reason for d in conv.questions.dropped] == ["no evidence annotated"]
    assert qs[EO].evidence == ("0", "2", "4") and qs[EO].ability == "event_ordering"
    assert sorted((i.kind, i.raw) for i in conv.questions.issues) == [("duplicate", "4"), ("unknown", "99")]
    assert (qs[KU].older, qs[KU].newer) == (("2",), ("6",))
    assert (qs[CR].older, qs[CR].newer) == (("0",), ("4",))   # by message order, not by key
    assert qs[CR].evidence == ("4", "0") and qs[CR].category == ABILITY_IDS["contradiction_resolution"]
    assert (qs[TR].older, qs[TR].newer) == ((), ())            # not a paired ability
    with pytest.raises(InputError, match="no chat.json"):
        conversation_folders([split / "nowhere"])


def test_newer_above_older_and_message_ids():
    assert newer_above_older(["6", "1", "2"], ("2",), ("6",)) is True
    assert newer_above_older(["2", "6"], ("2",), ("6",)) is False
    assert newer_above_older(["0", "5", "4"], ("0",), ("4",), depth=2) is None   # the newer one is below the depth
    assert newer_above_older(["0", "5", "4"], ("0",), ("4",), depth=3) is False
    assert newer_above_older(["9", "3", "1"], ("1", "2"), ("3", "4")) is True    # each side's best-ranked message
    assert message_ids(["4", "4#2", None, "7#3", "1", "7"]) == ["4", "7", "1"]


def test_scores_per_ability_and_newer_first_on_known_rankings(split):
    fixed = Fixed({IE: ["1", "x"], KU: ["6", "2"], KU2: ["2", "6"], CR: ["0", "5", "4"],
                   EO: ["2", "0", "x"], TR: []})
    conversations = load_conversations([split], limit=1)
    abilities = scored_abilities(conversations)
    assert [BeamResult.CATEGORY_NAMES[i] for i in abilities] == [
        "contradiction_resolution", "event_ordering", "information_extraction", "knowledge_update",
        "temporal_reasoning"]   # no abstention: it has no evidence
    result = run_conversations(conversations, {"fixed": fixed, "BM25": BM25()}, ks=(2, 1), result=BeamResult,
                               categories=abilities)
    assert isinstance(result, BeamResult) and result.ks == (1, 2) and result.depth == 2
    overall = result.scores("fixed")
    assert overall["n"] == 6
    assert overall["recall"][1] == pytest.approx((1 + 0.5 + 0.5 + 0.5 + 1 / 3 + 0) / 6)
    assert overall["recall"][2] == pytest.approx((1 + 1 + 1 + 0.5 + 2 / 3 + 0) / 6)
    assert overall["all"][2] == pytest.approx(3 / 6)
    ku = result.scores("fixed", ABILITY_IDS["knowledge_update"])
    assert ku["n"] == 2 and ku["recall"][1] == 0.5 and ku["all"][2] == 1.0
    assert result.scores("fixed", ABILITY_IDS["event_ordering"])["recall"][2] == pytest.approx(2 / 3)
    assert result.unknown_ids["fixed"] == 1
    # KU: newer first once, older first once; CR: the newer statement is below the top 2
    assert result.newer_first("fixed") == {"questions": 3, "both_in_top": 2, "newer_first": 1, "share": 0.5, "depth": 2}
    assert result.newer_first("fixed", "knowledge_update")["share"] == 0.5
    assert result.newer_first("fixed", "contradiction_resolution")["both_in_top"] == 0

    data = json.loads(json.dumps(result.to_dict(details=True)))
    assert data["benchmark"] == "beam"
    assert data["systems"]["fixed"]["scores"]["knowledge_update"]["recall"]["1"] == 0.5
    assert data["newer_above_older"]["fixed"]["overall"]["share"] == 0.5
    assert data["newer_above_older"]["fixed"]["contradiction_resolution"]["share"] is None
    assert data["questions"]["dropped"] == {"no evidence annotated": 1} and "abstention" not in data["systems"]["fixed"]["scores"]
    assert {r["ability"] for r in data["records"]} >= {"knowledge_update", "event_ordering"}

    out = io.StringIO()
    result.render(Console(file=out, width=220))
    text = out.getvalue()
    assert "BEAM retrieval: 6 questions" in text and "knowledge_update" in text and "information_extraction" in text
    assert "newer statement above the older" in text and "R@2 / BM25" not in text  # no Dense: no ratio column
    assert "not scored" not in text and "dropped 1 (1 no evidence annotated)" in text


def test_bench_beam_runs_graphmem_through_its_public_api(split, tmp_path):
    """`graphmem bench beam` end to end on a real embedded database: graphmem's rankings are
    message ids; a second run on the same --home finds the conversation ingested."""
    home, out = tmp_path / "home", tmp_path / "r.json"
    try:
        args = ["bench", "beam", str(split), "--limit", "1", "--k", "1,2", "--home", str(home), "--json", str(out)]
        done = CliRunner().invoke(main, args)
        assert done.exit_code == 0, done.output
        data = json.loads(out.read_text())
        assert list(data["systems"]) == ["graphmem", "BM25", "Dense"] and data["asker"] is None
        assert data["questions"]["scored"] == 6 and data["conversations"][0]["id"] == "100K-2"
        assert all(s["unknown_ids"] == 0 for s in data["systems"].values())
        assert all(s["latency"]["prepare_turns_per_s"] > 0 for s in data["systems"].values())  # ingest rate
        graphmem = data["systems"]["graphmem"]["scores"]
        assert graphmem["knowledge_update"]["recall"]["2"] == 1.0   # both dashboard messages, of eight
        again = run([split], ks="1,2", limit=1, home=home, asker="user", console=Console(file=io.StringIO()))
        assert again.asker == "user" and len(again.records) == 6
        assert again.conversations[0].prepare_seconds["graphmem"] < data["conversations"][0]["prepare_seconds"]["graphmem"]
    finally:
        EmbeddedServer(home).stop()
    bad = CliRunner().invoke(main, ["bench", "beam", str(split), "--k", "0"])
    assert bad.exit_code == 1 and "comma-separated positive integers" in bad.output
