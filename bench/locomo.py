"""LoCoMo retrieval benchmark: Recall@k and All@k of the annotated evidence turns, per category,
for any number of retrieval systems measured in the same run (graphmem, its ablations, and the
BM25 and dense MiniLM baselines over the raw turns).

Data: LoCoMo (Maharana et al., ACL 2024, arXiv:2402.17753), CC BY-NC 4.0: evaluate with it,
never ship it. Turns come from `graphmem.ingest.read_transcript`, the parser ingestion
uses; only the raw turns (speaker, text, image caption) are retrieved over. The files'
`observation`, `summary` and `events_*` fields are generated or annotated, never indexed here.

Each question is asked once per system with k = max(ks); Recall@k and All@k for smaller k are
read from the prefix of that ranking. graphmem itself as a system, and the run behind
`graphmem bench locomo`, are in `bench.locomo_run`.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Container, Iterable, Mapping, Protocol, Sequence, runtime_checkable

import numpy as np

from graphmem.errors import ConfigError, InputError

if TYPE_CHECKING:
    from rich.console import Console

    from graphmem.ingest import Turn
    from graphmem.recall.ranker import Candidates, Example

CATEGORIES: dict[int, str] = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}
SCORED_CATEGORIES: tuple[int, ...] = (1, 2, 3, 4)
DEFAULT_KS: tuple[int, ...] = (5, 10, 20)
OVERALL = "overall"


# --------------------------------------------------------------------------- questions

@dataclass(frozen=True)
class Question:
    question: str
    answer: str | None          # category 5 carries `adversarial_answer` instead; kept here
    category: int
    evidence: tuple[str, ...]   # normalised dia_ids that exist in the conversation
    conversation: str = ""
    index: int = 0              # position in the file's `qa` list

    @property
    def category_name(self) -> str:
        return CATEGORIES.get(self.category, str(self.category))


@dataclass(frozen=True)
class EvidenceIssue:
    """One evidence string that was not a plain, known dia_id, and what was done with it."""
    conversation: str
    question_index: int
    raw: str
    kind: str                   # split | reformatted | malformed | unknown | duplicate
    result: tuple[str, ...]     # the ids kept from it (empty when dropped)


@dataclass(frozen=True)
class DroppedQuestion:
    conversation: str
    index: int
    category: int
    question: str
    raw_evidence: tuple[str, ...]
    reason: str                 # "no evidence annotated" | "no valid evidence left"


@dataclass
class QuestionSet:
    conversation: str
    questions: list[Question]
    dropped: list[DroppedQuestion] = field(default_factory=list)
    issues: list[EvidenceIssue] = field(default_factory=list)


_DIA_ID = re.compile(r"D\s*:?\s*(\d+)\s*:\s*(\d+)", re.IGNORECASE)
_SEPARATORS = re.compile(r"[;,\s]+")

ISSUE_KINDS = {
    "split": "one string held several ids (';' or spaces): split",
    "reformatted": "malformed id repaired ('D:11:26' -> 'D11:26', 'D30:05' -> 'D30:5')",
    "malformed": "not a dia_id at all (e.g. bare 'D'): dropped",
    "unknown": "id not in the conversation: dropped",
    "duplicate": "id repeated within a question: kept once",
}


def normalise_dia_id(token: str) -> str | None:
    """'D1:3' -> 'D1:3'; 'D:11:26' -> 'D11:26'; 'D30:05' -> 'D30:5'; anything else -> None."""
    m = _DIA_ID.fullmatch(token.strip())
    if not m:
        return None
    return f"D{int(m.group(1))}:{int(m.group(2))}"


def normalise_evidence(raw: Iterable[str], valid_ids: Container[str] | None = None,
                       *, conversation: str = "", question_index: int = 0,
                       ) -> tuple[tuple[str, ...], list[EvidenceIssue]]:
    """The distinct, well-formed (and, given `valid_ids`, existing) dia_ids in a LoCoMo evidence
    list, in order, and the issues met on the way."""
    kept: list[str] = []
    issues: list[EvidenceIssue] = []

    def issue(raw_value: str, kind: str, result: Sequence[str] = ()) -> None:
        issues.append(EvidenceIssue(conversation, question_index, raw_value, kind, tuple(result)))

    for value in raw:
        value = str(value)
        tokens = [t for t in _SEPARATORS.split(value.strip()) if t]
        good: list[str] = []
        for token in tokens:
            norm = normalise_dia_id(token)
            if norm is None:
                issue(token if len(tokens) > 1 else value, "malformed")
                continue
            if norm != token:
                issue(token, "reformatted", [norm])
            if valid_ids is not None and norm not in valid_ids:
                issue(norm, "unknown")
                continue
            if norm in kept or norm in good:
                issue(norm, "duplicate", [norm])
                continue
            good.append(norm)
        if len(tokens) > 1:
            issue(value, "split", good)
        if not tokens:
            issue(value, "malformed")
        kept.extend(good)
    return tuple(kept), issues


def _raw_conversations(path: Path) -> list[tuple[str, dict]]:
    """(conversation id, raw object) for a LoCoMo file: one conversation (the v2 files, flat or
    with a `conversation` key) or a list of them (locomo10.json)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", source=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", source=str(path), line=exc.lineno) from None
    items = data if isinstance(data, list) else [data]
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict) or "qa" not in item:
            raise InputError(f"conversation {i} is not a LoCoMo conversation (no 'qa' list)", source=str(path))
        cid = str(item.get("sample_id") or (path.stem if len(items) == 1 else f"{path.stem}-{i}"))
        out.append((cid, item))
    return out


