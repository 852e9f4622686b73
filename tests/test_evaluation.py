"""The LoCoMo harness (`bench.locomo`, `bench.locomo_run`): evidence normalisation, metrics, the
BM25 and dense baselines, the runner.

Conversations here are hand-written in LoCoMo's shape (never LoCoMo data: it is CC BY-NC)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest
from rich.console import Console

from bench import locomo_run
from bench.locomo import (BM25, Dense, all_at_k, evidence_misses, load_conversations, load_questions, normalise_dia_id,
                          normalise_evidence, recall_at_k, run_benchmark, scan_questions, tokenize, turn_text)
from bench.locomo_run import GraphmemSystem
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import InputError


@dataclass(frozen=True)
class T:
    """Turn-shaped: what systems read from a turn."""
    source_id: str
    speaker: str
    text: str
    session: str = "1"
    session_date: datetime | None = None
    line: int = 0
    caption: str | None = None
    index: int = 0


# ------------------------------------------------------------------ evidence ids

@pytest.mark.parametrize("raw, expected", [
    ("D1:3", "D1:3"),
    ("D:11:26", "D11:26"),      # stray colon after D
    ("D30:05", "D30:5"),        # zero-padded turn
    ("D03:7", "D3:7"),
    ("d2:4", "D2:4"),
    (" D2:4 ", "D2:4"),
    ("D", None),                # bare D
    ("D1", None),
    ("1:3", None),
    ("", None),
])
def test_normalise_dia_id(raw, expected):
    assert normalise_dia_id(raw) == expected


def test_semicolon_list_is_split():
    ids, issues = normalise_evidence(["D8:6; D9:17"])
    assert ids == ("D8:6", "D9:17")
    assert [(i.kind, i.result) for i in issues] == [("split", ("D8:6", "D9:17"))]


def test_space_separated_ids_are_split():
    ids, issues = normalise_evidence(["D1:2 D1:5  D2:1", "D3:3"])
    assert ids == ("D1:2", "D1:5", "D2:1", "D3:3")
    assert [i.kind for i in issues] == ["split"]


def test_malformed_and_unknown_ids_are_dropped_and_reported():
    valid = {"D1:18", "D1:20", "D11:26", "D30:5"}
    ids, issues = normalise_evidence(["D1:18", "D", "D1:20", "D:11:26", "D30:05", "D10:19", "D1:18"], valid)
    assert ids == ("D1:18", "D1:20", "D11:26", "D30:5")
    kinds = [(i.kind, i.raw) for i in issues]
    assert ("malformed", "D") in kinds
    assert ("reformatted", "D:11:26") in kinds and ("reformatted", "D30:05") in kinds
    assert ("unknown", "D10:19") in kinds
    assert ("duplicate", "D1:18") in kinds


def test_nothing_valid_left():
    assert normalise_evidence(["D"], {"D1:1"})[0] == ()
    assert normalise_evidence(["D9:9"], {"D1:1"})[0] == ()
    assert normalise_evidence([], {"D1:1"}) == ((), [])


# ------------------------------------------------------------------ metrics

def test_recall_and_all_at_k_by_hand():
    ranking = ["a", "b", "c", "d", "e"]
    # evidence b, d, z: b at rank 2, d at rank 4, z never
    assert recall_at_k(ranking, ("b", "d", "z"), 1) == 0
    assert recall_at_k(ranking, ("b", "d", "z"), 2) == pytest.approx(1 / 3)
    assert recall_at_k(ranking, ("b", "d", "z"), 5) == pytest.approx(2 / 3)
    assert all_at_k(ranking, ("b", "d", "z"), 5) == 0.0
    assert all_at_k(ranking, ("a", "c"), 2) == 0.0
    assert all_at_k(ranking, ("a", "c"), 3) == 1.0
    assert recall_at_k(ranking, ("a", "c"), 3) == 1.0
    assert recall_at_k(["b", "b", "b"], ("b", "c"), 3) == 0.5   # repeats count once
    with pytest.raises(ValueError):
        recall_at_k(ranking, (), 3)


class Fixed:
    """Returns a fixed ranking per question: scores are known in advance."""

    def __init__(self, rankings: dict[str, list[str]]):
        self.rankings, self.prepared = rankings, []

    def prepare(self, conversation_id, turns):
        self.prepared.append((conversation_id, [t.source_id for t in turns]))

    def retrieve(self, conversation_id, question, k):
        return self.rankings.get(question, [])[:k]


# ------------------------------------------------------------------ a tiny LoCoMo-shaped conversation

def _turn(dia_id, speaker, text, **extra):
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


CONVERSATION = {
    "speaker_a": "Ana",
    "speaker_b": "Ben",
    "session_1_date_time": "1:56 pm on 8 May, 2023",
    "session_1": [
        _turn("D1:1", "Ana", "Hi Ben! I finally adopted a puppy named Biscuit."),
        _turn("D1:2", "Ben", "Congrats! I spent the weekend repairing my sailboat."),
        _turn("D1:3", "Ana", "Look at this.", img_url=["http://example.invalid/x.jpg"],
              blip_caption="a photo of a violin on a wooden table", query="violin"),
        _turn("D1:4", "Ben", "I am learning to bake sourdough bread."),
    ],
    "session_2_date_time": "10:00 am on 1 June, 2023",
    "session_2": [
        _turn("D2:1", "Ben", "The sailboat race in Marseille went great, we came second."),
        _turn("D2:2", "Ana", "Biscuit chewed my new running shoes."),
        _turn("D2:3", "Ben", "My sourdough starter died, sadly."),
    ],
    # annotations: never retrieved over
    "session_1_observation": {"Ana": [["Ana owns a zeppelin", "D1:1"]]},
    "session_1_summary": "Ana talks about her zeppelin.",
    "events_session_1": {"Ana": ["zeppelin"], "Ben": [], "date": "8 May, 2023"},
    "qa": [
        {"question": "What is the name of Ana's puppy?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4},
        {"question": "Where was the sailboat race?", "answer": "Marseille", "evidence": ["D2:1"], "category": 2},
        {"question": "What did Ana's puppy chew, and what is its name?", "answer": "shoes; Biscuit",
         "evidence": ["D1:1; D2:2"], "category": 1},
        {"question": "What instrument did Ana show in a photo?", "answer": "violin", "evidence": ["D:1:3"],
         "category": 4},
        {"question": "What does Ben bake?", "answer": "sourdough", "evidence": ["D1:04 D2:3"], "category": 1},
        {"question": "Would Ben like boats?", "answer": "yes", "evidence": [], "category": 3},
        {"question": "Which pets does Ben have?", "answer": "none", "evidence": ["D"], "category": 3},
        {"question": "What did Ben repair?", "answer": "a car", "evidence": ["D9:9"], "category": 4},
        {"question": "What did Ana repair?", "adversarial_answer": "her sailboat", "evidence": ["D1:2"],
         "category": 5},
    ],
}


@pytest.fixture
def locomo_file(tmp_path) -> Path:
    path = tmp_path / "conv-x.json"
    path.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    return path


def test_questions_are_normalised_and_invalid_ones_dropped(locomo_file):
    sets = scan_questions(locomo_file)
    assert len(sets) == 1
    qs = sets[0]
    assert qs.conversation == "conv-x"
    assert [q.evidence for q in qs.questions] == [
        ("D1:1",), ("D2:1",), ("D1:1", "D2:2"), ("D1:3",), ("D1:4", "D2:3"), ("D1:2",)]
    assert [(d.index, d.reason) for d in qs.dropped] == [
        (5, "no evidence annotated"), (6, "no valid evidence left"), (7, "no valid evidence left")]
    assert qs.questions[-1].category == 5 and qs.questions[-1].answer == "her sailboat"
    assert load_questions(locomo_file) == qs.questions


def test_turns_are_the_raw_turns_only(locomo_file):
    (conv,) = load_conversations(locomo_file)
    assert [t.source_id for t in conv.turns] == ["D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2", "D2:3"]
    assert not any("zeppelin" in turn_text(t) for t in conv.turns)
    assert turn_text(conv.turns[2]) == "Ana: Look at this. [image: a photo of a violin on a wooden table]"


def test_bm25_on_a_tiny_conversation(locomo_file):
    bm25 = BM25()
    (conv,) = load_conversations(locomo_file)
    bm25.prepare(conv.id, conv.turns)
    assert bm25.retrieve(conv.id, "What is the name of Ana's puppy?", 1) == ["D1:1"]
    assert bm25.retrieve(conv.id, "the sailboat race in Marseille", 1) == ["D2:1"]
    assert bm25.retrieve(conv.id, "which instrument: a VIOLIN?", 1) == ["D1:3"]   # via the caption
    assert len(bm25.retrieve(conv.id, "sourdough", 10)) == 7
    assert tokenize("Ana's VIOLIN, 2023!") == ["ana", "s", "violin", "2023"]


def test_run_benchmark_scores_and_reports(locomo_file, tmp_path):
    fixed = Fixed({
        "What is the name of Ana's puppy?": ["D1:1"],                       # R@1 1
        "Where was the sailboat race?": ["D1:2", "D2:1"],                   # R@1 0, R@2 1
        "What did Ana's puppy chew, and what is its name?": ["D2:2", "D1:4"],  # R 1/2, All 0
        "What instrument did Ana show in a photo?": ["nope", "D1:3"],       # R@1 0, R@2 1
        "What does Ben bake?": ["D2:3", "D1:4"],                            # R@1 1/2, R@2 1
    })
    seen = []
    result = run_benchmark([locomo_file], {"BM25": BM25(), "fixed": fixed}, ks=(2, 1), progress=seen.append)
    assert result.ks == (1, 2)
    assert fixed.prepared == [("conv-x", ["D1:1", "D1:2", "D1:3", "D1:4", "D2:1", "D2:2", "D2:3"])]
    assert len(result.records) == 5 and result.not_scored == 1

    overall = result.scores("fixed")
    assert overall["n"] == 5
    assert overall["recall"][1] == pytest.approx((1 + 0 + 0.5 + 0 + 0.5) / 5)
    assert overall["recall"][2] == pytest.approx((1 + 1 + 0.5 + 1 + 1) / 5)
    assert overall["all"][2] == pytest.approx(4 / 5)
    multi = result.scores("fixed", 1)
    assert multi["n"] == 2 and multi["recall"][2] == pytest.approx(0.75) and multi["all"][2] == 0.5
    assert result.scores("fixed", 3)["n"] == 0
    assert result.unknown_ids == {"BM25": 0, "fixed": 1}
    assert result.dropped_counts() == {"no evidence annotated": 1, "no valid evidence left": 2}
    assert result.issue_counts()["split"] == 2 and result.issue_counts()["reformatted"] == 2
    assert result.scores("BM25", 4)["recall"][1] == 1.0

    lat = result.latency("BM25")
    assert lat["n"] == 5 and 0 < lat["p50_ms"] <= lat["p95_ms"]
    assert [p.stage for p in seen][0] == "prepare" and seen[-1].stage == "done" and seen[-1].done == seen[-1].total == 10

    data = json.loads(json.dumps(result.to_dict(details=True)))
    assert data["systems"]["fixed"]["scores"]["multi-hop"]["recall"]["2"] == pytest.approx(0.75)
    assert data["questions"]["scored"] == 5 and data["questions"]["not_scored"] == 1
    assert len(data["records"]) == 5 and "records" not in result.to_dict()

    out = io.StringIO()
    result.render(Console(file=out, width=200))
    text = out.getvalue()
    assert "multi-hop" in text and "fixed" in text and "R@2 / BM25" in text and "p95 ms" in text
    assert "dropped 3" in text

    png = result.plot(tmp_path / "r.png", k=2)
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_dense_baseline_ranks_by_meaning():
    turns = [T("D1:1", "Ana", "The stock market fell sharply today."),
             T("D1:2", "Ben", "We brought home a little puppy from the shelter."),
             T("D1:3", "Ana", "I baked bread this morning.")]
    dense = Dense()
    dense.prepare("c", turns)
    assert dense.retrieve("c", "Who adopted a dog?", 1) == ["D1:2"]
    assert dense.retrieve("c", "finance news", 3)[0] == "D1:1"
    assert sorted(dense.retrieve("c", "anything", 10)) == ["D1:1", "D1:2", "D1:3"]


def test_upstream_list_file_holds_several_conversations(tmp_path):
    """locomo10.json's shape: a list of {sample_id, conversation: {...}, qa: [...]}."""
    nested = {k: v for k, v in CONVERSATION.items() if k.startswith(("speaker_", "session_"))}
    second = {**nested, "session_2": nested["session_2"][:1]}
    items = [{"sample_id": "conv-1", "conversation": nested, "qa": CONVERSATION["qa"][:2]},
             {"sample_id": "conv-2", "conversation": second, "qa": CONVERSATION["qa"][2:3]}]
    path = tmp_path / "locomo10.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    convs = load_conversations(path)
    assert [(c.id, len(c.turns)) for c in convs] == [("conv-1", 7), ("conv-2", 5)]
    # conv-2 lost D2:2, so the multi-hop question keeps D1:1 only
    assert [q.evidence for q in load_questions(path)] == [("D1:1",), ("D2:1",), ("D1:1",)]
    result = run_benchmark(path, {"BM25": BM25()}, ks=(1,))
    assert [c.id for c in result.conversations] == ["conv-1", "conv-2"] and len(result.records) == 3


