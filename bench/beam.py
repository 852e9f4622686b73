"""BEAM retrieval benchmark: Recall@k and All@k of the evidence messages, per ability and
overall, for graphmem (through its public API) next to BM25 and dense MiniLM over the same
messages, measured in the same run; and, for knowledge_update and contradiction_resolution
questions, how often the newer of the two statements ranks above the older one.

    graphmem bench beam PATH... [--k 5,10,20] [--limit N] [--asker NAME] [--json OUT] [--plot PNG] [--home DIR]
    python -m bench beam PATH... (the same options)

PATH is a conversation folder (`chat.json`, `probing_questions.json`) or a folder of them (a
split: `../shared/data/beam/100K`). Data: BEAM (Tavakoli et al. 2025, arXiv:2510.27246):
evaluation only, with attribution, never copied into the repository (its SOURCE.md gives the
layout). The harness is LoCoMo's (`bench.locomo`: metrics, baselines, the runner, the tables);
this module reads BEAM into it and adds the newer-above-older figure.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as ProgressBar

from graphmem import Memory, Settings, Turn
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import InputError

from .locomo import (DEFAULT_KS, OVERALL, BenchmarkResult, Conversation, DroppedQuestion, EvidenceIssue, Progress,
                     Question, QuestionSet, _fmt, asked_at, baselines, run_conversations)
from .locomo_run import check_dependencies, parse_ks, report

ABILITIES: tuple[str, ...] = (
    "abstention", "contradiction_resolution", "event_ordering", "information_extraction", "instruction_following",
    "knowledge_update", "multi_session_reasoning", "preference_following", "summarization", "temporal_reasoning")
ABILITY_IDS: dict[str, int] = {name: i for i, name in enumerate(ABILITIES, start=1)}
# abilities whose evidence is two statements, one newer than the other: (older key, newer key)
# as annotated; which is newer is decided by message order (a contradiction's second_statement
# is sometimes the earlier message)
PAIRED: dict[str, tuple[str, str]] = {"knowledge_update": ("original_info", "updated_info"),
                                      "contradiction_resolution": ("first_statement", "second_statement")}
NEWER_DEPTH = 20  # both statements must be in this many first results to be compared
MARKER = re.compile(r"\s*->->.*\Z", re.DOTALL)  # the index marker most user messages end with


# --------------------------------------------------------------------------- data

def read_chat(folder: str | Path) -> list[Turn]:
    """A BEAM chat as turns, the `->->` marker stripped: one session per batch, dated by the time
    anchor on its first message; `source_id` and `message_id` are the message's id."""
    turns = []
    for batch in _json(Path(folder) / "chat.json"):
        messages = [m for turn in batch["turns"] for m in turn]
        anchor = next((m.get("time_anchor") for m in messages if m.get("time_anchor")), None)
        date = datetime.strptime(anchor, "%B-%d-%Y").replace(tzinfo=timezone.utc) if anchor else None
        for m in messages:
            text = MARKER.sub("", m["content"] or "").strip()
            if text:
                turns.append(Turn(source_id=str(m["id"]), speaker=m["role"], text=text,
                                  session=str(batch["batch_number"]), session_date=date, line=m["id"] + 1,
                                  index=len(turns), message_id=str(m["id"])))
    return turns


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", source=str(path)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON: {exc.msg}", source=str(path), line=exc.lineno) from None


def conversation_folders(paths: Iterable[str | Path]) -> list[Path]:
    """The conversation folders among `paths`: each a folder with `chat.json`, or a folder of
    them (in numeric order where the names are numbers)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if (p / "chat.json").is_file():
            out.append(p)
            continue
        inner = [d for d in p.iterdir() if (d / "chat.json").is_file()] if p.is_dir() else []
        if not inner:
            raise InputError("not a BEAM conversation (no chat.json) nor a folder of them", source=str(p))
        out.extend(sorted(inner, key=lambda d: (not d.name.isdigit(), int(d.name) if d.name.isdigit() else 0, d.name)))
    return out


def conversation_id(folder: Path) -> str:
    """`100K-1` for `.../100K/1`: the split and the number, so that splits never collide."""
    return f"{folder.parent.name}-{folder.name}" if folder.parent.name else folder.name


def beam_user(conversation: str) -> str:
    """The user a BEAM conversation is ingested under by `graphmem bench beam`."""
    return f"beam-{conversation}"


@dataclass(frozen=True)
class BeamQuestion(Question):
    """A probing question; `category` is its ability's number (ABILITY_IDS). For paired
    abilities, the evidence message ids of the older and of the newer statement."""
    ability: str = ""
    older: tuple[str, ...] = ()
    newer: tuple[str, ...] = ()


def _flatten(raw: Any) -> Iterator[Any]:
    if isinstance(raw, Mapping):
        for value in raw.values():
            yield from _flatten(value)
    elif isinstance(raw, (list, tuple)):
        for value in raw:
            yield from _flatten(value)
    elif raw is not None:
        yield raw


def _evidence(raw: Any, valid: set[str], cid: str, index: int) -> tuple[tuple[str, ...], list[EvidenceIssue]]:
    kept: list[str] = []
    issues = []
    for value in _flatten(raw):
        mid = str(value).strip()
        if mid not in valid:
            issues.append(EvidenceIssue(cid, index, str(value), "unknown", ()))
        elif mid in kept:
            issues.append(EvidenceIssue(cid, index, mid, "duplicate", (mid,)))
        else:
            kept.append(mid)
    return tuple(kept), issues


def _older_newer(ability: str, raw: Any, valid: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The older and the newer statement's message ids, by message order (ids count up through
    the conversation); () () when the question has no such pair."""
    if ability not in PAIRED or not isinstance(raw, Mapping):
        return (), ()
    sides = [tuple(dict.fromkeys(str(x) for x in _flatten(raw.get(key)) if str(x) in valid)) for key in PAIRED[ability]]
    if not all(sides) or max(map(int, sides[0])) == max(map(int, sides[1])):
        return (), ()
    older, newer = sorted(sides, key=lambda side: max(map(int, side)))
    return older, newer