def _questions_from(cid: str, item: dict, valid_ids: Container[str] | None) -> QuestionSet:
    qs = QuestionSet(cid, [])
    for i, qa in enumerate(item.get("qa") or []):
        raw = qa.get("evidence") or []
        if isinstance(raw, str):
            raw = [raw]
        category = int(qa.get("category", 0))
        answer = qa.get("answer", qa.get("adversarial_answer"))
        text = str(qa.get("question", ""))
        evidence, issues = normalise_evidence(raw, valid_ids, conversation=cid, question_index=i)
        qs.issues.extend(issues)
        if not evidence:
            reason = "no evidence annotated" if not raw else "no valid evidence left"
            qs.dropped.append(DroppedQuestion(cid, i, category, text, tuple(map(str, raw)), reason))
            continue
        qs.questions.append(Question(text, None if answer is None else str(answer), category, evidence, cid, i))
    return qs


def scan_questions(path: str | Path, turn_ids: Container[str] | None = None) -> list[QuestionSet]:
    """Questions of every conversation in a LoCoMo file, with what was dropped and repaired.
    `turn_ids` (the conversation's dia_ids) defaults to the turns `read_transcript` finds; it
    applies to single-conversation files only."""
    path = Path(path)
    raws = _raw_conversations(path)
    if turn_ids is None or len(raws) > 1:
        return [c.questions for c in load_conversations(path)]
    cid, item = raws[0]
    return [_questions_from(cid, item, turn_ids)]


def load_questions(path: str | Path, turn_ids: Container[str] | None = None) -> list[Question]:
    """The questions with valid evidence (all categories, 5 included) of a LoCoMo file."""
    return [q for qs in scan_questions(path, turn_ids) for q in qs.questions]


# --------------------------------------------------------------------------- conversations

@dataclass
class Conversation:
    id: str
    path: Path
    turns: list["Turn"]
    questions: QuestionSet


def _read_turns(path: Path) -> list["Turn"]:
    from graphmem.ingest import read_transcript

    return list(read_transcript(path, format="locomo"))


def load_conversations(path: str | Path) -> list[Conversation]:
    """The conversations of a LoCoMo file: turns from the ingest parser, questions normalised
    against those turns' ids."""
    path = Path(path)
    raws = _raw_conversations(path)
    out = []
    if len(raws) == 1:
        turns = _read_turns(path)
        cid, item = raws[0]
        out.append(Conversation(cid, path, turns, _questions_from(cid, item, {t.source_id for t in turns})))
        return out
    # several conversations in one file: the parser reads one transcript per file
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as tmp:
        for cid, item in raws:
            part = Path(tmp) / f"{re.sub(r'[^A-Za-z0-9_.-]', '_', cid)}.json"
            part.write_text(json.dumps(item), encoding="utf-8")
            turns = _read_turns(part)
            out.append(Conversation(cid, path, turns, _questions_from(cid, item, {t.source_id for t in turns})))
    return out


