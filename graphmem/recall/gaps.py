"""Knowledge gaps an agent can act on: what memory lacks around a question, ranked, each with a
question the agent could ask the user. Zero-LLM: the simplex tree says which of the question's
entities were seen together, and templates over the question's parse and the entities' kinds
phrase the question.

Over the entities a question matched, each set of two or more is in one of three states:
observed itself (a stored simplex: nothing is missing), seen together only inside a larger
observation (a face of a stored simplex, never observed by itself), or never seen together (no
stored simplex holds them all). The kinds of gap:

- "unknown": a name in the question that matches no entity: memory knows nothing of it.
- "unanswered": a matched entity no memory mentions with anything of the kind the question
  asks for ("Where does Caroline's sister live?", and no message names her with a place). A
  real hole: the answer is missing.
- "never together": a set of matched entities no observation holds together, whose every
  smaller set was (for a pair: simply never seen together). A real hole: memory cannot say how
  they are connected, so the agent may ask.
- "only inside larger": a set seen together only inside a larger observation (with the other
  entities of `context`), never observed by itself. Not a hole: memory holds them together,
  only never alone; reported for the sets no larger one among the question's entities
  covers, and ranked below every real hole.

Real holes rank first; among gaps of a kind, by how much the question is about their entities:
how surely the question named them, how specific they are (the speakers in most memories tell
little), and whether one is of the kind the question asks for (a place for "where")."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..complex import Complex, Support
from .analysis import ANSWER_KINDS, Analysis, Matched
from .tuning import (FANOUT, GAP_ANSWER_KIND_BONUS, GAP_COMMON_WEIGHT, GAP_CONTEXT_NAMES, GAP_ENTITIES,
                     GAP_SESSION_HOLDER_WEIGHT, GAP_TURN_HOLDER_WEIGHT)

UNKNOWN, UNANSWERED, NEVER_TOGETHER, ONLY_INSIDE_LARGER = ("unknown", "unanswered", "never together",
                                                           "only inside larger")
REAL_HOLES = (UNKNOWN, UNANSWERED, NEVER_TOGETHER)
PLACES = ("GPE", "LOC", "FAC")
# Words that frame a question rather than say what it is about ("What kind of pottery...",
# "What are the pets' names?"): matched as concepts, they are no gap's entities.
FRAME_WORDS = {"kind", "type", "sort", "name", "way", "thing", "item", "part", "lot", "example", "respect", "reason",
               "people", "person", "someone", "something", "anything", "one", "term"}


@dataclass(frozen=True)
class Gap:
    """One gap around a question. `question` is what the agent could ask the user;
    `meaning` says in a line what the gap is; `score` orders gaps (higher first: real holes
    above 0.5, a seen-only-inside-larger set below it)."""

    kind: str  # UNKNOWN, UNANSWERED, NEVER_TOGETHER or ONLY_INSIDE_LARGER
    names: tuple[str, ...]
    vids: tuple[int, ...]  # empty for an unknown name
    score: float
    question: str
    meaning: str
    context: tuple[str, ...] = ()  # only inside larger: the other entities of the smallest observation holding them
    context_kind: str | None = None  # what made that observation (turn, session, ...)

    @property
    def hole(self) -> bool:
        """Whether memory lacks this: an unknown name, an entity with nothing of the kind asked
    for, or entities never seen together."""
        return self.kind in REAL_HOLES

    def to_dict(self) -> dict:
        return {"question": self.question, "kind": self.kind, "entities": list(self.names), "vids": list(self.vids),
                "score": self.score, "hole": self.hole, "meaning": self.meaning, "context": list(self.context),
                "context_kind": self.context_kind}


def find_gaps(cx: Complex, a: Analysis) -> list[Gap]:
    """The gaps around the question `a` read, best first, each with a question to ask: the best
    hole between entities asks the user's question back when it is one, the others come from
    templates over the entities' kinds."""
    by_vid = {e.vid: e for e in a.entities if not (e.kind == "CONCEPT" and e.name.lower() in FRAME_WORDS)}
    gaps = [Gap(UNKNOWN, (name,), (), 1.0, f"Who or what is {name}?",
                f"no entity in memory is called {name}: a real hole") for name in a.unknown]
    if a.answer_kinds:
        gaps += _unanswered(cx, by_vid, a)
    vids = sorted(by_vid)
    if len(vids) >= 2:
        # past GAP_ENTITIES matched entities only the pairs: every set would be 2^n faces
        support = cx.support(vids, max_dim=None if len(vids) <= GAP_ENTITIES else 1)
        gaps += _holes(support, by_vid, a) + _only_inside(cx, support, by_vid, a)
    gaps.sort(key=lambda g: (-g.score, REAL_HOLES.index(g.kind) if g.hole else 2, g.vids, g.names))
    return _ask_first_hole(gaps, a)


