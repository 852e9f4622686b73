"""The linear ranker over fused candidates: its features, fitting, held-out rankings, the
packaged weights, and how recall and the LoCoMo benchmark use it."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from click.testing import CliRunner
from rich.console import Console

from graphmem import Settings
from graphmem.cli import main
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import ConfigError
from graphmem.recall import CHANNELS
from graphmem.recall.pipeline import near
from graphmem.recall.ranker import (AGENT, PEOPLE, Candidates, Example, Ranker, Said, candidate_features,
                                    conversation_kind, feature_names, fit, held_out_rankings, load_ranker, reason_of)
from graphmem.recall.tuning import NEAR_TURNS

from test_bench_beam import split  # noqa: F401  (a fixture, used by name)
from test_evaluation import CONVERSATION
from test_recall import memory_user  # noqa: F401  (a fixture, used by name)


def features_of(candidates: Candidates, uid: str) -> dict[str, float]:
    return dict(zip(candidates.names, candidates.matrix[candidates.uids.index(uid)]))


def test_features_of_a_candidate():
    got = candidate_features(
        ["a", "b", "c"], ["semantic", "lexical"], {"semantic": ["a", "b"], "lexical": ["b"]},
        fused={"a": 0.5, "b": 1.0}, with_neighbours={"a": 0.5, "b": 1.0, "c": 0.6},
        neighbours={"a": ["b"], "b": ["a", "c"]}, cosines={"a": (0.9, 0.6, 0.5, 0.4), "b": (0.7, 0.8, 0.6, 0.1)},
        said={"a": Said.of("Ana", "Yesterday I went to Rome.", 40, opens=True),
              "b": Said.of("Ben", "And then?", 3, opens=False), "c": Said("Ana")},
        persons={"Ana"})
    assert got.names == feature_names(["semantic", "lexical"])
    a, b, c = (features_of(got, uid) for uid in "abc")
    assert a["semantic_rank"] == pytest.approx(20 / 21) and a["semantic_top"] == 1 and a["lexical_rank"] == 0
    assert b["semantic_rank"] == pytest.approx(20 / 22) and b["lexical_rank"] == pytest.approx(20 / 21)
    assert (a["fused"], b["fused"], c["fused"]) == (0.5, 1.0, 0.0)
    assert c["fused_with_neighbours"] == pytest.approx(0.6)
    # b did better than its neighbours a and c: they are lifted by the difference, b is not
    assert c["neighbour_lift"] == pytest.approx(1.0) and a["neighbour_lift"] == pytest.approx(0.5)
    assert b["neighbour_lift"] == 0
    assert a["cosine_gap"] == 0 and b["cosine_gap"] == pytest.approx(-0.2) and c["cosine_gap"] == -0.5
    assert a["sentence_gap"] == pytest.approx(-0.2) and b["sentence_gap"] == 0 and c["sentence_gap"] == -0.5
    assert a["topic_gap"] == pytest.approx(-0.1) and b["topic_sentence_gap"] == pytest.approx(-0.3)
    assert (a["speaker_named"], a["speaker_not_named"], b["speaker_named"], b["speaker_not_named"]) == (1, 0, 0, 1)
    assert (a["wordy"], a["asks"], a["opens"], a["recent"]) == (1, 0, 1, 1)
    assert 0 < b["wordy"] < 0.5 and (b["asks"], b["opens"], b["recent"]) == (1, 0, 0)
    assert c["wordy"] == 0
    nobody = candidate_features(["a"], ["semantic"], {}, {}, {}, {}, {}, {"a": Said("Ana")}, persons=set())
    assert features_of(nobody, "a")["speaker_not_named"] == 0  # the question names no one


def test_reasons_group_features_by_what_they_tell():
    assert [reason_of(f) for f in feature_names(["semantic", "temporal"])] == [
        "semantic", "semantic", "temporal", "temporal", "fusion", "fusion", "neighbours"] + ["semantic"] * 4 + [
        "speaker", "speaker"] + ["content"] * 4 + ["abstracts"]
    assert reason_of("x") == "x"


def synthetic(group: str, relevant_by: str, n: int = 30, seed: int = 0) -> list[Example]:
    """Questions whose one relevant candidate has feature `relevant_by` high."""
    rng = np.random.default_rng(seed)
    out = []
    for q in range(n):
        matrix = rng.uniform(0, 0.5, size=(5, 2))
        matrix[0, 0 if relevant_by == "x" else 1] = 1.0
        out.append(Example(group, Candidates([f"{group}{q}-{i}" for i in range(5)], ["x", "y"], matrix),
                           np.array([True, False, False, False, False])))
    return out


def test_fit_learns_which_feature_marks_evidence():
    ranker = fit(synthetic("g", "x"))
    assert ranker.names == ("x", "y") and ranker.coefficients[0] > ranker.coefficients[1]
    again = Ranker.from_dict(json.loads(json.dumps(ranker.to_dict())))
    probe = synthetic("p", "x", n=1, seed=9)[0].candidates
    assert np.allclose(again.scores(probe), ranker.scores(probe), atol=1e-4)
    even = Candidates(["a", "b", "c"], ["x", "y"], np.array([[1.0, 0.3], [0.1, 0.3], [0.1, 0.3]]))
    lifted = ranker.explain(even, [0, 1])
    assert list(lifted[0]) == ["x"]  # "a" stands out by x; y is the same for all, so lifts none
    assert lifted[1] == {}  # "b" is below the candidates' mean of x: nothing lifted it
    with pytest.raises(ValueError, match="both relevant and irrelevant"):
        fit([Example("g", Candidates(["a"], ["x"], np.ones((1, 1))), np.array([True]))])


def test_held_out_rankings_never_see_their_own_group():
    # groups a and b mark evidence by x; group c by y. A ranker fit without c ranks c's evidence
    # low; one that had seen c would not.
    examples = synthetic("a", "x") + synthetic("b", "x", seed=1) + synthetic("c", "y", seed=2)
    ranked = held_out_rankings(examples)
    c_positions = [r.index(e.candidates.uids[0]) for e, r in zip(examples, ranked) if e.group == "c"]
    a_positions = [r.index(e.candidates.uids[0]) for e, r in zip(examples, ranked) if e.group == "a"]
    assert np.mean(c_positions) > 2 and np.mean(a_positions) < 1


def test_a_ranker_ignores_features_it_does_not_know_and_zeroes_those_it_lacks():
    ranker = Ranker(("x", "z"), np.array([1.0, 5.0]), 0.0, {})
    candidates = Candidates(["a", "b"], ["y", "x"], np.array([[9.0, 0.0], [0.0, 1.0]]))
    assert list(ranker.scores(candidates)) == [0.0, 1.0]


def test_the_packaged_ranker_scores_recall_features():
    ranker = load_ranker("default")
    assert list(ranker.names) == feature_names(CHANNELS)
    assert ranker.about.get("fit_on") and load_ranker("off") is None


def test_a_conversation_with_an_agent_has_weights_of_its_own(tmp_path):
    assert conversation_kind(["user", "assistant", "user", "Alice"]) == AGENT
    assert conversation_kind(["Alice", "Bob", "user"]) == conversation_kind([]) == PEOPLE
    assert conversation_kind(["user", "user"]) == PEOPLE  # facts added alone: no reply among them
    people, agent = load_ranker("default", PEOPLE), load_ranker("default", AGENT)
    assert list(agent.names) == list(people.names) == feature_names(CHANNELS)
    assert "BEAM" in agent.about["fit_on"] and "LoCoMo" in people.about["fit_on"]
    assert not np.allclose(agent.coefficients, people.coefficients)
    # a file of rankers by kind: a kind it leaves out is ranked by the packaged one
    mine = Ranker(tuple(people.names), np.ones(len(people.names)), 0.5, {"fit_on": "mine"})
    by_kind = tmp_path / "kinds.json"
    by_kind.write_text(json.dumps({AGENT: mine.to_dict()}))
    assert load_ranker(str(by_kind), AGENT).about == {"fit_on": "mine"}
    assert load_ranker(str(by_kind), PEOPLE) is people
    one = tmp_path / "one.json"
    one.write_text(json.dumps(mine.to_dict()))
    assert load_ranker(str(one), PEOPLE).about == load_ranker(str(one), AGENT).about == {"fit_on": "mine"}
    with pytest.raises(ValueError, match="robots"):
        load_ranker("default", "robots")


def test_recall_ranks_a_chat_with_the_agent_weights(mem):
    user = "ranker-kind"
    mem.add([{"role": "user", "content": "I adopted a puppy named Rex from the shelter in Lisbon."},
             {"role": "assistant", "content": "Congratulations on adopting Rex! Puppies need patience and routine."},
             {"role": "user", "content": "My daughter Emma plays the violin every evening."},
             {"role": "assistant", "content": "Daily violin practice is a great habit for Emma."}], user=user)
    got = mem.recall("Where did I adopt my puppy?", user=user, k=4, keep_candidates=True)
    assert got.candidates.kind == AGENT
    agent = load_ranker("default", AGENT).scores(got.candidates)
    people = load_ranker("default", PEOPLE).scores(got.candidates)
    assert got.memories[0].score == pytest.approx(agent.max(), abs=1e-3) != pytest.approx(people.max(), abs=1e-3)
    # a question on what the agent said is ranked as among people, and brings the replies
    said = mem.recall("What did you say about my puppy?", user=user, k=4, keep_candidates=True)
    people = load_ranker("default", PEOPLE).scores(said.candidates)
    assert said.candidates.kind == AGENT and said.memories[0].score == pytest.approx(people.max(), abs=1e-3)


def test_a_bad_ranker_file_is_named(tmp_path):
    broken = tmp_path / "r.json"
    broken.write_text('{"features": ["x"],\n "coefficients": [1, 2}')
    with pytest.raises(ConfigError, match=r"r\.json line 2"):
        load_ranker(str(broken))
    uneven = tmp_path / "u.json"
    uneven.write_text(json.dumps({"features": ["x"], "coefficients": [1, 2], "intercept": 0}))
    with pytest.raises(ConfigError, match="1 features but 2 coefficients"):
        load_ranker(str(uneven))
    with pytest.raises(ConfigError, match="recall_ranker"):
        Settings(recall_ranker=str(tmp_path / "missing.json")).validate()


def test_recall_explains_the_ranking_and_can_do_without(memory_user):  # noqa: F811
    mem, user = memory_user
    ranked = mem.recall("Where did Alice adopt Rex?", user=user, k=5, keep_candidates=True)
    assert ranked.candidates.kind == PEOPLE
    assert ranked.memories[0].why and all(v > 0 for v in ranked.memories[0].why.values())
    assert ranked.candidates.names == feature_names(CHANNELS) and len(ranked.candidates.uids) >= 5
    scores = [m.score for m in ranked.memories]
    assert scores == sorted(scores, reverse=True)
    fused = mem.recall("Where did Alice adopt Rex?", user=user, k=5, rank=False)
    assert fused.candidates is None and not any(m.why for m in fused.memories)
    column = ranked.candidates.names.index("fused_with_neighbours")
    by_fused = sorted(ranked.candidates.uids, key=lambda u: -ranked.candidates.matrix[ranked.candidates.uids.index(u), column])
    assert [m.uid for m in fused.memories] == by_fused[:5]


def two_conversations(folder) -> list:
    """Two LoCoMo files, conv-x and conv-y, of the same small conversation."""
    paths = []
    for cid in ("conv-x", "conv-y"):
        path = folder / f"{cid}.json"
        path.write_text(json.dumps(CONVERSATION), encoding="utf-8")
        paths.append(path)
    return paths


def test_bench_locomo_cross_validates_and_fits_a_ranker(home, tmp_path, monkeypatch):
    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    paths = two_conversations(tmp_path)
    out, figures = tmp_path / "ranker.json", tmp_path / "figures.json"
    result = CliRunner().invoke(main, ["bench", "locomo", *map(str, paths), "--k", "1,2", "--home", str(home),
                                       "--cross-validate", "--fit-ranker", str(out), "--json", str(figures)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    ranker = load_ranker(str(out))
    assert list(ranker.names) == feature_names(CHANNELS)
    assert "conv-x, conv-y" in ranker.about["fit_on"] and "recall@2" in ranker.about["held_out"]
    systems = json.loads(figures.read_text())["systems"]
    held_out = systems["graphmem, ranker fit without the conversation"]["scores"]["overall"]
    assert held_out["n"] == systems["graphmem"]["scores"]["overall"]["n"] == 10
    one = CliRunner().invoke(main, ["bench", "locomo", str(paths[0]), "--home", str(home), "--cross-validate"])
    assert one.exit_code != 0 and "at least two" in one.output


def test_bench_fit_measures_and_writes_a_ranker_per_kind(split, tmp_path, monkeypatch):
    """`python -m bench fit` on LoCoMo's conversations (among people) and BEAM's chats (with an
    agent): each conversation ranked by rankers fit without it, and a ranker per kind written."""
    from bench import fit as bench_fit

    monkeypatch.delenv("GRAPHMEM_URI", raising=False)
    paths = two_conversations(tmp_path)
    home, out = tmp_path / "fit-home", tmp_path / "rankers.json"
    try:
        figures = bench_fit.run(paths, [split], home=home, out=out, console=Console(file=io.StringIO()))
    finally:
        EmbeddedServer(home).stop()
    rankers = json.loads(out.read_text())
    assert set(rankers) == {PEOPLE, AGENT}
    assert "LoCoMo" in rankers[PEOPLE]["about"]["fit_on"] and "BEAM" in rankers[AGENT]["about"]["fit_on"]
    assert list(load_ranker(str(out), AGENT).names) == feature_names(CHANNELS)
    for dataset in ("LoCoMo", "BEAM"):
        overall = figures[dataset]["overall"]
        assert set(overall) == {"packaged rankers", "fit on both sets, without the conversation",
                                "fit on its kind, without the conversation"}
        assert 0 <= overall["fit on its kind, without the conversation"]["R@10"] <= 1


def test_every_kind_of_conversation_has_its_reach():
    assert set(NEAR_TURNS) == {PEOPLE, AGENT} and NEAR_TURNS[PEOPLE] == 2 and NEAR_TURNS[AGENT] == 1


def test_near_reaches_two_turns_each_way_within_a_session():
    place = {"a0": ("s", 0), "a1": ("s", 1), "a2": ("s", 2), "a4": ("s", 4), "b2": ("t", 2), "x": ("s", None)}
    got = near(["a0", "a1", "a2", "a4", "b2", "x", "unplaced"], place, 2)
    assert got["a0"] == ["a1", "a2"] and got["a2"] == ["a0", "a1", "a4"] and got["a4"] == ["a2"]
    assert got["b2"] == [] and "x" not in got and "unplaced" not in got  # another session; no position
    assert near(["a0", "a2"], place, 1) == {"a0": [], "a2": []}


def test_the_same_speakers_next_turn_is_lifted_by_the_turn_that_matched(mem, user):
    """The answer two turns after the turn that matched ("Which movie's theme does Tim play?":
    the movie is named only in Tim's next turn) gets that turn's lift; a turn farther on none."""
    summary = mem.add([("Tim", "My favourite song to play on the piano is the theme from a movie I love."),
                       ("John", "Oh nice, which one is it?"),
                       ("Tim", "The first Harry Potter film, it brings back great memories."),
                       ("John", "I should watch those again."),
                       ("Tim", "Also, the weather in Boston was cold all week."),
                       ("John", "Stay warm out there.")], user=user)
    matched, _, named, _, far, _ = summary.memory_ids
    got = mem.recall("Which movie's theme does Tim love to play on the piano?", user=user, k=6, keep_candidates=True)
    lift = {uid: features_of(got.candidates, uid)["neighbour_lift"] for uid in (matched, named, far)
            if uid in got.candidates.uids}
    assert lift[matched] == 0 and lift[named] > 0
    assert far not in lift or lift[far] < lift[named]