# --------------------------------------------------------------------------- metrics

def recall_at_k(retrieved: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """Share of the evidence turns among the first k retrieved."""
    gold = set(evidence)
    if not gold:
        raise ValueError("no evidence")
    return len(gold.intersection(retrieved[:k])) / len(gold)


def all_at_k(retrieved: Sequence[str], evidence: Sequence[str], k: int) -> float:
    """1.0 when every evidence turn is among the first k retrieved, else 0.0."""
    return float(set(evidence) <= set(retrieved[:k]))


# --------------------------------------------------------------------------- systems

@runtime_checkable
class System(Protocol):
    """A retrieval system under test. `prepare` indexes one conversation (called once per
    conversation before its questions); `retrieve` returns turn source_ids, best first."""

    def prepare(self, conversation_id: str, turns: Sequence["Turn"]) -> None: ...

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]: ...


def turn_text(turn: "Turn") -> str:
    """What the baselines index: `Speaker: text`, plus `[image: caption]` when the turn shared one."""
    text = f"{turn.speaker}: {turn.text}"
    caption = getattr(turn, "caption", None)
    return f"{text} [image: {caption}]" if caption else text


_TOKEN = re.compile(r"\w+")


def tokenize(text: str) -> list[str]:
    """Lower-cased word tokens (letters, digits, underscore); nothing else."""
    return _TOKEN.findall(text.lower())


class LemmaTokenizer:
    """Lower-cased spaCy lemmas of the word and number tokens ("went" -> "go", "paintings" ->
    "painting"), from the pipeline ingestion uses (GRAPHMEM_SPACY_MODELS); tagger and lemmatizer
    only. `batch` tokenises many texts at once."""

    def __init__(self, models: Sequence[str] | None = None):
        if models is None:
            from graphmem.settings import Settings

            models = Settings.from_env().spacy_models
        self.models = tuple(models)

    @property
    def nlp(self):
        from graphmem.models import nlp

        return nlp(self.models)

    def _disabled(self) -> list[str]:
        return [name for name in self.nlp.pipe_names if name in ("parser", "ner")]

    @staticmethod
    def _lemmas(doc) -> list[str]:
        return [(t.lemma_ or t.text).lower() for t in doc if t.is_alpha or t.is_digit or t.like_num]

    def __call__(self, text: str) -> list[str]:
        return self._lemmas(self.nlp(text, disable=self._disabled()))

    def batch(self, texts: Sequence[str]) -> list[list[str]]:
        return [self._lemmas(doc) for doc in self.nlp.pipe(texts, disable=self._disabled(), batch_size=256)]


def _top_k(scores: np.ndarray, ids: Sequence[str], k: int) -> list[str]:
    if k <= 0 or len(ids) == 0:
        return []
    order = np.argsort(-scores, kind="stable")[:k]  # ties keep transcript order
    return [ids[i] for i in order]


class BM25:
    """rank-bm25's BM25Okapi over `Speaker: text [image: caption]` turns. The default tokeniser
    is `tokenize` (lower-cased word tokens); `BM25(tokenizer=LemmaTokenizer())` matches lemmas."""

    def __init__(self, k1: float = 1.5, b: float = 0.75, epsilon: float = 0.25,
                 tokenizer: Callable[[str], list[str]] = tokenize):
        self.k1, self.b, self.epsilon, self.tokenizer = k1, b, epsilon, tokenizer
        self._index: dict[str, tuple[Any, list[str]]] = {}

    def warmup(self) -> None:
        self.tokenizer("warm up")

    def prepare(self, conversation_id: str, turns: Sequence["Turn"]) -> None:
        from rank_bm25 import BM25Okapi

        ids = [t.source_id for t in turns]
        texts = [turn_text(t) for t in turns]
        batch = getattr(self.tokenizer, "batch", None)
        tokens = batch(texts) if batch else [self.tokenizer(t) for t in texts]
        corpus = [doc or ["\0"] for doc in tokens]  # no empty document (rank-bm25 divides by length)
        self._index[conversation_id] = (BM25Okapi(corpus, k1=self.k1, b=self.b, epsilon=self.epsilon) if corpus else None, ids)

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]:
        bm25, ids = self._index[conversation_id]
        if bm25 is None:
            return []
        return _top_k(np.asarray(bm25.get_scores(self.tokenizer(question))), ids, k)