def load_conversation(folder: str | Path) -> Conversation:
    """One BEAM conversation: its messages as turns, its probing questions with their evidence
    (abstention questions, which have none, are dropped as "no evidence annotated")."""
    folder = Path(folder)
    cid = conversation_id(folder)
    turns = read_chat(folder)
    valid = {t.source_id for t in turns}
    probing = _json(folder / "probing_questions.json")
    if not isinstance(probing, Mapping):
        raise InputError("not BEAM probing questions (an object of abilities)", source=str(folder / "probing_questions.json"))
    qs = QuestionSet(cid, [])
    for ability, questions in probing.items():
        if ability not in ABILITY_IDS:
            raise InputError(f"unknown ability {ability!r} (known: {', '.join(ABILITIES)})",
                             source=str(folder / "probing_questions.json"))
        for i, q in enumerate(questions):
            raw = q.get("source_chat_ids")
            text = str(q.get("question", ""))
            evidence, issues = _evidence(raw, valid, cid, i)
            qs.issues.extend(issues)
            if not evidence:
                reason = "no evidence annotated" if not list(_flatten(raw)) else "no valid evidence left"
                qs.dropped.append(DroppedQuestion(cid, i, ABILITY_IDS[ability], text,
                                                  tuple(map(str, _flatten(raw))), reason))
                continue
            answer = q.get("answer", q.get("ideal_answer", q.get("ideal_response")))
            older, newer = _older_newer(ability, raw, valid)
            qs.questions.append(BeamQuestion(text, None if answer is None else str(answer), ABILITY_IDS[ability],
                                             evidence, cid, i, ability=ability, older=older, newer=newer))
    return Conversation(cid, folder, turns, qs)


def load_conversations(paths: Iterable[str | Path], limit: int | None = None) -> list[Conversation]:
    """The conversations under `paths` (the first `limit` of them)."""
    folders = conversation_folders(paths)
    return [load_conversation(f) for f in folders[:limit]]


def scored_abilities(conversations: Iterable[Conversation]) -> tuple[int, ...]:
    """The abilities (their numbers) that have questions with evidence: never abstention."""
    present = {q.category for c in conversations for q in c.questions.questions}
    return tuple(i for i in ABILITY_IDS.values() if i in present)


# --------------------------------------------------------------------------- graphmem

def message_ids(source_ids: Iterable[str | None]) -> list[str]:
    """Recall's source ids as message ids, best first, each once: the pieces of a message too
    long for one memory (`ID#2`, ...) count as the message."""
    return list(dict.fromkeys(s.split("#", 1)[0] for s in source_ids if s))


class GraphmemSystem:
    """graphmem through its public API: each conversation ingested (`mem.ingest`) under its own
    user, each question asked with `mem.recall` (`asker`: None, the public default)."""

    def __init__(self, mem: Memory, asker: str | None = None,
                 on_ingest: Callable[[str, int], None] | None = None):
        self.mem, self.asker, self.on_ingest = mem, asker, on_ingest
        self.asked_at: dict[str, datetime | None] = {}  # conversation -> when its questions are asked

    def warmup(self) -> None:
        self.mem.models.embedder(), self.mem.models.nlp()

    def prepare(self, conversation_id: str, turns: Sequence[Turn]) -> None:
        self.mem.ingest(list(turns), user=beam_user(conversation_id), conversation=conversation_id,
                        progress=self.on_ingest)
        self.asked_at[conversation_id] = asked_at(turns)

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]:
        got = self.mem.recall(question, user=beam_user(conversation_id), k=k, asker=self.asker,
                              asked_at=self.asked_at.get(conversation_id))
        return message_ids(got.source_ids)[:k]


# --------------------------------------------------------------------------- figures

def newer_above_older(retrieved: Sequence[str], older: Sequence[str], newer: Sequence[str],
                      depth: int = NEWER_DEPTH) -> bool | None:
    """Whether the newer statement ranks above the older one (the best-ranked message of each
    side), None unless both are among the first `depth` retrieved."""
    top = list(retrieved[:depth])
    ranks = [min((top.index(m) for m in side if m in top), default=None) for side in (older, newer)]
    if ranks[0] is None or ranks[1] is None:
        return None
    return ranks[1] < ranks[0]


