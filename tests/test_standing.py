"""Standing instructions and stated preferences: what a user tells their agent to do from now
on, and what they say they prefer, are found at ingest and come first when a question on their
topic is asked."""

from __future__ import annotations

from datetime import datetime

import pytest

from graphmem.ingest.claims import instructions
from graphmem.ingest.extract import extract, standing_instruction, stated_preference
from graphmem.recall.standing import scope_of


@pytest.fixture(scope="module")
def nlp(mem):
    return mem.models.nlp()


@pytest.mark.parametrize("text", [
    "Always include version numbers when I ask about software dependencies or libraries used.",
    "Always format dates as \"Month Day, Year\" when I ask about timeline details.",  # parsed as a noun
    "Never use emojis.",
    "From now on, please answer in French.",
    "I want you to always cite your sources.",
    "Could you always include version numbers when I ask about libraries?",  # a request asked as a question
])
def test_a_request_that_holds_from_now_on_is_a_standing_instruction(nlp, text):
    assert standing_instruction(nlp(text))
    assert extract(nlp(text), "user", None, None).standing


@pytest.mark.parametrize("text", [
    "I always go running on Sundays.",  # a habit, not a request
    "Do you always cite your sources?",  # a question that asks, not one that requests
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


def test_an_instruction_applies_to_a_question_on_the_scope_it_gives_itself(mem, user):
    """"When is the final submission due?" shares little with the whole instruction (date
    formats), much with its scope (deadlines); of two instructions that name movies, the one
    whose scope the question is on comes first."""
    mem.add([("user", "Always format dates in the month-day-year style when I ask about deadlines."),
             ("user", "Always provide alternative movie suggestions when I ask about family-friendly options."),
             ("user", "Always include platform availability details when I ask about movie options."),
             ("user", "The grant application goes to the foundation in spring.")], user=user)
    due = mem.recall("When is the final submission due?", user=user, k=3)
    assert due.memories[0].standing and due.memories[0].text.endswith("when I ask about deadlines.")
    movies = mem.recall("What movies would you recommend for me to watch?", user=user, k=3)
    assert movies.memories[0].standing and "platform availability" in movies.memories[0].text
    hiking = mem.recall("Who did I go hiking with?", user=user, k=3)
    assert not any(m.standing for m in hiking.memories)
    assert [scope_of(m.text) for m in due.memories if m.standing] == ["deadlines"]


def test_a_forgotten_instruction_no_longer_applies(mem, user):
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user)
    [instruction] = [m for m in mem.memories(user) if m.standing]
    assert instruction.text.startswith("Always") and mem.get(instruction.id, user=user).standing
    mem.forget(user, memories=[instruction.id])
    got = mem.recall("Which software libraries does my budget tracker use?", user=user, k=3)
    assert not any(m.standing for m in got.memories) and got.memories


# -- stated preferences -----------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "I prefer e-books for their portability, but I also enjoy print for collectible editions.",
    "I'm kinda concerned about using AI for hiring, so I prefer a balanced approach with human oversight.",
    "I’d much rather keep dependencies minimal.",  # a typographic apostrophe
    "My preference is to write in the mornings between 7 and 9 AM.",
])
def test_a_first_person_preference_is_a_stated_preference(nlp, text):
    assert stated_preference(nlp(text))
    assert extract(nlp(text), "user", None, None).preference


@pytest.mark.parametrize("text", [
    "Which format do I prefer for invoices?",  # asks
    "Do you prefer cats or dogs?",  # the listener's
    "My sister prefers tea.",  # someone else's
    "I prefer " + "short answers with code samples and links to the documentation, " * 12,  # too long
])
def test_other_turns_state_no_preference(nlp, text):
    assert not stated_preference(nlp(text))


def test_a_preference_is_read_only_in_a_users_message_and_an_instruction_is_not_one(nlp):
    assert not extract(nlp("I prefer the beach to the mountains."), "Melanie", "Caroline", None).preference
    both = extract(nlp("I prefer short answers. Always keep them under 100 words."), "user", None, None)
    assert both.standing and not both.preference


