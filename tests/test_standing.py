"""Standing instructions: what a user tells their agent to do from now on is found at ingest and
comes first when a question on its topic is asked."""

from __future__ import annotations

import pytest

from graphmem.ingest.extract import extract, standing_instruction


@pytest.fixture(scope="module")
def nlp(mem):
    return mem.models.nlp()


@pytest.mark.parametrize("text", [
    "Always include version numbers when I ask about software dependencies or libraries used.",
    "Always format dates as \"Month Day, Year\" when I ask about timeline details.",  # parsed as a noun
    "Never use emojis.",
    "From now on, please answer in French.",
    "I want you to always cite your sources.",
])
def test_a_request_that_holds_from_now_on_is_a_standing_instruction(nlp, text):
    assert standing_instruction(nlp(text))
    assert extract(nlp(text), "user", None, None).standing


@pytest.mark.parametrize("text", [
    "I always go running on Sundays.",  # a habit, not a request
    "Never mind, I found it.",
    "Have you ever used Excel?",  # a question
    "Include version numbers.",  # a request for this answer only
    "Always " + "include version numbers when I ask about libraries and " * 12 + "frameworks.",  # too long
])
def test_other_turns_are_not(nlp, text):
    assert not standing_instruction(nlp(text))


def test_only_a_users_message_to_an_agent_is_read_so(nlp):
    doc = nlp("Keep going and never give up!")  # between people: encouragement
    assert standing_instruction(doc)
    assert not extract(doc, "Melanie", "Caroline", None).standing


def test_the_instruction_on_a_questions_topic_comes_first(mem, user):
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("assistant", "Noted: I will list versions with every library."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy."),
             ("user", "I went hiking in the Alps last summer with my sister."),
             ("user", "Never use emojis when I ask about my travel plans.")], user=user)
    got = mem.recall("Which software libraries does my budget tracker use?", user=user, k=3)
    assert got.memories[0].text.startswith("Always include version numbers") and got.memories[0].standing
    assert got.memories[0].channels["standing"] == 1
    assert got.context().splitlines()[0].endswith("Standing instruction: " + got.memories[0].text)
    assert sum(m.standing for m in got.memories) == 1  # the travel instruction is not about libraries
    other = mem.recall("Who did I go hiking with?", user=user, k=3)
    assert not any(m.text.startswith("Always include") for m in other.memories)


def test_a_forgotten_instruction_no_longer_applies(mem, user):
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user)
    [instruction] = [m for m in mem.memories(user) if m.standing]
    assert instruction.text.startswith("Always") and mem.get(instruction.id, user=user).standing
    mem.forget(user, memories=[instruction.id])
    got = mem.recall("Which software libraries does my budget tracker use?", user=user, k=3)
    assert not any(m.standing for m in got.memories) and got.memories
