"""The second stage of recall: a linear ranker over the fused candidates.

Reciprocal rank fusion keeps only each channel's ranks. The ranker also sees how far a memory's
cosines with the question and with its topic (its whole turn's, its best sentence's) are from the candidates' best,
whether its speaker is a person the question names, how much better than it its session
neighbours fared (an answer is often the reply to the turn that
matched) and the other members of an abstract it belongs to (graphmem/consolidation.py), and what kind of turn it is (`Said`: long, a question, a session's opener, about a
recent past), and weighs it all with coefficients fit by logistic regression
(`fit`) on labelled questions. Linear, so every score is a sum of named contributions
(`Ranker.explain`).

The same features weigh differently in two kinds of conversation (`conversation_kind`): among
people (named speakers, short turns alike) and between a user and an agent (the user's short
messages hold the facts, the agent's long replies match everything). Each kind has its own
packaged weights: `ranker.json`, fit on LoCoMo's development split, and `ranker-agent.json`, fit
on BEAM's. `graphmem bench locomo --cross-validate` and `python -m bench fit` measure them on
conversations the fit did not see; `--fit-ranker OUT.json` and `bench fit --out OUT.json` fit new
ones (`GRAPHMEM_RECALL_RANKER=OUT.json`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ..errors import ConfigError
from ..ingest.messages import AGENT_ROLE, USER_ROLE
from .tuning import MISSING_COSINE_GAP, RANK_FEATURE_K, RANK_FEATURE_TOP, WORDS_FULL

PEOPLE, AGENT = "people", "agent"  # the kinds of conversation (conversation_kind)
PACKAGED = {PEOPLE: Path(__file__).with_name("ranker.json"), AGENT: Path(__file__).with_name("ranker-agent.json")}
COSINES = ("cosine", "sentence", "topic", "topic_sentence")  # channels.Cosines, in its order


def feature_names(channels: Sequence[str]) -> list[str]:
    per_channel = [f"{c}{suffix}" for c in channels for suffix in ("_rank", "_top")]
    return per_channel + ["fused", "fused_with_neighbours", "neighbour_lift", *(f"{c}_gap" for c in COSINES),
                          "speaker_named", "speaker_not_named", "wordy", "asks", "opens", "recent", "abstract_lent"]


# What a feature tells a reader, when it explains a ranking: a channel's rank features speak for
# that channel, and complementary features for one idea.
REASONS = {**{f"{c}_gap": "semantic" for c in COSINES}, "fused": "fusion", "fused_with_neighbours": "fusion",
           "neighbour_lift": "neighbours", "abstract_lent": "abstracts", "speaker_named": "speaker", "speaker_not_named": "speaker",
           **{name: "content" for name in ("wordy", "asks", "opens", "recent")}}


def reason_of(feature: str) -> str:
    if feature in REASONS:
        return REASONS[feature]
    channel, _, suffix = feature.rpartition("_")
    return channel if suffix in ("rank", "top") and channel else feature


# English cue of a turn that reports something that happened to its speaker lately: such turns
# hold facts far more often than others (docs/tuning.md)
RECENT_PAST = re.compile(r"\b(yesterday|last (week|weekend|month|year|night|monday|tuesday|wednesday|thursday|"
                         r"friday|saturday|sunday)|recently|just)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Said:
    """Who said a memory, and what kind of turn it is: facts sit in long turns, in turns that
    open a session (news since the last one) or speak of a recent past, seldom in questions.
    (Sharing an image and speaking in the first person were measured too and weighed nothing
    beside these: a caption's words count in `words`.)"""
    speaker: str | None = None
    words: int = 0  # indexed words, image caption included (`Memory.length`)
    asks: bool = False  # ends with a question mark
    opens: bool = False  # the first turn of its session
    recent: bool = False  # speaks of yesterday, last week, recently, just

    @classmethod
    def of(cls, speaker: str | None, text: str | None, words: int | None, opens: bool) -> "Said":
        text = (text or "").strip()
        return cls(speaker, words or 0, text.endswith("?"), opens, bool(RECENT_PAST.search(text)))


def conversation_kind(speakers: Sequence[str | None]) -> str:
    """AGENT when the agent's replies are among the memories and at least half of them were said
    by a user or an agent that name no one (a chat's roles), else PEOPLE. Facts a user added
    alone, with no reply among them, are short messages alike, as turns among people are."""
    roles = sum(s in (USER_ROLE, AGENT_ROLE) for s in speakers)
    return AGENT if AGENT_ROLE in speakers and 2 * roles >= len(speakers) else PEOPLE


@dataclass
class Candidates:
    """The fused candidates of one question and the features the ranker scores them by."""
    uids: list[str]
    names: list[str]
    matrix: np.ndarray  # one row per uid, one column per name
    abstracts: list[dict] = field(default_factory=list)  # for a broad question, those holding several of the top
    replies: dict[str, str] = field(default_factory=dict)  # a user's turn -> the agent's reply (recall/replies.py)
    speakers: dict[str, str | None] = field(default_factory=dict)  # who said each candidate (recall/replies.py)
    texts: dict[str, str] = field(default_factory=dict)  # what each candidate says (recall/whose.py)
    kind: str = PEOPLE  # of the conversation they come from (conversation_kind): which weights rank them


def candidate_features(uids: Sequence[str], channels: Sequence[str], rankings: Mapping[str, Sequence[str]],
                       fused: Mapping[str, float], with_neighbours: Mapping[str, float],
                       neighbours: Mapping[str, Sequence[str]], cosines: Mapping[str, Sequence[float]],
                       said: Mapping[str, Said], persons: set[str],
                       lent: Mapping[str, float] | None = None, kind: str | None = None) -> Candidates:
    """`neighbours` maps a memory to the candidates near it in its session (the relation is
    symmetric; pipeline.near: within tuning.NEAR_TURNS turns for its kind of conversation);
    `persons` are the names of the people the question names; `lent`: the share of the fused
    score an abstract lends its members (recall/pipeline.py `lend`); `kind`: the conversation's
    (`conversation_kind` of the candidates' speakers, when the caller has not read it)."""
    lent = lent or {}
    unknown = Said()
    ranks = {c: {uid: i for i, uid in enumerate(rankings.get(c, ()), start=1)} for c in channels}
    top_fused = max(fused.values(), default=0.0) or 1.0
    best = [max((c[j] for c in cosines.values()), default=0.0) for j in range(len(COSINES))]
    neighbour_best: dict[str, float] = {}
    for uid, around in neighbours.items():
        for n in around:
            neighbour_best[n] = max(neighbour_best.get(n, 0.0), fused.get(uid, 0.0))
    rows = []
    for uid in uids:
        row = []
        for c in channels:
            rank = ranks[c].get(uid)
            row += [RANK_FEATURE_K / (RANK_FEATURE_K + rank) if rank else 0.0, 1.0 if rank and rank <= RANK_FEATURE_TOP else 0.0]
        cosine = cosines.get(uid)
        turn = said.get(uid, unknown)
        own = fused.get(uid, 0.0)
        row += [own / top_fused, with_neighbours.get(uid, 0.0) / top_fused,
                max(0.0, neighbour_best.get(uid, 0.0) - own) / top_fused,  # a neighbour that did better lifts it
                *([c - b for c, b in zip(cosine, best)] if cosine is not None else [MISSING_COSINE_GAP] * len(COSINES)),
                1.0 if persons and turn.speaker in persons else 0.0,
                1.0 if persons and turn.speaker not in persons else 0.0,
                min(1.0, np.log1p(turn.words) / np.log1p(WORDS_FULL)), float(turn.asks), float(turn.opens),
                float(turn.recent),
                lent.get(uid, 0.0) / top_fused]  # its abstract holds several of the fused top
        rows.append(row)
    names = feature_names(channels)
    return Candidates(list(uids), names, np.asarray(rows, dtype=float).reshape(len(rows), len(names)),
                      kind=kind or conversation_kind([said.get(uid, unknown).speaker for uid in uids]))


@dataclass(frozen=True)
class Ranker:
    names: tuple[str, ...]
    coefficients: np.ndarray
    intercept: float
    about: dict  # what it was fit on, and how it measured

    def scores(self, candidates: Candidates) -> np.ndarray:
        return self._aligned(candidates) @ self.coefficients + self.intercept

    def explain(self, candidates: Candidates, rows: Sequence[int], top: int = 3) -> list[dict[str, float]]:
        """For each of the given candidates, the reasons (`reason_of` its features) that lifted
        its score most above the average candidate's: the sums of coefficient × (value − the
        candidates' mean), which for a linear model are exactly its SHAP values against the
        candidate pool. (Raw contributions would name the same heavy features for every memory.)"""
        x = self._aligned(candidates)
        parts = (x[list(rows)] - x.mean(axis=0)) * self.coefficients
        reasons = [reason_of(name) for name in self.names]
        out = []
        for row in parts:
            lift: dict[str, float] = {}
            for reason, part in zip(reasons, row):
                lift[reason] = lift.get(reason, 0.0) + float(part)
            best = sorted((r for r in lift if lift[r] > 0), key=lambda r: -lift[r])[:top]
            out.append({r: round(lift[r], 3) for r in best})
        return out

    def _aligned(self, candidates: Candidates) -> np.ndarray:
        """The candidates' columns in this ranker's order; a feature it does not know (a channel
        that was off when it was fit) weighs nothing, one it knows but the query lacks is 0."""
        column = {n: j for j, n in enumerate(candidates.names)}
        out = np.zeros((len(candidates.uids), len(self.names)))
        for j, name in enumerate(self.names):
            if name in column:
                out[:, j] = candidates.matrix[:, column[name]]
        return out

    def to_dict(self) -> dict:
        return {"features": list(self.names), "coefficients": [round(float(c), 6) for c in self.coefficients],
                "intercept": round(float(self.intercept), 6), "about": self.about}

    @classmethod
    def from_dict(cls, d: dict, source: str = "ranker") -> "Ranker":
        try:
            names, coefficients = list(d["features"]), [float(c) for c in d["coefficients"]]
            intercept = float(d["intercept"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ConfigError(f"{source}: not a ranker (features, coefficients, intercept): {exc}") from None
        if len(names) != len(coefficients):
            raise ConfigError(f"{source}: {len(names)} features but {len(coefficients)} coefficients")
        return cls(tuple(names), np.asarray(coefficients), intercept, d.get("about", {}))


_loaded: dict[str, dict[str, Ranker]] = {}


def load_ranker(setting: str, kind: str = PEOPLE) -> Ranker | None:
    """The ranker a `recall_ranker` setting names for a kind of conversation: "default" (the
    packaged one of that kind), "off" (None), or a JSON file: one ranker for every kind, or an
    object of rankers by kind (`{"people": ..., "agent": ...}`), where a kind left out is ranked
    by the packaged one."""
    if setting == "off":
        return None
    if kind not in PACKAGED:
        raise ValueError(f"no kind of conversation {kind!r}; known: {', '.join(PACKAGED)}")
    if setting == "default":
        return _read(PACKAGED[kind], setting)[kind]
    by_kind = _read(Path(setting).expanduser(), setting)
    return by_kind.get(kind) or _read(PACKAGED[kind], "default")[kind]


def _read(path: Path, setting: str) -> dict[str, Ranker]:
    """The rankers in a file by kind; one ranker alone is every kind's."""
    key = str(path)
    if key not in _loaded:
        try:
            data = json.loads(path.read_text())
        except OSError as exc:
            raise ConfigError(f"recall_ranker {setting!r}: cannot read {path}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"recall_ranker {setting!r}: {path} line {exc.lineno}: not JSON ({exc.msg})") from None
        if isinstance(data, dict) and "features" not in data and data and set(data) <= set(PACKAGED):
            _loaded[key] = {kind: Ranker.from_dict(d, f"{path} ({kind})") for kind, d in data.items()}
        else:
            one = Ranker.from_dict(data if isinstance(data, dict) else {}, str(path))
            _loaded[key] = {kind: one for kind in PACKAGED}
    return _loaded[key]


# -- fitting --------------------------------------------------------------------------


@dataclass
class Example:
    """One labelled question: its candidates and which of them are evidence."""
    group: str  # questions of one group (a conversation) are held out together in cross-validation
    candidates: Candidates
    relevant: np.ndarray  # bool per candidate


def fit(examples: Sequence[Example], about: dict | None = None, regularisation: float = 1.0) -> Ranker:
    """Logistic regression of "is evidence" on the candidates' features (scikit-learn)."""
    from sklearn.linear_model import LogisticRegression

    if not examples:
        raise ValueError("no examples to fit a ranker on")
    names = examples[0].candidates.names
    x = np.vstack([e.candidates.matrix for e in examples])
    y = np.concatenate([e.relevant for e in examples])
    if y.all() or not y.any():
        raise ValueError("fitting a ranker needs both relevant and irrelevant candidates")
    model = LogisticRegression(C=regularisation, max_iter=5000).fit(x, y)
    return Ranker(tuple(names), model.coef_[0].copy(), float(model.intercept_[0]), dict(about or {}))


def held_out_rankings(examples: Sequence[Example], by_kind: bool = False) -> list[list[str]]:
    """Each example's candidates ordered by a ranker fit on the other groups' examples only;
    `by_kind`: only on those of its own kind of conversation, as recall ranks them."""
    out: list[list[str] | None] = [None] * len(examples)
    for group, kind in dict.fromkeys((e.group, e.candidates.kind if by_kind else None) for e in examples):
        ranker = fit([e for e in examples if e.group != group and kind in (None, e.candidates.kind)])
        for i, e in enumerate(examples):
            if e.group == group and kind in (None, e.candidates.kind):
                order = np.argsort(-ranker.scores(e.candidates), kind="stable")
                out[i] = [e.candidates.uids[j] for j in order]
    return out  # type: ignore[return-value]
