"""The agent's replies follow the user's turns they answer when a question asks what the agent
said, or for a summary of the conversation."""

from __future__ import annotations

import pytest

from graphmem.recall.replies import asks_about_exchange

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