def _unanswered(cx: Complex, by_vid: dict[int, Matched], a: Analysis) -> list[Gap]:
    """The question's specific entities no memory mentions with an entity of the kind it asks
    for ("Where does Caroline's sister live?", and no message names her with a place). Not asked
    about: an entity of that kind, one named by the words that ask for it ("book" in "What books
    has Melanie read?"), one in more than FANOUT memories (something of the kind is surely near)."""
    naming = [pattern for pattern, kinds, _ in ANSWER_KINDS if set(kinds) & set(a.answer_kinds)]
    asks = [e for e in (by_vid[v] for v in a.specific_vids() if v in by_vid)
            if e.kind not in a.answer_kinds and e.frequency <= FANOUT and not any(p.search(e.name) for p in naming)]
    if not asks:
        return []
    rows = cx.store.run("gap_answers", user_id=cx.user, vids=[e.vid for e in asks], kinds=a.answer_kinds)
    answered = {r["vid"] for r in rows if r["answers"]}
    what = ", ".join(called for _, kinds, called in ANSWER_KINDS if set(kinds) & set(a.answer_kinds)) or "answers"
    # what the question asks for, missing: lifted as a gap holding the kind asked for is
    lift = GAP_ANSWER_KIND_BONUS
    return [Gap(UNANSWERED, (e.name,), (e.vid,), round(0.5 + 0.5 * min(1.0, _about([e], a) + lift), 3),
                _asked_for(e.name, what),
                f"no memory names {e.name} with any of the {what} the question asks for: a real hole")
            for e in asks if e.vid not in answered]


def _asked_for(name: str, what: str) -> str:
    if what == "places":
        return f"Which place goes with {name}?"
    if what == "titles":
        return f"Which book, film or song goes with {name}?"
    return f"Which {what} go with {name}?"


def _holes(support: list[Support], by_vid: dict[int, Matched], a: Analysis) -> list[Gap]:
    """The minimal sets never seen together: for a pair, never together; for a larger set, every
    smaller set was seen together, the whole never (an empty triangle)."""
    together = {s.face.vids for s in support if s.together}
    out = []
    for s in support:
        f = s.face.vids
        if s.together or not all(sub in together for sub in _one_smaller(f) if len(sub) >= 2):
            continue
        entities = _spoken_order([by_vid[v] for v in f], a)
        spoken = tuple(e.name for e in entities)
        out.append(Gap(NEVER_TOGETHER, s.face.names, f, round(0.5 + 0.5 * _about(entities, a), 3),
                       _template(entities, a), f"no observation holds {_listed(spoken)} together: a real hole"))
    return out


def _only_inside(cx: Complex, support: list[Support], by_vid: dict[int, Matched], a: Analysis) -> list[Gap]:
    """The sets seen together only inside larger observations, where no larger set of the
    question's entities was seen together (that one is reported, or was observed itself), each
    with the other entities of the smallest observation holding it."""
    together = {s.face.vids for s in support if s.together}
    inside = [s.face for s in support if s.together and not s.face.stored
              and not any(set(s.face.vids) < set(g) for g in together)]
    holders = cx.holders([f.vids for f in inside])
    out = []
    for face in inside:
        holder, kind = holders.get(face.vids, (None, None))
        context = tuple(n for v, n in zip(holder.vids, holder.names) if v not in face.vids) if holder else ()
        weight = GAP_SESSION_HOLDER_WEIGHT if kind == "session" else GAP_TURN_HOLDER_WEIGHT
        entities = _spoken_order([by_vid[v] for v in face.vids], a)
        spoken = tuple(e.name for e in entities)
        out.append(Gap(ONLY_INSIDE_LARGER, face.names, face.vids, round(0.5 * weight * _about(entities, a), 3),
                       _related(spoken), _inside_meaning(spoken, context, kind), context, kind))
    return out


