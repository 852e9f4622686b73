"""Whose fact a memory tells (graphmem/recall/whose.py): a question about the asker is answered
by what they said of themselves first, not by what they said of someone close to them."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from graphmem.recall.recency import restated
from graphmem.recall.telling import (only_asks, only_of_others, opens_with_a_person_of, people_named, people_owned,
                                     says_i)
from graphmem.recall.whose import asks_of_the_asker, mine_first, of_someone_else, of_the_speaker

JANUARY, JUNE = (datetime(2024, m, 5, 9, tzinfo=timezone.utc) for m in (1, 6))


@pytest.mark.parametrize("text", [
    "My husband is a senior data engineer.",
    "My sister just moved to Seattle, can you suggest some neighborhoods she should check out?",  # the ask is no fact
    "Found out my son is allergic to peanuts. Can you help me plan his class party?",
    "my husband's company just made everyone go back to the office",  # his company's rule
    "our neighbors are adding a 4th bedroom",
    "My older sister lives in Lyon.",
])
def test_a_message_whose_first_person_only_owns_a_person_tells_someone_elses_fact(text):
    assert of_someone_else(text) and not of_the_speaker(text)


@pytest.mark.parametrize("text", [
    "I'm a senior data analyst.",
    "My doctor increased my lisinopril to 20mg.",  # the speaker's dose
    "My therapist switched me to Wednesday mornings.",
    "We just bought a Honda Fit as a second car for my son.",
    "My car is a 2019 Subaru Outback.",  # a thing of the speaker's, no person
])
def test_a_message_that_says_i_or_my_of_a_thing_tells_the_speakers_fact(text):
    assert of_the_speaker(text) and not of_someone_else(text)


def test_a_question_is_about_the_asker_when_it_names_no_person_of_theirs():
    assert asks_of_the_asker("What's my job?") and asks_of_the_asker("Where do I live these days?")
    assert not asks_of_the_asker("Where does my sister live?")  # about her
    assert not asks_of_the_asker("What does Caroline do for work?")  # no first person
    assert not asks_of_the_asker("Which US cities did John visit?")  # the US is no "us"


@pytest.mark.parametrize("mine, theirs, question", [
    ("I'm a senior data analyst.", "My husband is a senior data engineer.", "What's my job?"),
    ("I see a physiotherapist on Mondays for my knee.", "My mom sees a physiotherapist on Mondays for her back.",
     "Why do I see a physiotherapist?"),
    ("I'm allergic to shellfish.", "Found out my son is allergic to peanuts.",
     "What am I allergic to?"),
])
def test_the_askers_own_fact_comes_before_one_of_someone_close(mem, user, mine, theirs, question):
    own = mem.add(mine, user=user, at=JANUARY).memory_ids[0]
    other = mem.add(theirs, user=user, at=JUNE).memory_ids[0]
    ranked = [(other, 1.0), (own, 0.9)]  # the ranker's mistake, made certain
    said = restated(mem.store, user, [other, own])
    assert [uid for uid, _ in mine_first(ranked, said, question)] == [own, other]
    assert mem.recall(question, user=user, k=2).memories[0].uid == own


def test_a_question_about_the_person_keeps_their_fact_first(mem, user):
    own = mem.add("I'm a senior data analyst.", user=user, at=JANUARY).memory_ids[0]
    other = mem.add("My husband is a senior data engineer.", user=user, at=JUNE).memory_ids[0]
    ranked = [(other, 1.0), (own, 0.9)]
    said = restated(mem.store, user, [other, own])
    assert mine_first(ranked, said, "What's my husband's job?") == ranked
    assert mem.recall("What does my husband do for a living?", user=user, k=2).memories[0].uid == other


def test_another_speakers_memory_is_not_moved_and_a_far_own_one_is(mem, user):
    """Whose fact it is decides before how near: the asker's own memory, however far, goes above
    one of someone close to them; another speaker's (the agent's) never does."""
    other = mem.add("My husband is a senior data engineer.", user=user, at=JUNE).memory_ids[0]
    agent = mem.add([("assistant", "I'm glad to help with your career questions.")], user=user,
                    at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [other, agent])
    ranked = [(other, 1.0), (agent, 0.9)]
    assert mine_first(ranked, said, "What's my job?") == ranked
    far = mem.add("I'm baking sourdough bread this weekend.", user=user, at=JUNE).memory_ids[0]
    dog = mem.add("watching my neighbor's dog mochi this week while they're on maui", user=user, at=JUNE).memory_ids[0]
    koa = mem.add("I have a rescue pit mix named Koa.", user=user, at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [other, agent, far, dog, koa])
    assert float(said[dog].vector @ said[koa].vector) < 0.5  # less near than two versions of one thing
    assert [uid for uid, _ in mine_first([(dog, 1.0), (koa, 0.9)], said, "what's my dog's name")] == [koa, dog]
    assert [uid for uid, _ in mine_first([(other, 1.0), (agent, 0.9), (far, 0.8)], said, "What's my job?")] == \
        [far, other, agent]


def test_a_person_owned_after_its_name_or_by_a_casual_word_is_someone_elses():
    assert of_someone_else("a coworker of mine switched to day shift and says she sleeps better")
    assert of_someone_else("my buddy who runs the bbq joint switched to Toast")
    assert not asks_of_the_asker("When is my mother-in-law visiting?")


def test_a_message_that_drops_its_i_is_the_speakers_and_one_of_he_or_she_only_is_not():
    assert of_the_speaker("Got moved to day shifts starting next week, 7a to 7p.")
    assert not of_the_speaker("Eli quit travel soccer. He wants to do robotics instead.")
    assert only_of_others("Eli quit travel soccer. He wants to do robotics instead.")
    assert not only_of_others("Retitled the novel, Linda liked it much better.")


def test_a_person_the_speaker_acts_with_or_for_does_not_make_the_fact_theirs():
    assert of_the_speaker("living in hinton james, rooming with my teammate abby")
    assert of_the_speaker("Sold the Civic to my nephew and picked up a used Model 3.")
    assert not of_someone_else("Sold the Civic to my nephew and picked up a used Model 3.")
    assert of_someone_else("My sister just moved in with my parents.")  # the sister's, whoever she lives with
    assert says_i("living in hinton james, rooming with my teammate abby")  # the speaker's first person


def test_the_people_a_text_names_and_those_whose_fact_it_tells():
    assert people_named("When do my in-laws visit my sister's place?") == {"in-laws", "sister"}
    assert people_named("What's my job?") == frozenset()
    assert people_owned("My brother's girlfriend just moved to Bristol.") == {"girlfriend"}
    assert people_owned("Sold the Civic to my nephew, and my niece got a bike.") == {"niece"}  # acted for: no fact


def test_a_message_that_opens_with_a_person_of_someone_tells_that_persons_fact():
    assert opens_with_a_person_of("Dev's best friend Arjun quit soccer for the swim team.", "Dev")
    assert opens_with_a_person_of("Maya's husband just took a job at Meta.", "Maya")
    assert not opens_with_a_person_of("Maya's with her husband in Rome this week.", "Maya")  # "'s" is "is"
    assert not opens_with_a_person_of("Maya's a friend of mine from college.", "Maya")
    assert not opens_with_a_person_of("So glad: Arjun's brother got in too.", "Maya")



def test_a_question_that_names_people_of_any_kind_or_asks_what_the_asker_said_is_not_about_the_asker(mem, user):
    assert not asks_of_the_asker("How many children do I have?")  # about the children, "my" or not
    kids = mem.add("I have two kids, ages 4 and 7.", user=user, at=JANUARY).memory_ids[0]
    baby = mem.add("Our third baby arrived last Tuesday!", user=user, at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [kids, baby])
    ranked = [(baby, 1.0), (kids, 0.9)]
    assert mine_first(ranked, said, "How many children do I have?") == ranked
    assert mine_first(ranked, said, "What did I say about the baby?") == ranked


def test_a_question_about_the_askers_family_as_one_is_not_about_the_asker():
    for question in ("Tell me about my family.", "What do you know about my relatives?", "How are my folks doing?",
                     "Where do my siblings live?"):
        assert not asks_of_the_asker(question), question
    assert asks_of_the_asker("What's my family doctor's name?")  # a doctor of the asker's
    assert not asks_of_the_asker("What's my family's favourite restaurant?")


@pytest.mark.parametrize("text", [
    "Give me a recipe for a quick weeknight pasta.",
    "Explain what an index fund is.",
    "Please help me write a polite email declining a meeting.",
    "Can you recommend a podcast? Also tell me a joke.",
    "How do I convert Celsius to Fahrenheit?",  # a question and nothing more
    "What's a good stretch for lower back pain?",
])
def test_a_message_that_only_asks_tells_nothing_of_its_speaker(text):
    assert only_asks(text)


@pytest.mark.parametrize("text", [
    "I'm a nurse. Give me tips for night shifts.",  # a fact, then a request
    "Got moved to day shifts starting next week.",  # a chat drops its "I"
    "Made a recipe for pasta last night.",
    "Helping my sister move this weekend.",
    "Make 80k a year now, finally.",  # a chat drops its "I" before verbs of requests too
    "Find it hard to sleep before a night shift.",
    # `told` leaves nothing of a line of news that runs into its question without a stop
    "Work asked if I could do Thursdays too so it's four days now any tips for batch cooking for the week?",
    # a question that goes on to tell something
    "What's the best way to plan a movie marathon, considering Amy arrives at 2 PM?",
    "How can I save money on rentals like I did with Paddington 2?",
    "What's the best way to adjust my schedule now that the sessions got extended to July 16?",
])
def test_a_message_that_tells_something_does_not_only_ask(text):
    assert not only_asks(text)


def test_a_request_of_the_asker_is_not_put_above_someone_elses_fact(mem, user):
    """"Give me a recipe" says "me" and tells nothing: it is no fact of the asker's to answer a
    question about them with; the asker's own fact below it is."""
    sister = mem.add("My sister is a nurse in Boston.", user=user, at=JANUARY).memory_ids[0]
    ask = mem.add("Give me a recipe for a quick weeknight pasta.", user=user, at=JUNE).memory_ids[0]
    own = mem.add("I'm a product manager at a fintech startup.", user=user, at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [sister, ask, own])
    ranked = [(sister, 1.0), (ask, 0.9), (own, 0.8)]
    assert [uid for uid, _ in mine_first(ranked, said, "What's my job?")] == [own, sister, ask]
    assert mine_first(ranked[:2], said, "What's my job?") == ranked[:2]


