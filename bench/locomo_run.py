"""graphmem on LoCoMo: graphmem as a benchmark `System` (each conversation ingested under its own
user), its ablations, and `run`, the whole of `graphmem bench locomo` and `python -m bench locomo`:
ingest, ask, score next to the same-run baselines, and optionally fit the recall ranker."""

from __future__ import annotations

import importlib
import json
import tempfile
from datetime import date, datetime
from pathlib import Path
from typing import Iterable, Sequence

from rich.console import Console
from rich.progress import Progress as ProgressBar

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer
from graphmem.errors import ConfigError, InputError
from graphmem.recall import CHANNELS

from .locomo import (DEFAULT_KS, BenchmarkResult, CollectedQuestion, asked_at, baselines, held_out_ranker_rankings,
                     load_conversations, locomo_user, ranker_examples, run_benchmark)

HELD_OUT = "graphmem, ranker fit without the conversation"
# import name -> what pip installs; all of them are in graphmem's [bench] extra
PACKAGES = {"rank_bm25": "rank-bm25", "sklearn": "scikit-learn", "matplotlib": "matplotlib"}


class GraphmemSystem:
    """graphmem as a benchmark system: each conversation ingested under its own user."""

    def __init__(self, mem: Memory, channels: Sequence[str] = CHANNELS, neighbours: bool = True,
                 rank: bool = True, collect: bool = False):
        self.mem, self.channels, self.neighbours, self.rank = mem, tuple(channels), neighbours, rank
        self.collect = collect
        self.collected: list[CollectedQuestion] = []  # one per question asked, when collecting
        self.asked_at: dict[str, datetime | None] = {}  # conversation -> when its questions are asked

    def warmup(self) -> None:
        self.mem.models.embedder(), self.mem.models.nlp()

    def prepare(self, conversation_id: str, turns) -> None:
        self.mem.ingest(list(turns), user=locomo_user(conversation_id))
        self.asked_at[conversation_id] = asked_at(turns)

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]:
        user = locomo_user(conversation_id)
        result = self.mem.recall(question, user=user, k=k, channels=self.channels, neighbours=self.neighbours,
                                 rank=self.rank, keep_candidates=self.collect,
                                 asked_at=self.asked_at.get(conversation_id))
        if self.collect:
            self.collected.append(CollectedQuestion(conversation_id, user, result.candidates))
        return result.source_ids


def locomo_systems(mem: Memory, ablations: bool, collect: bool = False) -> dict:
    """graphmem (and, with `ablations`, graphmem without each part of recall), then the baselines."""
    systems = {"graphmem": GraphmemSystem(mem, collect=collect)}
    if ablations:
        for channel in CHANNELS:
            systems[f"graphmem -{channel}"] = GraphmemSystem(mem, [c for c in CHANNELS if c != channel])
        systems["graphmem -neighbours"] = GraphmemSystem(mem, neighbours=False)
        systems["graphmem -ranker"] = GraphmemSystem(mem, rank=False)
    systems.update(baselines())
    return systems


def parse_ks(text: str) -> tuple[int, ...]:
    """'5,10,20' -> (5, 10, 20)."""
    try:
        ks = tuple(int(k) for k in text.split(",") if k.strip())
    except ValueError:
        raise InputError(f"--k takes comma-separated positive integers, not {text!r}") from None
    if not ks or min(ks) < 1:
        raise InputError(f"--k takes comma-separated positive integers, not {text!r}")
    return ks


def check_dependencies(*, plot: bool = False, fit: bool = False, benchmark: str = "LoCoMo") -> None:
    """Fail before any work when a package the run will need is missing (BM25 always; scikit-learn
    to fit a ranker; matplotlib to plot)."""
    wanted = ["rank_bm25"] + (["sklearn"] if fit else []) + (["matplotlib"] if plot else [])
    missing = []
    for name in wanted:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(PACKAGES[name])
    if missing:
        raise ConfigError(f"the {benchmark} benchmark needs {', '.join(missing)}: "
                          f"pip install -e '.[bench]' in the graphmem checkout")