def test_the_preference_on_a_questions_topic_comes_after_the_instruction(mem, user):
    mem.add([("user", "Always include the author's name when I ask about book recommendations."),
             ("user", "I prefer e-books for their portability."),
             ("user", "I prefer writing in the mornings, between 7 and 9 AM."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy."),
             ("assistant", "Here are three fantasy series you might enjoy this winter.")], user=user)
    got = mem.recall("I want to add some new books to my collection. What would you suggest?", user=user, k=4)
    assert [m.standing for m in got.memories[:2]] == [True, False]
    assert got.memories[1].text.startswith("I prefer e-books") and got.memories[1].preference
    assert got.memories[1].channels["preference"] == 1
    assert got.context().splitlines()[1].endswith("Stated preference: I prefer e-books for their portability.")
    assert sum(m.preference for m in got.memories) == 1  # the writing hours are not about books
    [stored] = [m for m in mem.memories(user) if m.text.startswith("I prefer e-books")]
    assert stored.preference and not stored.standing and mem.get(stored.id, user=user).preference
    other = mem.recall("What does my budget tracker run on?", user=user, k=3)
    assert not any(m.preference for m in other.memories)
    fact = mem.recall("Have I bought any e-books?", user=user, k=3)  # asks what happened, not for advice
    assert not any(m.preference for m in fact.memories)


def test_a_changed_preference_applies_and_the_older_one_does_not(mem, user):
    mem.add("I prefer Microsoft Word over Google Docs for drafting my essays.", user=user, at=datetime(2024, 1, 5))
    changed = mem.add("I now prefer Google Docs over Microsoft Word for drafting my essays, for the sharing.",
                      user=user, at=datetime(2024, 3, 5))
    assert changed.supersessions == 1
    got = mem.recall("Which tool would you suggest for drafting my essays?", user=user, k=3)
    assert got.memories[0].preference and got.memories[0].text.startswith("I now prefer Google Docs")
    assert [m.preference for m in got.memories].count(True) == 1
    older = next(m for m in got.memories if m.text.startswith("I prefer Microsoft Word"))
    assert older.valid_until is not None  # superseded: shown below, marked, never placed first


# -- revoking an instruction -------------------------------------------------------------

@pytest.mark.parametrize("text, slot, positive", [
    ("Always include version numbers when I ask about software libraries.", "instruction:include:version number", True),
    ("Please stop including version numbers.", "instruction:include:version number", False),
    ("Don't include version numbers anymore.", "instruction:include:version number", False),
    ("You no longer need to include version numbers.", "instruction:include:version number", False),
    ("Never use emojis.", "instruction:use:emoji", False),
    ("You can stop adding version numbers now.", "instruction:include:version number", False),  # same action
    ("I want you to always cite your sources.", "instruction:mention:source", True),
    ("Always provide exact times when I ask about meetings.", "instruction:provide:time", True),
    ("No need to include version numbers anymore.", "instruction:include:version number", False),
    ("Don't bother including version numbers anymore.", "instruction:include:version number", False),
    ("Quit putting version numbers in your answers.", "instruction:include:version number", False),  # "Quit" a name
    ("From now on, leave out the version numbers.", "instruction:include:version number", False),  # a verb of no
    ("Please omit version numbers from now on.", "instruction:include:version number", False),
    ("You can omit the version numbers going forward.", "instruction:include:version number", False),
    ("Always skip the version numbers.", "instruction:include:version number", False),
    ("Never skip the summary.", "instruction:include:summary", True),
    ("Always avoid jargon.", "instruction:use:jargon", False),
    ("Always give me examples.", "instruction:provide:example", True),  # "me" is no part of the thing
    ("Please stop checking in with me every hour.", "instruction:check in", False),  # no "check": a phrasal verb
    ("Could you stop adding version numbers?", "instruction:include:version number", False),  # asked as a question
    ("Can you stop using bullet points from now on?", "instruction:use:bullet point", False),
    ("Could you please always include version numbers?", "instruction:include:version number", True),
    ("Can you please not include version numbers anymore?", "instruction:include:version number", False),
    ("Would you mind always including the version numbers?", "instruction:include:version number", True),
])
def test_an_instruction_is_a_yes_or_a_no_for_its_action(nlp, text, slot, positive):
    [claim] = instructions(nlp(text), "user")
    assert (claim.subject, claim.slot, claim.positive) == ("user", slot, positive)


@pytest.mark.parametrize("text", [
    "I always go running on Sundays.",  # the speaker's habit
    "I stopped using Redis last year.",  # the speaker's past
    "It's always been hard to sleep.",  # no action
    "You always forget my name.",  # a complaint, not a request
    "Don't include version numbers in this list.",  # this answer only
    "Should I always include version numbers?",  # a question
    "Do you always include version numbers?",  # asks what the agent does
    "Will you always be here for me?",  # asks
    "Could you stop by the store?",  # no action on a thing
    "Can you stop the server?",  # this turn's task
    "Leave out the details.",  # this answer only
    "From now on I'll skip dessert.",  # the speaker's own plan
    "No need to apologize.",  # this turn only
    "Any tips on how to stay motivated and avoid burnout in the future?",  # a question
    "I reallocated tasks to avoid a penalty, and I want to be ready for such crises in the future.",  # no request
])
def test_other_turns_give_no_instruction(nlp, text):
    assert instructions(nlp(text), "user") == []


def test_a_revoked_instruction_no_longer_applies_and_a_renewed_one_does(mem, user):
    asked = "Which software libraries does my budget tracker use?"
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user, at=datetime(2024, 1, 5))
    assert mem.recall(asked, user=user, k=3).memories[0].standing
    revoked = mem.add("Please stop including version numbers, they clutter the answers.", user=user,
                      at=datetime(2024, 2, 5))
    assert revoked.supersessions == 1
    got = mem.recall(asked, user=user, k=3)
    assert not any(m.standing for m in got.memories)
    old = next(m for m in got.memories if m.text.startswith("Always include"))
    assert old.valid_until is not None and "(superseded 2024-02-05)" in old.context_line()
    mem.add("Always include version numbers again when I ask about libraries.", user=user, at=datetime(2024, 3, 5))
    again = mem.recall(asked, user=user, k=3).memories[0]
    assert again.standing and again.text.startswith("Always include version numbers again")
    assert [v.text[:11] for v in mem.history(again.uid, user=user)] == ["Always incl", "Please stop", "Always incl"]