def _asked_then_told(mem, user, fact: str):
    """A question to the agent said in January and `fact` in June, ranked in that order, and
    their texts as recall reads them."""
    ask = mem.add("How do I convert Celsius to Fahrenheit?", user=user, at=JANUARY).memory_ids[0]
    told = mem.add(fact, user=user, at=JUNE).memory_ids[0]
    return [(ask, 1.0), (told, 0.9)], restated(mem.store, user, [ask, told])


@pytest.mark.parametrize("fact, question", [
    ("I'm a night owl, I do my best work after 10pm.", "What do you know about me?"),
    ("My daughter is 14 and wants to join the swim team.", "What do you know about my daughter?"),
])
def test_a_question_to_the_agent_is_not_put_above_a_fact_of_the_asker_or_theirs(mem, user, fact, question):
    """"How do I convert Celsius to Fahrenheit?" says "I" and tells nothing: a question about the
    asker, or anyone of theirs, is answered by the speaker's next memory that tells something."""
    ranked, said = _asked_then_told(mem, user, fact)
    assert mine_first(ranked, said, question) == [(ranked[1][0], 1.0), (ranked[0][0], 1.0)]


def test_a_question_about_what_was_asked_or_without_the_asker_keeps_the_order(mem, user):
    ranked, said = _asked_then_told(mem, user, "My daughter is 14 and wants to join the swim team.")
    assert mine_first(ranked, said, "What did I ask you about temperatures?") == ranked
    assert mine_first(ranked, said, "How is Fahrenheit converted?") == ranked