def run(paths: Iterable[str | Path], *, ks: str | Sequence[int] = DEFAULT_KS, ablations: bool = False,
        cross_validate: bool = False, fit_out: str | Path | None = None, home: str | Path | None = None,
        uri: str | None = None, auth: tuple[str, str] | None = None, json_out: str | Path | None = None,
        plot_out: str | Path | None = None, console: Console | None = None) -> BenchmarkResult:
    """Recall@k and All@k of graphmem (and its ablations) and the baselines on LoCoMo files, shown
    on `console` and written to `json_out` / `plot_out`. Without `home` (and on the embedded
    database) the conversations go to a temporary database whose server is stopped at the end,
    whatever happens; `cross_validate` adds graphmem ranked by a ranker fit on the other
    conversations; `fit_out` fits the ranker on all of them and writes it there."""
    console = console or Console()
    cutoffs = parse_ks(ks) if isinstance(ks, str) else tuple(ks)
    fitting = cross_validate or fit_out is not None
    check_dependencies(plot=plot_out is not None, fit=fitting)
    paths = [str(p) for p in paths]
    if cross_validate and sum(len(load_conversations(p)) for p in paths) < 2:
        raise InputError("--cross-validate holds each conversation out in turn: give at least two")
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as tmp:
        settings = Settings.from_env(uri=uri, home=Path(home or tmp))
        try:
            with Memory(settings=settings, auth=auth) as mem, ProgressBar(console=console, transient=True) as bar:
                task = bar.add_task("questions", total=None)
                systems = locomo_systems(mem, ablations, collect=fitting)
                result = run_benchmark(paths, systems, ks=cutoffs,
                                       progress=lambda p: bar.update(task, completed=p.done, total=p.total,
                                                                     description=str(p)))
                if fitting:
                    ranker_runs(mem, systems["graphmem"].collected, result, cross_validate, fit_out, console)
        finally:
            if home is None and settings.uri in (None, "", "embedded"):
                EmbeddedServer(settings.home).stop()  # the temporary database goes with it
    return report(result, console, json_out, plot_out)


def report(result: BenchmarkResult, console: Console, json_out: str | Path | None,
           plot_out: str | Path | None) -> BenchmarkResult:
    """A run's result shown on `console`, written to `json_out` and plotted to `plot_out`."""
    result.render(console)
    if json_out:
        Path(json_out).write_text(json.dumps(result.to_dict(), indent=2))
        console.print(f"figures written to {json_out}")
    if plot_out:
        console.print(f"plot written to {result.plot(plot_out)}")
    return result


def ranker_runs(mem: Memory, collected: list[CollectedQuestion], result: BenchmarkResult, cross_validate: bool,
                fit_out: str | Path | None, console: Console) -> None:
    """The rankings a ranker fit on the other conversations gives (a row of the result), and a
    ranker fit on all of them (written to `fit_out`)."""
    from graphmem.recall.ranker import fit

    examples, sources = ranker_examples(mem, collected, result.records)
    held_out = None
    if cross_validate:
        result.add_system(HELD_OUT, held_out_ranker_rankings(examples, sources),
                          [r.seconds["graphmem"] for r in result.records])
        k = 10 if 10 in result.ks else max(result.ks)
        held_out = {f"recall@{k}": _rounded(result.scores(HELD_OUT)["recall"][k]),
                    f"multi-hop all@{k}": _rounded(result.scores(HELD_OUT, 1)["all"][k])}
    if fit_out:
        conversations = [c.id for c in result.conversations]
        about = {"fit_on": f"LoCoMo conversations {', '.join(conversations)} ({len(examples)} questions)",
                 "method": "logistic regression of 'is evidence' on each question's candidates (scikit-learn, C=1)",
                 "date": date.today().isoformat(), "held_out": held_out}
        try:
            ranker = fit(examples, about)
        except ValueError as exc:  # e.g. no candidate was evidence: nothing to learn from
            raise InputError(f"cannot fit a ranker: {exc}") from None
        Path(fit_out).write_text(json.dumps(ranker.to_dict(), indent=2) + "\n")
        console.print(f"ranker fit on {len(examples)} questions written to {fit_out}")


def _rounded(x: float) -> float | None:
    return None if x != x else round(x, 3)  # NaN (no such question) is no JSON number
