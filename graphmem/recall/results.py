"""What recall returns: `Recalled` memories in a `Recollection`, and the token budget."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from itertools import combinations

from ..simplex import Simplex
from .analysis import Analysis
from .gaps import Gap
from .ranker import Candidates
from .tuning import CHARS_PER_TOKEN


@dataclass
class Recalled:
    """One recalled memory, and why it was recalled."""

    uid: str
    text: str
    speaker: str | None
    source_id: str | None
    session: str | None
    session_date: str | None
    score: float
    channels: dict[str, int]  # channel -> rank (1 = best) in that channel
    restated: str | None = None
    refers_to: str | None = None
    caption: str | None = None
    why: dict[str, float] = field(default_factory=dict)  # what lifted it most above the other candidates (ranker.py)
    valid_until: str | None = None  # when a newer memory superseded what it says (graphmem/supersession.py)
    superseded_by: str | None = None  # the newest memory that superseded it
    supersedes: list[str] = field(default_factory=list)  # the older memories it superseded
    # when a newer memory gave a new value for one thing it said while the rest still holds
    # ("I moved to Berlin and I work at Google" after "I work at Apple now"): not superseded
    partly_superseded: str | None = None
    addressee: str | None = None  # whom its "you" means, when it says you to the other of two speakers

    @property
    def standing(self) -> bool:
        """Whether it is a standing instruction that applies to the question (recall/standing.py)."""
        return "standing" in self.channels

    @property
    def preference(self) -> bool:
        """Whether it is a preference the user stated that applies to the question (recall/standing.py)."""
        return "preference" in self.channels

    def context_line(self) -> str:
        date = f"[{self.session_date[:10]}] " if self.session_date else ""
        until = f" (superseded {self.valid_until[:10]})" if self.valid_until else \
            f" (superseded in part {self.partly_superseded[:10]})" if self.partly_superseded else ""
        if self.standing:
            said = f"Standing instruction: {self.text}"
        elif self.preference:
            said = f"Stated preference: {self.text}"
        else:
            said = self.said()
        return f"{date}{said}{until}"

    def said(self) -> str:
        """Who said it, to whom when it says "you", and its words as said: "Robin (to Sam): I do!
        You should visit the Louvre." The restatement ("Robin do! Sam should visit ...") is what
        recall searches by; a reader gets the words, and the speaker says who "I" is."""
        who = f"{self.speaker} (to {self.addressee})" if self.speaker and self.addressee else self.speaker
        said = f"{who}: {self.text}" if who else self.text
        return f"{said} [image: {self.caption}]" if self.caption else said


@dataclass(frozen=True)
class InducedSubcomplex:
    """The part of the complex a question reached, small enough to draw: the question's
    entities and the few seen with them in the tightest observations; every pair and triple of
    these that a retrieved simplex, or a gap seen only inside a larger observation, says was
    observed together, with the kind of the smallest observation holding it; the gaps."""

    names: dict[int, str]  # vid -> name: the question's entities first, then their neighbours
    asked: tuple[int, ...]  # the question's entities
    edges: dict[tuple[int, int], str | None]  # an observed pair (ascending vids) -> its smallest holder's kind
    triangles: dict[tuple[int, int, int], str | None]  # an observed triple -> its smallest holder's kind
    gaps: list[Gap]  # the question's gaps that name entities (an unknown name has none to draw)


@dataclass
class Gaps:
    """What memory lacks around a question (`Memory.gaps`), recalling no memory: the entities
    of the question memory knows, and the gaps among them, best first."""

    query: str
    user: str
    entities: list[str]
    gaps: list[Gap]

    def questions(self, holes_only: bool = True) -> list[str]:
        """The gaps as questions the agent could ask the user, best first: by default only the
        real holes' (entities seen together only inside a larger observation are no hole)."""
        return [g.question for g in self.gaps if g.hole or not holes_only]

    def to_dict(self) -> dict:
        return {"query": self.query, "user": self.user, "entities": self.entities,
                "gaps": [g.to_dict() for g in self.gaps]}