def test_a_message_that_only_asks_goes_below_each_that_tells_and_a_request_keeps_others_facts(mem, user):
    """Each of the speaker's memories that tells something goes above one that only asks, not
    only the nearest; a request to tell all ("Tell me about my children.", `others=False`) keeps
    what the asker told of someone else where it was."""
    ask = mem.add("Give me a recipe for a quick weeknight pasta.", user=user, at=JANUARY).memory_ids[0]
    son = mem.add("My son Leo is 7 and loves dinosaurs.", user=user, at=JUNE).memory_ids[0]
    allergy = mem.add("Leo has a peanut allergy, we carry an EpiPen.", user=user, at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [ask, son, allergy])
    ranked = [(ask, 1.0), (son, 0.9), (allergy, 0.8)]
    assert [uid for uid, _ in mine_first(ranked, said, "Tell me about my children.", others=False)] == \
        [son, allergy, ask]
    mine = mem.add("I'm a product manager at a fintech startup.", user=user, at=JUNE).memory_ids[0]
    said = restated(mem.store, user, [son, mine])
    assert mine_first([(son, 1.0), (mine, 0.9)], said, "Tell me about my job.", others=False) == \
        [(son, 1.0), (mine, 0.9)]
    assert [uid for uid, _ in mine_first([(son, 1.0), (mine, 0.9)], said, "What's my job?")] == [mine, son]


@pytest.mark.parametrize("question", ["Tell me about my children.", "Can you list my kids' activities?"])
def test_a_request_about_the_askers_people_is_not_answered_by_a_request(mem, user, question):
    """Through recall: what was told of the asker's children comes above what was only asked of
    the agent, whether the question reads versions or, a request ("Can you list ...?"), none."""
    start = datetime(2025, 1, 10, tzinfo=timezone.utc)
    told = [("My son Leo is 7 and loves dinosaurs.", "How do I convert Celsius to Fahrenheit?"),
            ("My daughter Ava just started kindergarten.", "Give me a recipe for a quick weeknight pasta."),
            ("Leo has a peanut allergy, we carry an EpiPen.", "Explain what an index fund is.")]
    for day, (fact, ask) in enumerate(told):
        mem.add([("user", fact), ("assistant", "Thanks for sharing, I'll keep that in mind."), ("user", ask),
                 ("assistant", "Sure, here you go.")], user=user, conversation=f"c{day}",
                at=start.replace(day=10 + day))
    got = [m.text for m in mem.recall(question, user=user, k=3).memories]
    assert sorted(got) == sorted(fact for fact, _ in told)