def _one_smaller(face: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [face[:i] + face[i + 1:] for i in range(len(face))]


def _about(entities: list[Matched], a: Analysis) -> float:
    """How much the question is about these entities, in (0, 1]: the mean of how surely it named
    each (the match score) times how specific each is (rarer counts more, one in most memories
    counts GAP_COMMON_WEIGHT), lifted when one is of the kind the question asks for."""
    def each(e: Matched) -> float:
        return e.score * (GAP_COMMON_WEIGHT if e.common else 1.0) / (1.0 + math.log10(max(1, e.frequency)))

    mean = sum(each(e) for e in entities) / len(entities)
    asked = any(e.kind in a.answer_kinds for e in entities)
    return min(1.0, mean + (GAP_ANSWER_KIND_BONUS if asked else 0.0))


# -- phrasing -----------------------------------------------------------------------------


def _listed(names: tuple[str, ...] | list[str]) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _template(entities: list[Matched], a: Analysis) -> str:
    """A question about entities never seen together, by their kinds (and "when" for a question
    about time)."""
    when = a.type == "temporal"
    people = [e.name for e in entities if e.kind == "PERSON"]
    places = [e.name for e in entities if e.kind in PLACES]
    if len(entities) == 2:
        if len(people) == 2:
            return (f"Have {people[0]} and {people[1]} ever met, and when?" if when
                    else f"How do {people[0]} and {people[1]} know each other?")
        if people and places:
            return (f"Has {people[0]} ever been to {places[0]}, and when?" if when
                    else f"Has {people[0]} ever been to {places[0]}?")
        if people:
            other = next(e.name for e in entities if e.kind != "PERSON")
            return f"What does {people[0]} have to do with {other}?"
        return f"What links {entities[0].name} and {entities[1].name}?"
    if len(places) == 1 and len(people) == len(entities) - 1:
        return f"Have {_listed(people)} ever been to {places[0]} together?"
    if len(people) == len(entities):
        return f"Have {_listed(people)} ever met?"
    return f"What links {_listed([e.name for e in entities])}?"


def _context_text(context: tuple[str, ...]) -> str:
    shown = list(context[:GAP_CONTEXT_NAMES])
    more = len(context) - len(shown)
    return _listed(shown + [f"{more} more"]) if more else _listed(shown)


def _related(names: tuple[str, ...]) -> str:
    return f"How are {_listed(names)} related?"


def _inside_meaning(names: tuple[str, ...], context: tuple[str, ...], holder_kind: str | None) -> str:
    if not context:
        return f"{_listed(names)} were seen together only inside larger observations, never on their own: not a hole"
    others = _context_text(context)
    if holder_kind == "session":
        return (f"{_listed(names)} were seen together only in one session (which also holds {others}), never in "
                "one message: not a hole")
    return (f"{_listed(names)} were seen together only inside larger observations (the smallest, a "
            f"{holder_kind or 'simplex'}, also holds {others}), never on their own: not a hole")


def _spoken_order(entities: list[Matched], a: Analysis) -> list[Matched]:
    """The entities in the order the question names them (those it names by another word last)."""
    text = a.query.lower()
    return sorted(entities, key=lambda e: (text.find(e.name.lower()) % (len(text) + 1), e.vid))


def _ask_first_hole(gaps: list[Gap], a: Analysis) -> list[Gap]:
    """The best hole about known entities asks the user's own question back ("Do you know where
    Caroline's sister lives?", `Analysis.asked_back`), when it could be turned into one."""
    first = next((i for i, g in enumerate(gaps) if g.kind in (UNANSWERED, NEVER_TOGETHER)), None)
    if first is not None and a.asked_back:
        gaps[first] = Gap(**{**vars(gaps[first]), "question": a.asked_back})
    return gaps