class Dense:
    """Cosine similarity of normalised sentence embeddings (MiniLM by default) over the same
    `Speaker: text [image: caption]` turns."""

    def __init__(self, model: str | None = None):
        if model is None:
            from graphmem.settings import Settings

            model = Settings.from_env().embedding_model
        self.model = model
        self._index: dict[str, tuple[np.ndarray, list[str]]] = {}

    @property
    def embedder(self):
        from graphmem.models import embedder

        return embedder(self.model)

    def warmup(self) -> None:
        self.embedder.embed(["warm up"])

    def prepare(self, conversation_id: str, turns: Sequence["Turn"]) -> None:
        vectors = self.embedder.embed([turn_text(t) for t in turns])
        self._index[conversation_id] = (vectors, [t.source_id for t in turns])

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]:
        vectors, ids = self._index[conversation_id]
        query = self.embedder.embed([question])[0]
        return _top_k(vectors @ query, ids, k)


def baselines(dense_model: str | None = None, lemma: bool = True) -> dict[str, System]:
    """The same-run baselines: BM25 (word tokens), BM25-lemma (spaCy lemmas; skipped with
    `lemma=False`) and Dense (MiniLM by default)."""
    systems: dict[str, System] = {"BM25": BM25()}
    if lemma:
        systems["BM25-lemma"] = BM25(tokenizer=LemmaTokenizer())
    systems["Dense"] = Dense(dense_model)
    return systems


# --------------------------------------------------------------------------- running

@dataclass(frozen=True)
class Progress:
    stage: str                  # "prepare" | "retrieve" | "done"
    conversation: str
    system: str | None
    done: int                   # retrieve calls made so far (questions x systems)
    total: int                  # retrieve calls to make in all

    def __str__(self) -> str:
        what = f"{self.stage} {self.conversation}" + (f" [{self.system}]" if self.system else "")
        return f"{what}: {self.done}/{self.total} retrieve calls"


@dataclass
class QuestionRecord:
    question: Question
    retrieved: dict[str, list[str]]     # system -> top max(ks) source_ids
    seconds: dict[str, float]           # system -> retrieve latency


@dataclass
class ConversationInfo:
    id: str
    path: str
    turns: int
    questions: int                      # scored
    not_scored: int                     # valid evidence, category not scored (5)
    dropped: int
    prepare_seconds: dict[str, float]


def _percentile(values: Sequence[float], q: float) -> float:
    return float(np.percentile(np.asarray(values, dtype=float), q)) if len(values) else math.nan