@pytest.mark.parametrize("instruction, revocation", [
    ("Always include version numbers.", "Stop adding version numbers."),
    ("Always provide examples.", "Please stop giving examples."),
    ("Always use bullet points.", "Don't employ bullet points anymore."),
    ("Always verify the dates.", "Stop checking the dates."),
])
def test_an_action_said_with_another_verb_is_the_same_action(nlp, instruction, revocation):
    [said] = instructions(nlp(instruction), "user")
    [revoked] = instructions(nlp(revocation), "user")
    assert said.slot == revoked.slot and said.positive and not revoked.positive


def test_another_action_on_the_same_thing_is_another_instruction(nlp):
    [said] = instructions(nlp("Always use tabs."), "user")
    [other] = instructions(nlp("Stop mixing tabs."), "user")
    assert said.slot != other.slot


@pytest.mark.parametrize("revocation", ["You can stop adding version numbers now.",
                                        "Could you stop adding version numbers? They clutter the answers."])
def test_a_revocation_in_other_words_ends_the_instruction(mem, user, revocation):
    asked = "Which software libraries does my budget tracker use?"
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user, at=datetime(2024, 1, 5))
    revoked = mem.add(revocation, user=user, at=datetime(2024, 2, 5))
    assert revoked.supersessions == 1
    assert not any(m.standing for m in mem.recall(asked, user=user, k=3).memories)


def test_a_store_written_before_two_verbs_were_one_action_is_brought_to_it(mem, user):
    """An older graphmem keyed "stop adding" apart from "always include": opening the store
    rekeys the stored claims and links the revocation, as if both had been said today."""
    from graphmem.ingest.claims import ACTIONS_LAYOUT

    asked = "Which software libraries does my budget tracker use?"
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user, at=datetime(2024, 1, 5))
    mem.add("You can stop adding version numbers now.", user=user, at=datetime(2024, 2, 5))
    # the layout an older version wrote: the revocation under its own verb, no link, no marker
    [old] = mem.driver.run("MATCH (m:Memory {user_id: $u})-[c:CLAIMS]->() WHERE c.slot = 'instruction:include:version "
                           "number' AND m.text STARTS WITH 'You can stop' SET c.slot = 'instruction:add:version number' "
                           "RETURN count(c) AS claims", {"u": user})
    assert old["claims"] == 1
    mem.driver.run("MATCH (:Memory {user_id: $u})-[s:SUPERSEDES]->() DELETE s", {"u": user})
    mem.driver.run("MATCH (g:Graphmem {layout: $l}) DELETE g", {"l": ACTIONS_LAYOUT})
    assert mem.recall(asked, user=user, k=3).memories[0].standing  # the old layout: still applied
    mem.setup()
    assert not any(m.standing for m in mem.recall(asked, user=user, k=3).memories)
    slots = mem.driver.run("MATCH (:Memory {user_id: $u})-[c:CLAIMS]->() WHERE c.slot STARTS WITH 'instruction:' "
                           "RETURN DISTINCT c.slot AS slot", {"u": user})
    assert [r["slot"] for r in slots] == ["instruction:include:version number"]
    mem.setup()  # again: nothing left to do, nothing undone
    assert not any(m.standing for m in mem.recall(asked, user=user, k=3).memories)


def test_an_instruction_to_leave_something_out_from_now_on_replaces_the_one_to_include_it(mem, user):
    asked = "Which software libraries does my budget tracker use?"
    mem.add([("user", "Always include version numbers when I ask about software libraries."),
             ("user", "My budget tracker runs on Flask and SQLAlchemy.")], user=user, at=datetime(2024, 1, 5))
    revoked = mem.add("From now on, leave out the version numbers when I ask about libraries.", user=user,
                      at=datetime(2024, 2, 5))
    assert revoked.supersessions == 1
    applied = [m for m in mem.recall(asked, user=user, k=3).memories if m.standing and m.valid_until is None]
    assert [m.text[:22] for m in applied] == ["From now on, leave out"]
