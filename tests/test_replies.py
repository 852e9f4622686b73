"""The agent's replies follow the user's turns they answer when a question asks what the agent
said, or for a summary of the conversation; a question on what the user said gets the user's
own turns first."""

from __future__ import annotations

import pytest

from graphmem.recall.replies import asks_about_exchange, asks_about_own_words, own_words_first

TALK = [("user", "My weather app keeps hitting the API's rate limit when users refresh quickly."),
        ("assistant", "Put a token bucket in front of the client: ten requests a second, and back off "
                      "exponentially with jitter after a 429, at most three retries."),
        ("user", "I also want the city search box to suggest names as I type."),
        ("assistant", "Debounce the input by 300 ms and query the geocoding endpoint with the prefix."),
        ("user", "The app is written in React with Vite."),
        ("user", "The free plan's rate limit is 60 calls a minute, and handling it matters to me."),
        ("assistant", "That is the usual free tier: the paid plan raises the rate limit to 600 calls."),
        ("user", "How did the rate limit work on the old API?"),
        ("assistant", "The old API limited calls per hour, not per minute.")]


@pytest.mark.parametrize("question, exchange", [
    ("How did you recommend handling the rate limit?", True),
    ("What did you suggest for the search box?", True),
    ("Can you summarize how my weather app has progressed?", True),
    ("What is my weather app written in?", False),
    ("Can you recommend a charting library?", False),  # asks for advice now, not what was said
])
def test_which_questions_ask_about_the_exchange(question, exchange):
    assert asks_about_exchange(question) is exchange


def test_the_reply_follows_the_turn_it_answers(mem, user):
    mem.add(TALK, user=user, conversation="app")
    got = mem.recall("How did you recommend handling the rate limit?", user=user, k=5)
    texts = [m.text for m in got.memories]
    asked = texts.index(TALK[0][1])
    assert texts[asked + 1] == TALK[1][1]  # else below the turns that name the rate limit
    assert "reply" in got.memories[asked + 1].channels
    plain = mem.recall("What is my weather app written in?", user=user, k=4)
    assert not any("reply" in m.channels for m in plain.memories)


@pytest.mark.parametrize("question, own", [
    ("Can you list the order in which I brought up different aspects of my app?", True),
    ("What did I say my son is studying?", True),
    ("How many different shoe sizes have I mentioned across my messages?", True),
    ("I've mentioned a budget before; what was it?", True),
    ("Did I tell you about my trip to Porto?", True),
    ("What should I tell my boss about the delay?", False),  # asks for advice
    ("Can I ask you about the rate limit?", False),
    ("What did you suggest for the search box?", False),  # what the agent said
    ("Where do I live?", False),
])
def test_which_questions_ask_what_the_asker_said(question, own):
    assert asks_about_own_words(question) is own


def test_own_words_first_keeps_each_side_in_order_and_scores_descending():
    ranked = [("reply1", 3.0), ("mine1", 2.0), ("reply2", 1.5), ("brought", 1.2), ("mine2", 1.0)]
    speakers = {"reply1": "assistant", "mine1": "user", "reply2": "assistant", "mine2": "user"}
    out = own_words_first(ranked, speakers, "user")
    # a memory of no known speaker (a current version brought in) stays with the asker's own
    assert [uid for uid, _ in out] == ["mine1", "brought", "mine2", "reply1", "reply2"]
    scores = [score for _, score in out]
    assert scores == sorted(scores, reverse=True) and scores[:3] == [2.0, 1.2, 1.0]


PORTO = [("user", "My sister Ana is getting married in Porto next June."),
         ("assistant", "Congratulations to Ana! For a wedding in Porto next June, book the flights to Porto early: "
                       "June is the busiest month there, and hotels near the wedding venue in Porto fill up fast."),
         ("user", "I also need a new laptop for work, something light."),
         ("assistant", "A light work laptop: look at the MacBook Air or the Dell XPS 13."),
         ("user", "Thanks, I'll think about it.")]


def test_a_question_on_what_the_user_said_gets_the_users_turns_first(mem, user):
    """The agent's reply restates the wedding in more of the question's words and ranked right
    below the user's turn; asked what the user said, every turn of the user's comes first."""
    mem.add(PORTO, user=user, conversation="chat")
    got = mem.recall("What did I say about the wedding in Porto?", user=user, k=4)
    speakers = [m.speaker for m in got.memories]
    assert got.memories[0].text == PORTO[0][1]
    assert speakers == ["user", "user", "user", "assistant"]
    assert any("own turns first" in note for note in got.notes)
    # "I" said only in the words about the conversation, which are not searched, is the user too
    framed = mem.recall("Can you list the order in which I brought up the wedding in Porto and the laptop?",
                        user=user, k=4)
    assert framed.analysis.asker == "user" and [m.speaker for m in framed.memories][:3] == ["user"] * 3
    # asked what the agent said, the reply is not held below the user's turns
    advice = mem.recall("What did you recommend for the wedding in Porto?", user=user, k=4)
    assert PORTO[1][1] in [m.text for m in advice.memories[:2]]


MOVE = [("Alice", "We're moving to Lyon in March, Bob, the movers come on the 3rd."),
        ("Bob", "Lyon in March! The move sounds exciting, are the movers packing everything for the move?"),
        ("Alice", "Yes, they pack it all, I only take the cat."),
        ("Bob", "I'm staying in Paris, my job is here.")]


def test_among_people_the_asker_says_whose_words_come_first(mem, user):
    """Among named people "I" is whoever asks: with an asker their turns come first; without one
    the question is ranked as any other (Bob's turn on the move ranks first)."""
    mem.add(MOVE, user=user, conversation="move")
    question = "What did I tell Bob about the move?"
    plain = mem.recall(question, user=user, k=4)
    assert plain.memories[0].speaker == "Bob"
    assert not any("own turns first" in note for note in plain.notes) and plain.analysis.asker is None
    asked = mem.recall(question, user=user, k=4, asker="Alice")
    assert [m.speaker for m in asked.memories] == ["Alice", "Alice", "Bob", "Bob"]
    assert asked.memories[0].text == MOVE[0][1]