class BeamResult(BenchmarkResult):
    """LoCoMo's result with BEAM's abilities for categories, and the newer-above-older figure."""
    BENCHMARK = "BEAM"
    CATEGORY_NAMES = {i: name for name, i in ABILITY_IDS.items()}
    asker: str | None = None

    @property
    def depth(self) -> int:
        return min(NEWER_DEPTH, max(self.ks))

    def newer_first(self, system: str, ability: str | None = None) -> dict[str, Any]:
        """Over the paired questions (of `ability`; None: both paired abilities): how many have
        both statements annotated, both among the first `depth` results, the newer first."""
        rows = [r for r in self.records if isinstance(r.question, BeamQuestion) and r.question.older
                and (ability is None or r.question.ability == ability)]
        verdicts = [newer_above_older(r.retrieved[system], r.question.older, r.question.newer, self.depth)
                    for r in rows]
        both = [v for v in verdicts if v is not None]
        return {"questions": len(rows), "both_in_top": len(both), "newer_first": sum(both),
                "share": sum(both) / len(both) if both else math.nan, "depth": self.depth}

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        data = super().to_dict(details)
        data["asker"] = self.asker
        data["newer_above_older"] = {
            s: {(a or OVERALL): _no_nan(self.newer_first(s, a)) for a in (*PAIRED, None)} for s in self.systems}
        if details:
            for row, record in zip(data["records"], self.records):
                row["ability"] = getattr(record.question, "ability", "")
        return data

    def render(self, console: Console, baseline: str = "Dense") -> None:
        super().render(console, baseline)
        from rich.table import Table

        table = Table(title=f"newer statement above the older (questions with both in the top {self.depth})")
        for col in ("ability", "system", "questions", f"both in top {self.depth}", "newer first", "share"):
            table.add_column(col, justify="left" if col in ("ability", "system") else "right")
        for a in (*PAIRED, None):
            for j, s in enumerate(self.systems):
                f = self.newer_first(s, a)
                table.add_row((a or OVERALL) if j == 0 else "", s, str(f["questions"]), str(f["both_in_top"]),
                              str(f["newer_first"]), _fmt(f["share"]), end_section=j == len(self.systems) - 1)
        console.print(table)
        if self.asker:
            console.print(f"graphmem asked with asker={self.asker!r}")


def _no_nan(figures: dict[str, Any]) -> dict[str, Any]:
    return {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in figures.items()}


# --------------------------------------------------------------------------- the run

def run(paths: Iterable[str | Path], *, ks: str | Sequence[int] = DEFAULT_KS, limit: int | None = None,
        asker: str | None = None, home: str | Path | None = None, uri: str | None = None,
        auth: tuple[str, str] | None = None, json_out: str | Path | None = None,
        plot_out: str | Path | None = None, console: Console | None = None) -> BeamResult:
    """Recall@k and All@k of graphmem, BM25 and dense on BEAM conversations (the first `limit`),
    per ability, and newer-above-older; shown on `console`, written to `json_out` / `plot_out`.
    Without `home` (on the embedded database) the conversations go to a temporary database whose
    server is stopped at the end, whatever happens; with it they stay there, and a later run on
    the same home finds them ingested (ingest again changes nothing) and only asks."""
    console = console or Console()
    cutoffs = parse_ks(ks) if isinstance(ks, str) else tuple(ks)
    if limit is not None and limit < 1:
        raise InputError(f"--limit takes a positive number of conversations, not {limit}")
    check_dependencies(plot=plot_out is not None, benchmark="BEAM")
    conversations = load_conversations(paths, limit)
    with tempfile.TemporaryDirectory(prefix="graphmem-beam-") as tmp:
        settings = Settings.from_env(uri=uri, home=Path(home or tmp))
        try:
            with Memory(settings=settings, auth=auth) as mem, ProgressBar(
                    TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TimeRemainingColumn(), console=console, transient=True) as bar:
                messages = bar.add_task("graphmem ingest (messages)", total=sum(len(c.turns) for c in conversations))
                asks = bar.add_task("retrieve calls", total=None)
                graphmem = GraphmemSystem(mem, asker, on_ingest=lambda _, n: bar.advance(messages, n))
                systems = {"graphmem": graphmem, **baselines(lemma=False)}
                started = time.monotonic()

                def progress(p: Progress) -> None:
                    bar.update(asks, completed=p.done, total=p.total, description=str(p))
                    if p.stage == "prepare" and not console.is_terminal:  # a log: no bar to watch
                        console.print(f"{time.monotonic() - started:7.0f} s  {p}", markup=False)

                result = run_conversations(conversations, systems, ks=cutoffs, result=BeamResult,
                                           categories=scored_abilities(conversations), progress=progress)
        finally:
            if home is None and settings.uri in (None, "", "embedded"):
                EmbeddedServer(settings.home).stop()  # the temporary database goes with it
    assert isinstance(result, BeamResult)
    result.asker = asker
    report(result, console, json_out, plot_out)
    return result
