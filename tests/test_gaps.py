"""Knowledge gaps an agent can act on (graphmem/recall/gaps.py), on a real ingested conversation:
the kinds, real holes ranked first, each gap's question (the user's own asked back for the best
hole, templates for the others)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graphmem import Settings, lifecycle
from graphmem.errors import InputError
from graphmem.models import Models
from graphmem.recall.phrasing import ask_back

# Each person's statements in sessions of their own: a session is an observation too, and two
# entities said in one session were seen together.
TRANSCRIPT = """\
## 8 May 2023
Melanie: My sister runs a bakery in Denver.
Melanie: Oscar and Luna painted the fence with me last weekend.

## 15 May 2023
Caroline: I went to a support group in Boston yesterday.

## 20 May 2023
Caroline: My sister loves hiking.

## 3 June 2023
Caroline: Jon fixed my bike this morning.

## 10 June 2023
Melanie: Jon taught me to play chess.

## 1 July 2023
Oscar: I saw Jon at the market.

## 5 July 2023
Luna: That kind of music is not my type.
"""


@pytest.fixture(scope="module")
def friends(mem, tmp_path_factory):
    path = tmp_path_factory.mktemp("gaps") / "friends.txt"
    path.write_text(TRANSCRIPT)
    user = "gaps-fixture"
    mem.ingest(path, user=user)
    return mem, user


def gaps_of(friends, question: str):
    mem, user = friends
    return mem.recall(question, user=user, k=3).gaps


def test_a_place_question_about_someone_never_named_with_a_place_is_asked_back(friends):
    first, *_ = gaps_of(friends, "Where does Caroline's sister live?")
    assert (first.kind, first.names, first.hole) == ("unanswered", ("Caroline's sister",), True)
    assert first.question == "Do you know where Caroline's sister lives?"


def test_a_person_question_over_entities_never_together_is_asked_back(friends):
    first, *_ = gaps_of(friends, "Who taught Luna to play chess?")
    assert (first.kind, set(first.names)) == ("never together", {"Luna", "chess"})
    assert first.question == "Do you know who taught Luna to play chess?"


def test_a_time_question_is_asked_back_in_its_tense(friends):
    first, *_ = gaps_of(friends, "When did Melanie visit Boston?")
    assert (first.kind, set(first.names)) == ("never together", {"Melanie", "Boston"})
    assert first.question == "Do you know when Melanie visited Boston?"


def test_real_holes_rank_above_a_set_seen_only_inside_a_larger_observation(friends):
    found = gaps_of(friends, "Did Melanie and Oscar ever visit Boston?")
    kinds = [g.kind for g in found]
    assert kinds == ["never together", "never together", "only inside larger"]
    first, second, inside = found
    assert first.question == "Do you know whether Melanie and Oscar ever visited Boston?"
    assert second.question in {"Has Melanie ever been to Boston?", "Has Oscar ever been to Boston?"}
    # Melanie said Oscar and Luna painted the fence with her: together, never on their own
    assert set(inside.names) == {"Melanie", "Oscar"} and not inside.hole
    assert inside.score < 0.5 < min(first.score, second.score)
    assert "Luna" in inside.context and inside.context_kind == "turn" and "not a hole" in inside.meaning


def test_three_entities_each_two_seen_together_but_never_all_three_are_one_hole(friends):
    found = gaps_of(friends, "Melanie, Jon and Oscar")
    holes = [g for g in found if g.hole]
    assert [(g.kind, set(g.names)) for g in holes] == [("never together", {"Melanie", "Jon", "Oscar"})]
    assert found[0] is holes[0]  # the pairs, each said in a turn with others, below it
    assert {frozenset(g.names) for g in found[1:]} == {frozenset(p) for p in
                                                       [("Melanie", "Jon"), ("Melanie", "Oscar"), ("Jon", "Oscar")]}


def test_words_that_frame_a_question_are_no_gap(friends):
    """"kind" is matched as a concept (Luna said "that kind of music"), but says what is asked,
    not what about."""
    mem, user = friends
    got = mem.recall("What kind of music does Melanie like?", user=user, k=3)
    assert "kind" in [e.name for e in got.analysis.entities]
    assert [(g.kind, set(g.names)) for g in got.gaps] == [("never together", {"Melanie", "music"})]
    assert got.gaps[0].question == "Do you know what kind of music Melanie likes?"


def test_a_name_memory_does_not_know_comes_first(friends):
    found = gaps_of(friends, "Did Luna ever meet Zyxwvutsrq?")
    assert (found[0].kind, found[0].names, found[0].vids) == ("unknown", ("Zyxwvutsrq",), ())
    assert found[0].question == "Who or what is Zyxwvutsrq?"


def test_entities_observed_together_leave_no_gap(friends):
    assert gaps_of(friends, "Jon and the bike and Caroline") == []  # the turn holds just these three
    assert [g.kind for g in gaps_of(friends, "Oscar and Luna")] == ["only inside larger"]  # with Melanie, the fence


def test_gaps_are_json_with_the_question_first(friends):
    mem, user = friends
    got = mem.recall("Did Melanie and Oscar ever visit Boston?", user=user, k=3)
    gaps = json.loads(json.dumps(got.to_dict()))["gaps"]
    assert [next(iter(g)) for g in gaps] == ["question"] * len(gaps)
    assert [g["question"] for g in gaps] == [g.question for g in got.gaps]
    assert gaps[0]["hole"] is True and gaps[-1]["hole"] is False
    assert got.questions() == [g.question for g in got.gaps if g.hole] and len(got.questions(holes_only=False)) == 3


def test_the_readme_example_says_alice_and_rex_are_no_hole(mem, user):
    """The adoption turn holds Alice and Rex with others: not a hole, and said so."""
    mem.ingest(Path(__file__).resolve().parents[1] / "examples" / "chat.txt", user=user)
    got = mem.recall("Where did Alice adopt Rex?", user=user, k=3)
    pair = [g for g in got.gaps if set(g.names) == {"Alice", "Rex"}]
    assert len(pair) == 1 and pair[0].kind == "only inside larger" and not pair[0].hole
    assert pair[0].question == "How are Alice and Rex related?" and "never on their own" in pair[0].meaning


@pytest.mark.parametrize("question, asked", [
    ("Where does Caroline's sister live?", "Do you know where Caroline's sister lives?"),
    ("Who adopted Rex?", "Do you know who adopted Rex?"),
    ("When did Carol meet Rex?", "Do you know when Carol met Rex?"),
    ("Did Carol ever meet Rex in Tokyo?", "Do you know whether Carol ever met Rex in Tokyo?"),
    ("Which city does Caroline live in?", "Do you know which city Caroline lives in?"),
    ("What has Melanie painted?", "Do you know what Melanie has painted?"),
    ("Who is Caroline's sister?", "Do you know who Caroline's sister is?"),
    ("Where did I adopt my puppy?", "Do you know where you adopted your puppy?"),
    ("Would Emma enjoy a concert?", "Do you know whether Emma would enjoy a concert?"),
    ("Why did Alice stop running?", "Do you know why Alice stopped running?"),
    ("What kind of books does Caroline have in her library?", "Do you know what kind of books Caroline has in her library?"),
    ("In which city did Caroline meet Jon?", "Do you know in which city Caroline met Jon?"),
    ("When is Caroline's youth center putting on a talent show?",
     "Do you know when Caroline's youth center is putting on a talent show?"),
    ("What was Melanie's reaction to her children enjoying the Grand Canyon?",
     "Do you know what Melanie's reaction to her children enjoying the Grand Canyon was?"),
    ("Emma and Tokyo", None),
])
def test_a_question_is_asked_back_as_the_agent_would_ask_it(question, asked):
    with Models(Settings()).parsing() as nlp:  # no database: the question's parse alone
        assert ask_back(nlp(question)) == asked


def test_support_tells_observed_inside_larger_and_never_together(cx):
    cx.insert(["Alice", "Bob", "Paris"])
    cx.insert(["Alice", "Paris"])
    cx.insert(["Carol"])
    support = {s.face.names: (s.face.stored, s.together) for s in cx.support(["Alice", "Bob", "Paris", "Carol"])}
    assert support[("Alice", "Paris")] == (True, True)  # observed itself
    assert support[("Alice", "Bob")] == (False, True)  # only inside {Alice, Bob, Paris}
    assert support[("Alice", "Carol")] == (False, False)  # never together
    assert len(support) == 11  # every set of two or more of the four
    assert {len(s.face.vids) for s in cx.support(["Alice", "Bob", "Paris", "Carol"], max_dim=1)} == {2}
    holder, kind = cx.holders([cx.vids(["Alice", "Bob"])])[cx.vids(["Alice", "Bob"])]
    assert holder.names == ("Alice", "Bob", "Paris") and kind == "observed"


def test_memory_gaps_are_the_gaps_recall_gives_and_recall_no_memory(friends):
    mem, user = friends
    question = "Did Melanie and Oscar ever visit Boston?"
    lifecycle.flush_accesses(mem.store)
    before = {m.id: m.accesses for m in mem.memories(user, limit=None)}
    found = mem.gaps(question, user=user)
    lifecycle.flush_accesses(mem.store)
    assert {m.id: m.accesses for m in mem.memories(user, limit=None)} == before  # nothing counted as recalled
    recalled = mem.recall(question, user=user, k=3)
    assert [g.to_dict() for g in found.gaps] == [g.to_dict() for g in recalled.gaps]
    assert found.entities == [e.name for e in recalled.analysis.entities]
    assert found.questions() == recalled.questions() and len(found.questions(holes_only=False)) == 3
    with pytest.raises(InputError):
        mem.gaps("  ", user=user)
