"""Which side of the exchange a question asks for. "How did you recommend handling the rate
limits?" asks what the agent said, and "Can you summarize how my project progressed?" asks for
both sides of the conversation; the user's turns match such questions best (they name the
subject in the user's words), while the reply that holds the answer is a long text on many
things and ranks low. For these questions each of the user's turns in the ranking is followed
by the agent's reply to it: the next turn of its session, said by someone else. The other way
round, "Can you list the order in which I brought up ...?" or "What did I say my son studies?"
asks what the asker said: their own turns come first (`own_words_first`), as the replies to
them restate the same subject at length and match as well."""

from __future__ import annotations

import re
from typing import Mapping

from ..ingest.messages import USER_ROLE
from .channels import first_where

# A question on what the agent said ("did you", "you recommended") or a summary of the conversation.
EXCHANGE = re.compile(r"\b(did you|you (recommended|suggested|said|mentioned|advised|explained|told))\b|\bsummar",
                      re.IGNORECASE)


# A question on what the asker said: "I brought up", "I've mentioned", "did I say", "have I told".
# Past forms only, or after "did I": "What should I tell my boss?" asks for advice.
OWN_WORDS = re.compile(r"\bI(?:['’]ve|\s+have|\s+had)?\s+(?:\w+\s+)?(?:brought up|mentioned|asked|said|told|"
                       r"shared|discussed|raised|talked)\b|"
                       r"\b(?:did|do|have|had)\s+I\s+(?:\w+\s+)?(?:bring up|mention|ask|say|tell|share|discuss|"
                       r"raise|talk)\b", re.IGNORECASE)


def asks_about_exchange(query: str) -> bool:
    return EXCHANGE.search(query) is not None


def asks_about_own_words(query: str) -> bool:
    return OWN_WORDS.search(query) is not None


def own_words_first(ranked: list[tuple[str, float]], speakers: Mapping[str, str | None],
                    asker: str) -> list[tuple[str, float]]:
    """`ranked` with what `asker` said above what others said, each side in its order; a memory
    of no known speaker (a current version recall brought in) stays on the asker's side, with
    the fact it stands for. Scores stay in order down the list."""
    return first_where(ranked, lambda uid: speakers.get(uid, asker) == asker)


def agent_replies(rows: list[dict]) -> dict[str, str]:
    """User turn -> the reply after it, from recall_candidates' rows (a neighbour is [uid,
    speaker, text, words, whether it comes before, position])."""
    out = {}
    for row in rows:
        if row["speaker"] != USER_ROLE:
            continue
        after = [n for n in row["neighbours"] if not n[4] and n[1] != USER_ROLE]
        if after:
            out[row["uid"]] = after[0][0]
    return out


def with_replies(ranked: list[tuple[str, float]],
                 replies: Mapping[str, str]) -> tuple[list[tuple[str, float]], list[str]]:
    """`ranked` with each turn's reply right after it (moved up, or brought in), scored as the
    turn it answers; and the replies so placed, in their new order (the channel "reply")."""
    out: dict[str, float] = {}
    placed = []
    for uid, score in ranked:
        out.setdefault(uid, score)
        reply = replies.get(uid)
        if reply is not None and reply not in out:
            out[reply] = score
            placed.append(reply)
    return list(out.items()), placed