@dataclass
class Recollection:
    """The memories recalled for a question, best first, with the structure behind them."""

    query: str
    user: str
    analysis: Analysis
    memories: list[Recalled]
    subcomplex: list[Simplex]
    gaps: list[Gap]  # what memory lacks around the question, best first, each with a question to ask
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    candidates: Candidates | None = None  # the ranker's input, when asked for (to fit a ranker)
    # for a broad question, the abstract memories that hold several of the top:
    # {key, text, entities, first_seen, last_seen, size, held: the top they hold, members}
    abstracts: list[dict] = field(default_factory=list)

    @property
    def source_ids(self) -> list[str | None]:
        return [m.source_id for m in self.memories]

    def context(self) -> str:
        """The memories as lines an agent's prompt can take."""
        return "\n".join(m.context_line() for m in self.memories)

    def questions(self, holes_only: bool = True) -> list[str]:
        """The gaps as questions the agent could ask the user (Gaps.questions)."""
        return Gaps(self.query, self.user, [], self.gaps).questions(holes_only)

    def induced_subcomplex(self, neighbours: int = 4) -> InducedSubcomplex:
        """The retrieved subcomplex on the question's entities and at most `neighbours` others:
        those held by the smallest retrieved simplices (then by the most), for a picture."""
        names = {e.vid: e.name for e in self.analysis.entities}  # as the gaps name them
        asked = tuple(names)
        tightest: dict[int, tuple[int, int]] = {}  # vid -> (smallest holder's size, minus its holders)
        for s in self.subcomplex:
            for vid, name in zip(s.vids, s.names):
                names.setdefault(vid, name)
                if vid not in asked:
                    size, holders = tightest.get(vid, (len(s), 0))
                    tightest[vid] = (min(size, len(s)), holders - 1)
        shown = set(asked) | set(sorted(tightest, key=lambda v: (*tightest[v], v))[:max(0, neighbours)])
        edges: dict[tuple[int, int], str | None] = {}
        triangles: dict[tuple[int, int, int], str | None] = {}
        for s in sorted(self.subcomplex, key=lambda s: (len(s), s.kind != "turn", s.vids)):  # tightest first
            inside = [v for v in s.vids if v in shown]  # ascending, as the simplex's
            for a, b in combinations(inside, 2):
                edges.setdefault((a, b), s.kind)
            for a, b, c in combinations(inside, 3):
                triangles.setdefault((a, b, c), s.kind)
        for gap in self.gaps:  # seen together only inside a larger observation, which recall may not have retrieved
            if not gap.hole:
                for a, b in combinations(sorted(gap.vids), 2):
                    edges.setdefault((a, b), gap.context_kind)
                for a, b, c in combinations(sorted(gap.vids), 3):
                    triangles.setdefault((a, b, c), gap.context_kind)
        order = sorted(shown, key=lambda v: (v not in asked, tightest.get(v, (0, 0)), v))
        return InducedSubcomplex({v: names[v] for v in order}, asked, edges, triangles, [g for g in self.gaps if g.vids])

    def to_dict(self) -> dict:
        return {"query": self.query, "user": self.user, "analysis": self.analysis.to_dict(),
                "memories": [asdict(m) for m in self.memories],
                "subcomplex": [s.to_dict() for s in self.subcomplex], "gaps": [g.to_dict() for g in self.gaps],
                "abstracts": self.abstracts, "notes": self.notes, "timings_ms": self.timings}


def tokens(memory: Recalled) -> int:
    """About how many tokens a memory's context line costs."""
    return max(1, len(memory.context_line()) // CHARS_PER_TOKEN + 1)


def trim_to_budget(memories: list[Recalled], budget: int) -> list[Recalled]:
    """The best memories whose context lines fit in `budget` tokens."""
    kept, used = [], 0
    for m in memories:
        cost = tokens(m)
        if used + cost > budget:
            break
        kept.append(m)
        used += cost
    return kept
