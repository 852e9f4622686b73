"""Fit the recall ranker on LoCoMo and BEAM, and measure it on conversations it did not see.

    python -m bench fit --locomo FILE... --beam PATH... [--home DIR] [--out ranker.json] [--json OUT]

Every conversation of both sets is ingested (into DIR when given: a later run finds it there and
only asks), every scored question asked with `mem.recall(..., keep_candidates=True)` (BEAM's as
`bench beam` asks them), and its candidates labelled with its evidence. Then, leaving out one
conversation at a time, rankers fit on the other conversations order the left-out conversation's
candidates: one fit on every other conversation of both sets, and one fit on those of its own
kind (`graphmem.recall.ranker.conversation_kind`: LoCoMo's are among people, BEAM's between a
user and an agent), as recall ranks them. Recall@k and All@k of those held-out orders, per set and
per category, are printed next to the packaged rankers' on the same candidates (in sample for the
conversations they were fit on). `--out` writes a ranker per kind fit on all of them
(`GRAPHMEM_RECALL_RANKER=OUT`). A ranker kept must not lose on either set."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np
from rich.console import Console
from rich.table import Table

from graphmem import Memory, Settings
from graphmem.recall.ranker import Example, Ranker, fit, held_out_rankings, load_ranker

from . import beam, locomo
from .locomo_run import check_dependencies

KS = (5, 10, 20)


@dataclass
class Asked:
    """One question's candidates, labelled, with what scores them."""
    dataset: str  # "LoCoMo" or "BEAM"
    category: str
    example: Example
    ids: list[str]  # each candidate's evidence id (a LoCoMo dia_id, a BEAM message id), "" for none
    evidence: frozenset[str]


def collect(mem: Memory, locomo_paths: Sequence[str | Path], beam_paths: Sequence[str | Path],
            console: Console) -> list[Asked]:
    out: list[Asked] = []
    for path in locomo_paths:
        for conv in locomo.load_conversations(path):
            user = locomo.locomo_user(conv.id)
            mem.ingest(list(conv.turns), user=user)
            questions = [q for q in conv.questions.questions if q.category in locomo.SCORED_CATEGORIES]
            when = locomo.asked_at(conv.turns)
            out += [_ask(mem, user, "LoCoMo", f"locomo-{conv.id}", q.category_name, q.question, q.evidence,
                         lambda ids: ids, when) for q in questions]
            console.print(f"LoCoMo {conv.id}: {len(questions)} questions")
    for conv in beam.load_conversations(beam_paths):
        user = beam.beam_user(conv.id)
        mem.ingest(list(conv.turns), user=user, conversation=conv.id)
        questions = list(conv.questions.questions)
        when = locomo.asked_at(conv.turns)
        out += [_ask(mem, user, "BEAM", f"beam-{conv.id}", beam.ABILITIES[q.category - 1], q.question, q.evidence,
                     lambda ids: [i.split("#", 1)[0] for i in ids], when) for q in questions]
        console.print(f"BEAM {conv.id}: {len(questions)} questions")
    return out


def _ask(mem: Memory, user: str, dataset: str, group: str, category: str, question: str,
         evidence: Iterable[str], as_evidence, asked_at: datetime | None) -> Asked:
    got = mem.recall(question, user=user, k=max(KS), keep_candidates=True, asked_at=asked_at)
    assert got.candidates is not None
    ids = as_evidence(locomo.candidate_sources(mem, user, got.candidates.uids))
    wanted = frozenset(evidence)
    return Asked(dataset, category, Example(group, got.candidates, np.array([i in wanted for i in ids])), ids, wanted)


def scores(asked: Asked, order: Sequence[str]) -> dict[str, float]:
    """Recall@k and All@k of one question's candidates in `order` (uids), each evidence id once."""
    where = dict(zip(asked.example.candidates.uids, asked.ids))
    ranked = list(dict.fromkeys(where[uid] for uid in order if where[uid]))
    out = {}
    for k in KS:
        top = set(ranked[:k])
        out[f"R@{k}"] = len(top & asked.evidence) / len(asked.evidence)
        out[f"All@{k}"] = float(asked.evidence <= top)
    return out


def _order(example: Example, ranker: Ranker | None) -> list[str]:
    assert ranker is not None
    return [example.candidates.uids[j] for j in np.argsort(-ranker.scores(example.candidates), kind="stable")]


def table(rows: list[Asked], orders: dict[str, list[list[str]]], console: Console) -> dict:
    """Per dataset and category, each ranking's mean Recall@10 and All@10."""
    figures: dict = {}
    for dataset in dict.fromkeys(a.dataset for a in rows):
        t = Table(title=f"{dataset}: R@10 / All@10")
        t.add_column("category")
        t.add_column("n", justify="right")
        for name in orders:
            t.add_column(name, justify="right")
        cats = sorted({a.category for a in rows if a.dataset == dataset}) + ["overall"]
        for cat in cats:
            chosen = [i for i, a in enumerate(rows) if a.dataset == dataset and cat in ("overall", a.category)]
            cells = []
            for name, order in orders.items():
                s = [scores(rows[i], order[i]) for i in chosen]
                mean = {m: float(np.mean([x[m] for x in s])) for m in s[0]}
                figures.setdefault(dataset, {}).setdefault(cat, {})[name] = {m: round(v, 3) for m, v in mean.items()}
                cells.append(f"{mean['R@10']:.3f} / {mean['All@10']:.3f}")
            t.add_row(cat, str(len(chosen)), *cells)
        console.print(t)
    return figures


def run(locomo_paths: Sequence[str | Path], beam_paths: Sequence[str | Path], *, home: str | Path | None = None,
        out: str | Path | None = None, json_out: str | Path | None = None, console: Console | None = None) -> dict:
    console = console or Console()
    check_dependencies(fit=True, benchmark="the ranker fit")
    with tempfile.TemporaryDirectory(prefix="graphmem-fit-") as tmp:
        with Memory(settings=Settings.from_env(home=Path(home or tmp))) as mem:
            rows = collect(mem, locomo_paths, beam_paths, console)
    examples = [a.example for a in rows]
    packaged = [load_ranker("default", e.candidates.kind) for e in examples]
    orders = {
        "packaged rankers": [_order(e, r) for e, r in zip(examples, packaged)],
        "fit on both sets, without the conversation": held_out_rankings(examples),
        "fit on its kind, without the conversation": held_out_rankings(examples, by_kind=True),
    }
    figures = table(rows, orders, console)
    if out:
        rankers = {}
        for kind in sorted({e.candidates.kind for e in examples}):
            mine = [i for i, e in enumerate(examples) if e.candidates.kind == kind]
            sets = sorted({rows[i].dataset for i in mine})
            about = {"fit_on": f"{len(mine)} questions of {len({examples[i].group for i in mine})} conversations "
                               f"({', '.join(sets)})",
                     "method": "logistic regression of 'is evidence' on each question's candidates (scikit-learn, C=1)",
                     "date": date.today().isoformat(),
                     "held_out": {d: figures[d]["overall"]["fit on its kind, without the conversation"] for d in sets}}
            rankers[kind] = fit([examples[i] for i in mine], about).to_dict()
        Path(out).write_text(json.dumps(rankers, indent=2) + "\n")
        console.print(f"rankers for {', '.join(rankers)} conversations, fit on {len(examples)} questions, written to {out}")
    if json_out:
        Path(json_out).write_text(json.dumps(figures, indent=2))
    return figures