def test_evidence_misses_say_where_recall_left_the_evidence(locomo_file, mem):
    conversation = load_conversations(locomo_file)[0]
    GraphmemSystem(mem).prepare(conversation.id, conversation.turns)
    wide = evidence_misses(mem, [locomo_file], category=1, k=10)  # 7 turns: every one fits in 10
    assert wide == {"questions": 2, "all in the top k": 2, "some not a candidate": 0, "all candidates, some below k": 0}
    narrow = evidence_misses(mem, [locomo_file], category=1, k=1)  # two evidence turns each: never all in 1
    assert narrow["all in the top k"] == 0 and narrow["questions"] == 2
    assert narrow["some not a candidate"] + narrow["all candidates, some below k"] == 2


# ------------------------------------------------------------------ the run behind `graphmem bench locomo`

def servers_under(directory: Path) -> list[int]:
    """Processes (embedded FalkorDB servers) whose working directory is under `directory`."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and os.readlink(proc / "cwd").startswith(str(directory)):
                pids.append(int(proc.name))
        except OSError:  # gone, or not ours
            continue
    return pids


@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads working directories from /proc (Linux)")
def test_the_temporary_server_is_stopped_even_when_the_run_fails(locomo_file, tmp_path, monkeypatch):
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))  # where the run's temporary home goes
    with pytest.raises(InputError, match="appears twice"):  # raised after the server started
        locomo_run.run([locomo_file, locomo_file], ks="1", console=Console(file=io.StringIO()))
    assert servers_under(scratch) == []
    out = io.StringIO()
    result = locomo_run.run([locomo_file], ks="1,2", json_out=tmp_path / "r.json", console=Console(file=out, width=200))
    assert servers_under(scratch) == [] and list(scratch.glob("graphmem-locomo-*")) == []
    assert result.systems == ["graphmem", "BM25", "BM25-lemma", "Dense"] and len(result.records) == 5
    assert json.loads((tmp_path / "r.json").read_text())["questions"]["scored"] == 5
    assert "LoCoMo retrieval: 5 questions" in out.getvalue()


def test_python_m_bench_locomo(locomo_file, tmp_path):
    """The same run from `python -m bench`; an error is one line on stderr."""
    root = Path(__file__).resolve().parents[1]
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_URI"}
    env["GRAPHMEM_HOME"] = str(tmp_path / "home")
    try:
        done = subprocess.run([sys.executable, "-m", "bench", "locomo", str(locomo_file), "--k", "1",
                               "--home", str(tmp_path / "home"), "--json", str(tmp_path / "r.json")],
                              cwd=root, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
        assert json.loads((tmp_path / "r.json").read_text())["systems"]["graphmem"]["scores"]["overall"]["n"] == 5
        bad = subprocess.run([sys.executable, "-m", "bench", "locomo", str(locomo_file), "--k", "0"],
                             cwd=root, env=env, capture_output=True, text=True, timeout=600)
        assert bad.returncode == 1 and bad.stderr.strip() == "error: --k takes comma-separated positive integers, not '0'"
    finally:
        EmbeddedServer(tmp_path / "home").stop()


def test_parse_ks_and_dependencies():
    assert locomo_run.parse_ks("10, 5,20") == (10, 5, 20)
    for bad in ("", "a", "5,-1"):
        with pytest.raises(InputError, match="comma-separated positive integers"):
            locomo_run.parse_ks(bad)
    locomo_run.check_dependencies(plot=True, fit=True)  # the [test] extra has them all