@dataclass
class BenchmarkResult:
    ks: tuple[int, ...]
    systems: list[str]
    categories: tuple[int, ...]
    conversations: list[ConversationInfo]
    records: list[QuestionRecord]
    dropped: list[DroppedQuestion]
    issues: list[EvidenceIssue]
    unknown_ids: dict[str, int]         # system -> returned ids that are no turn of the conversation
    # what a subclass for another benchmark changes (bench.beam: BEAM's abilities)
    BENCHMARK: ClassVar[str] = "LoCoMo"
    CATEGORY_NAMES: ClassVar[Mapping[int, str]] = CATEGORIES

    # ---- numbers
    def scores(self, system: str, category: int | None = None) -> dict[str, Any]:
        """{"n", "recall": {k: mean}, "all": {k: mean}} over the scored questions of `category`
        (None: all scored questions)."""
        rows = [r for r in self.records if category is None or r.question.category == category]
        out: dict[str, Any] = {"n": len(rows), "recall": {}, "all": {}}
        for k in self.ks:
            rec = [recall_at_k(r.retrieved[system], r.question.evidence, k) for r in rows]
            alls = [all_at_k(r.retrieved[system], r.question.evidence, k) for r in rows]
            out["recall"][k] = float(np.mean(rec)) if rows else math.nan
            out["all"][k] = float(np.mean(alls)) if rows else math.nan
        return out

    def latency(self, system: str) -> dict[str, float]:
        """Retrieve latency (ms: p50, p95, mean, max), prepare time (s: total, per conversation)
        and the turns prepared per second (ingest's rate, next to the baselines' indexing)."""
        secs = [r.seconds[system] for r in self.records]
        prep = [c.prepare_seconds.get(system, 0.0) for c in self.conversations]
        spent, turns = sum(prep), sum(c.turns for c in self.conversations if c.prepare_seconds.get(system))
        return {
            "n": len(secs),
            "p50_ms": _percentile(secs, 50) * 1e3, "p95_ms": _percentile(secs, 95) * 1e3,
            "mean_ms": float(np.mean(secs)) * 1e3 if secs else math.nan,
            "max_ms": max(secs) * 1e3 if secs else math.nan,
            "prepare_s": float(spent),
            "prepare_per_conversation_s": float(np.mean(prep)) if prep else math.nan,
            "prepare_turns_per_s": turns / spent if spent else math.nan,
        }

    def dropped_counts(self) -> dict[str, int]:
        return dict(Counter(d.reason for d in self.dropped))

    def issue_counts(self) -> dict[str, int]:
        return dict(Counter(i.kind for i in self.issues))

    @property
    def not_scored(self) -> int:
        return sum(c.not_scored for c in self.conversations)

    def add_system(self, name: str, retrieved: Sequence[Sequence[str]], seconds: Sequence[float]) -> None:
        """A system computed after the run (a ranking per record, in record order)."""
        if len(retrieved) != len(self.records) or len(seconds) != len(self.records):
            raise ValueError(f"{name}: {len(retrieved)} rankings for {len(self.records)} questions")
        self.systems.append(name)
        self.unknown_ids[name] = 0
        for record, ids, secs in zip(self.records, retrieved, seconds):
            record.retrieved[name] = [str(x) for x in ids[:max(self.ks)]]
            record.seconds[name] = secs

    # ---- output
    def to_dict(self, details: bool = False) -> dict[str, Any]:
        """JSON-able summary; `details` adds every question's evidence and each system's ranking."""
        def cat_key(c: int | None) -> str:
            return OVERALL if c is None else self.CATEGORY_NAMES.get(c, str(c))

        data: dict[str, Any] = {
            "benchmark": self.BENCHMARK.lower(),
            "ks": list(self.ks),
            "systems": {
                s: {
                    "scores": {cat_key(c): _str_keys(self.scores(s, c)) for c in (*self.categories, None)},
                    "latency": self.latency(s),
                    "unknown_ids": self.unknown_ids.get(s, 0),
                } for s in self.systems
            },
            "questions": {
                "scored": len(self.records),
                "by_category": {cat_key(c): sum(r.question.category == c for r in self.records) for c in self.categories},
                "not_scored": self.not_scored,
                "dropped": self.dropped_counts(),
                "evidence_issues": self.issue_counts(),
            },
            "conversations": [asdict(c) for c in self.conversations],
            "dropped": [asdict(d) for d in self.dropped],
            "evidence_issues": [asdict(i) for i in self.issues],
        }
        if details:
            data["records"] = [
                {"conversation": r.question.conversation, "index": r.question.index,
                 "category": r.question.category, "question": r.question.question,
                 "evidence": list(r.question.evidence), "retrieved": r.retrieved, "seconds": r.seconds}
                for r in self.records
            ]
        return data

    def render(self, console: "Console", baseline: str = "BM25") -> None:
        """Rich tables: quality (a row per category x system; ratios of Recall@k to `baseline`
        when it ran) and latency; then what was dropped or repaired."""
        from rich.table import Table

        base = baseline if baseline in self.systems and len(self.systems) > 1 else None
        kref = 10 if 10 in self.ks else max(self.ks)
        n_conv = len(self.conversations)
        table = Table(title=f"{self.BENCHMARK} retrieval: {len(self.records)} questions, {n_conv} conversation"
                            f"{'s' if n_conv != 1 else ''}")
        table.add_column("category")
        table.add_column("n", justify="right")
        table.add_column("system")
        for k in self.ks:
            table.add_column(f"R@{k}", justify="right")
        for k in self.ks:
            table.add_column(f"All@{k}", justify="right")
        if base:
            table.add_column(f"R@{kref} / {base}", justify="right")
        for c in (*self.categories, None):
            base_scores = self.scores(base, c) if base else None
            for j, s in enumerate(self.systems):
                sc = self.scores(s, c)
                row = [(OVERALL if c is None else f"{c} {self.CATEGORY_NAMES.get(c, '')}") if j == 0 else "",
                       str(sc["n"]) if j == 0 else "", s]
                row += [_fmt(sc["recall"][k]) for k in self.ks] + [_fmt(sc["all"][k]) for k in self.ks]
                if base_scores:
                    row.append(_ratio(sc["recall"][kref], base_scores["recall"][kref]))
                table.add_row(*row, end_section=j == len(self.systems) - 1)
        console.print(table)

        lat = Table(title="latency (retrieve: one call per question, k = %d)" % max(self.ks))
        for col in ("system", "prepare s", "s / conversation", "turns / s", "p50 ms", "p95 ms", "mean ms"):
            lat.add_column(col, justify="left" if col == "system" else "right")
        if base:
            lat.add_column(f"p50 / {base}", justify="right")
        base_lat = self.latency(base) if base else None
        for s in self.systems:
            l = self.latency(s)
            rate = l["prepare_turns_per_s"]
            row = [s, f"{l['prepare_s']:.2f}", f"{l['prepare_per_conversation_s']:.2f}",
                   "-" if math.isnan(rate) else f"{rate:.1f}",
                   f"{l['p50_ms']:.2f}", f"{l['p95_ms']:.2f}", f"{l['mean_ms']:.2f}"]
            if base_lat:
                row.append(_ratio(l["p50_ms"], base_lat["p50_ms"], "x"))
            lat.add_row(*row)
        console.print(lat)

        console.print(self.summary_line())
        bad = {s: n for s, n in self.unknown_ids.items() if n}
        if bad:
            console.print("ids that are no turn of the conversation (count as misses): "
                          + ", ".join(f"{s} {n}" for s, n in bad.items()), style="yellow", markup=False)

    def summary_line(self) -> str:
        dropped = self.dropped_counts()
        issues = self.issue_counts()
        unscored = sorted(set(self.CATEGORY_NAMES) - set(self.categories))
        parts = [f"scored {len(self.records)} questions"]
        if self.not_scored:
            parts.append(f"not scored (category {', '.join(str(c) for c in unscored)}) {self.not_scored}")
        parts += [f"dropped {len(self.dropped)}" + (" (" + ", ".join(f"{n} {r}" for r, n in dropped.items()) + ")" if dropped else "")]
        if issues:
            parts.append("evidence ids repaired or dropped: " + ", ".join(f"{n} {k}" for k, n in sorted(issues.items())))
        return "; ".join(parts)

    def plot(self, path: str | Path, k: int | None = None) -> Path:
        """A PNG bar plot of Recall@k (default 10) per category per system. Needs matplotlib."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise ConfigError("the plot needs matplotlib: pip install matplotlib") from None
        k = k or (10 if 10 in self.ks else max(self.ks))
        if k not in self.ks:
            raise InputError(f"k={k} was not measured (ks: {', '.join(map(str, self.ks))})")
        groups = [*self.categories, None]
        labels = [OVERALL if c is None else self.CATEGORY_NAMES.get(c, str(c)) for c in groups]
        width = 0.8 / max(1, len(self.systems))
        fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(groups) + 0.3 * len(self.systems)), 4))
        for i, s in enumerate(self.systems):
            vals = [self.scores(s, c)["recall"][k] for c in groups]
            xs = [g + (i - (len(self.systems) - 1) / 2) * width for g in range(len(groups))]
            ax.bar(xs, vals, width, label=s)
        ax.set_xticks(range(len(groups)), labels, rotation=20, ha="right")  # long ability names
        ax.set_ylim(0, 1)
        ax.set_ylabel(f"Recall@{k}")
        ax.set_title(f"{self.BENCHMARK} evidence Recall@{k} ({len(self.records)} questions)")
        ax.legend(fontsize="small")
        fig.tight_layout()
        path = Path(path)
        fig.savefig(path, dpi=120)
        plt.close(fig)
        return path


def _str_keys(scores: dict[str, Any]) -> dict[str, Any]:
    return {k: ({str(kk): vv for kk, vv in v.items()} if isinstance(v, dict) else v) for k, v in scores.items()}


def _fmt(x: float) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def _ratio(x: float, base: float, unit: str = "") -> str:
    if base is None or x is None or math.isnan(x) or math.isnan(base) or base == 0:
        return "-"
    return f"{x / base:.2f}{unit}"


def run_benchmark(paths: str | Path | Iterable[str | Path], systems: Mapping[str, System],
                  ks: Sequence[int] = DEFAULT_KS, progress: Callable[[Progress], None] | None = None,
                  categories: Sequence[int] = SCORED_CATEGORIES) -> BenchmarkResult:
    """Prepare every system on each conversation of `paths` and ask it every scored question,
    once, for max(ks) turns; time every retrieve call and every prepare. Conversation by
    conversation; within one, system after system (prepare, then all its questions)."""
    if isinstance(paths, (str, Path)):
        paths = [paths]
    conversations: list[Conversation] = []
    for p in paths:
        conversations.extend(load_conversations(p))
    return run_conversations(conversations, systems, ks, progress, categories)


def run_conversations(conversations: Sequence[Conversation], systems: Mapping[str, System],
                      ks: Sequence[int] = DEFAULT_KS, progress: Callable[[Progress], None] | None = None,
                      categories: Sequence[int] = SCORED_CATEGORIES,
                      result: type[BenchmarkResult] = BenchmarkResult) -> BenchmarkResult:
    """`run_benchmark` over conversations already loaded (any benchmark's, as `Conversation`s);
    the figures come back as a `result` (a subclass names another benchmark's categories)."""
    ks = tuple(sorted({int(k) for k in ks}))
    if not ks or ks[0] < 1:
        raise InputError("ks must hold positive integers")
    if not systems:
        raise InputError("no system to benchmark")
    names = list(systems)
    kmax = ks[-1]
    categories = tuple(categories)
    seen: set[str] = set()
    for c in conversations:
        if c.id in seen:
            raise InputError(f"conversation {c.id!r} appears twice", source=str(c.path))
        seen.add(c.id)
    scored = {c.id: [q for q in c.questions.questions if q.category in categories] for c in conversations}
    total = sum(map(len, scored.values())) * len(names)

    for system in systems.values():
        warmup = getattr(system, "warmup", None)
        if callable(warmup):
            warmup()

    infos: list[ConversationInfo] = []
    records: list[QuestionRecord] = []
    unknown: dict[str, int] = {s: 0 for s in names}
    done = 0
    for conv in conversations:
        turn_ids = {t.source_id for t in conv.turns}
        questions = scored[conv.id]
        prep: dict[str, float] = {}
        retrieved: list[dict[str, list[str]]] = [{} for _ in questions]
        seconds: list[dict[str, float]] = [{} for _ in questions]
        # one system at a time over the conversation's questions: interleaving systems per
        # question makes their thread pools (torch, BLAS) contend and inflates the tails
        for name, system in systems.items():
            if progress:
                progress(Progress("prepare", conv.id, name, done, total))
            t0 = time.perf_counter()
            system.prepare(conv.id, conv.turns)
            prep[name] = time.perf_counter() - t0
            for i, q in enumerate(questions):
                t0 = time.perf_counter()
                ids = system.retrieve(conv.id, q.question, kmax)
                seconds[i][name] = time.perf_counter() - t0
                ids = [str(x) for x in list(ids)[:kmax]]
                unknown[name] += sum(x not in turn_ids for x in ids)
                retrieved[i][name] = ids
                done += 1
                if progress:
                    progress(Progress("retrieve", conv.id, name, done, total))
        records.extend(QuestionRecord(q, r, s) for q, r, s in zip(questions, retrieved, seconds))
        infos.append(ConversationInfo(
            conv.id, str(conv.path), len(conv.turns), len(scored[conv.id]),
            len(conv.questions.questions) - len(scored[conv.id]), len(conv.questions.dropped), prep))
    if progress:
        progress(Progress("done", "", None, done, total))
    return result(
        ks=ks, systems=names, categories=categories, conversations=infos, records=records,
        dropped=[d for c in conversations for d in c.questions.dropped],
        issues=[i for c in conversations for i in c.questions.issues],
        unknown_ids=unknown)


# --------------------------------------------------------------------------- the recall ranker

def locomo_user(conversation_id: str) -> str:
    """The user a LoCoMo conversation is ingested under by `graphmem bench locomo`."""
    return f"locomo-{conversation_id}"


def candidate_sources(mem, user: str, uids: Sequence[str]) -> list[str]:
    """The source id (LoCoMo's dia_id) of each candidate memory, "" for one that has none."""
    rows = mem.run("recall_memories", user_id=user, uids=list(uids))
    source = {r["uid"]: r["source_id"] for r in rows}
    return [source.get(uid) or "" for uid in uids]


def asked_at(turns: Sequence["Turn"]) -> datetime | None:
    """When a benchmark asks a conversation's questions: at its end, the date of its last session,
    from which its questions say "last year" or "in June" (`Memory.recall(asked_at=)`)."""
    dates = [t.session_date for t in turns if t.session_date is not None]
    return max(dates) if dates else None


def evidence_misses(mem, paths: Sequence[str | Path], category: int = 1, k: int = 10) -> dict[str, int]:
    """Questions of `category` counted by where graphmem's recall left their evidence: all in the
    top k, some not among the ranker's candidates, or all among them but not all in the top k.
    The conversations must be ingested already, as `graphmem bench locomo --home` leaves them."""
    counts = {"questions": 0, "all in the top k": 0, "some not a candidate": 0, "all candidates, some below k": 0}
    for path in paths:
        for conversation in load_conversations(path):
            user, when = locomo_user(conversation.id), asked_at(conversation.turns)
            for q in conversation.questions.questions:
                if q.category != category:
                    continue
                got = mem.recall(q.question, user=user, k=k, keep_candidates=True, asked_at=when)
                pool, evidence = set(candidate_sources(mem, user, got.candidates.uids)), set(q.evidence)
                counts["questions"] += 1
                if evidence <= set(got.source_ids[:k]):
                    counts["all in the top k"] += 1
                elif evidence <= pool:
                    counts["all candidates, some below k"] += 1
                else:
                    counts["some not a candidate"] += 1
    return counts


@dataclass
class CollectedQuestion:
    """What graphmem's recall ranked for one question (its ranker's input), kept to fit a ranker."""
    conversation: str
    user: str
    candidates: "Candidates"


def ranker_examples(mem, collected: Sequence[CollectedQuestion], records: Sequence[QuestionRecord]
                    ) -> tuple[list["Example"], list[list[str]]]:
    """Each collected question's candidates labelled with its evidence (questions in the order
    they were asked, as the records are), and each candidate's source id."""
    from graphmem.recall.ranker import Example

    if len(collected) != len(records):
        raise ValueError(f"{len(collected)} collected questions for {len(records)} records")
    examples, sources = [], []
    for c, record in zip(collected, records):
        if c.conversation != record.question.conversation:
            raise ValueError(f"question order differs: {c.conversation} against {record.question.conversation}")
        ids = candidate_sources(mem, c.user, c.candidates.uids)
        examples.append(Example(c.conversation, c.candidates, np.array([i in record.question.evidence for i in ids])))
        sources.append(ids)
    return examples, sources


def held_out_ranker_rankings(examples: Sequence["Example"], sources: Sequence[Sequence[str]]) -> list[list[str]]:
    """Each question's candidates (as source ids) ordered by a ranker fit without its conversation."""
    from graphmem.recall.ranker import held_out_rankings

    out = []
    for example, ids, ranked in zip(examples, sources, held_out_rankings(examples)):
        where = dict(zip(example.candidates.uids, ids))
        out.append([where[uid] for uid in ranked])
    return out
