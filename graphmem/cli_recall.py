"""`graphmem recall`, `graphmem gaps` and `graphmem bench locomo`: each one library call."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Sequence

import click
from rich.table import Table

from . import Memory, Settings
from .cli import console, emit, friendly_errors, json_option, open_memory, uri_option, user_option
from .recall import CHANNELS


asker_option = click.option("--as", "asker", metavar="SPEAKER", default=None,
                            help="Who asks: the speaker the question's I and my mean.")


@click.command()
@click.argument("query")
@click.option("--k", "-k", default=10, show_default=True, help="How many memories.")
@click.option("--budget", type=int, default=None, help="Trim to fit this many tokens of context.")
@asker_option
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def recall(ctx, query, k, budget, asker, user, uri, as_json):
    """The memories worth putting in context for QUERY, ranked, with the channels that found each.

    \b
    Example:  graphmem recall "When did Caroline go to the support group?" --user demo
    """
    mem = open_memory(ctx, uri)
    mem.embedder(), mem.nlp()  # loaded first, so the time printed is the recall's own
    result = mem.recall(query, user=user, k=k, token_budget=budget, asker=asker)

    def render(d: dict) -> None:
        a = d["analysis"]
        console.print(f"{a['type']} question; entities: "
                      f"{', '.join(e['name'] for e in a['entities']) or 'none matched'}"
                      + (f"; time: {a['time_text']}" if a["time_text"] else "")
                      + (f"; asks for {', '.join(a['answer_kinds'])} entities" if a["answer_kinds"] else ""),
                      markup=False)
        if a["topic"] != d["query"]:
            console.print(f"topic: {a['topic']}", markup=False)
        table = Table()
        for column in ("#", "source", "speaker", "date", "memory", "channels (rank)"):
            table.add_column(column)
        for i, m in enumerate(d["memories"], start=1):
            found = " ".join(f"{c}:{r}" for c, r in m["channels"].items())
            why = " ".join(f"{reason}+{lift:.1f}" for reason, lift in m["why"].items())
            table.add_row(str(i), m["source_id"] or "", m["speaker"] or "", (m["session_date"] or "")[:10],
                          m["text"], found + (f"\n[dim]up by {why}[/]" if why else ""))
        console.print(table)
        _render_gaps(d["gaps"])
        console.print(f"[dim]recall took {d['timings_ms']['total']:.0f} ms[/]")

    emit(result.to_dict(), as_json, render)


@click.command()
@click.argument("query")
@asker_option
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def gaps(ctx, query, asker, user, uri, as_json):
    """Knowledge gaps around QUERY: entities it names that were never seen together, and faces
    implied by what was seen but never observed themselves.

    \b
    Example:  graphmem gaps "Did Caroline and Melanie ever go to Paris?" --user demo
    """
    result = open_memory(ctx, uri).recall(query, user=user, k=0, asker=asker)
    emit({"entities": [e.name for e in result.analysis.entities], "gaps": result.gaps}, as_json,
         lambda d: (console.print(f"entities: {', '.join(d['entities']) or 'none matched'}"), _render_gaps(d["gaps"])))


def _render_gaps(found: list[dict]) -> None:
    if not found:
        console.print("no gaps among the matched entities")
        return
    table = Table(title=f"{len(found)} gaps")
    table.add_column("entities")
    table.add_column("gap")
    for g in found:
        table.add_row(", ".join(g["vertices"]), g["gap"])
    console.print(table)


# -- the LoCoMo benchmark -------------------------------------------------------------


class GraphmemSystem:
    """graphmem as a benchmark system: each conversation ingested under its own user."""

    def __init__(self, mem: Memory, channels: Sequence[str] = CHANNELS, neighbours: bool = True,
                 rank: bool = True, collect: bool = False):
        self.mem, self.channels, self.neighbours, self.rank = mem, tuple(channels), neighbours, rank
        self.collect = collect
        self.collected: list = []  # CollectedQuestion per question asked, when collecting

    def warmup(self) -> None:
        self.mem.embedder(), self.mem.nlp()

    def prepare(self, conversation_id: str, turns) -> None:
        from .evaluation.locomo import locomo_user

        self.mem.ingest(list(turns), user=locomo_user(conversation_id))

    def retrieve(self, conversation_id: str, question: str, k: int) -> list[str]:
        from .evaluation.locomo import CollectedQuestion, locomo_user

        user = locomo_user(conversation_id)
        result = self.mem.recall(question, user=user, k=k, channels=self.channels, neighbours=self.neighbours,
                                 rank=self.rank, keep_candidates=self.collect)
        if self.collect:
            self.collected.append(CollectedQuestion(conversation_id, user, result.candidates))
        return result.source_ids


def locomo_systems(mem: Memory, ablations: bool, collect: bool = False) -> dict:
    from .evaluation.locomo import baselines

    systems = {"graphmem": GraphmemSystem(mem, collect=collect)}
    if ablations:
        for channel in CHANNELS:
            systems[f"graphmem -{channel}"] = GraphmemSystem(mem, [c for c in CHANNELS if c != channel])
        systems["graphmem -neighbours"] = GraphmemSystem(mem, neighbours=False)
        systems["graphmem -ranker"] = GraphmemSystem(mem, rank=False)
    systems.update(baselines())
    return systems


@click.command("locomo")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--k", "ks", default="5,10,20", show_default=True, help="Comma-separated cut-offs.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False), default=None, help="Write the figures here.")
@click.option("--plot", "plot_out", type=click.Path(dir_okay=False), default=None, help="Write a PNG bar plot here.")
@click.option("--ablations", is_flag=True, help="Also run graphmem without each channel.")
@click.option("--cross-validate", is_flag=True,
              help="Also rank each conversation with a ranker fit on the other conversations only.")
@click.option("--fit-ranker", "fit_out", type=click.Path(dir_okay=False), default=None,
              help="Fit the recall ranker on these conversations and write it here (GRAPHMEM_RECALL_RANKER=PATH uses it).")
@click.option("--home", type=click.Path(file_okay=False), default=None,
              help="Embedded database directory (default: a fresh temporary one).")
@uri_option
@friendly_errors
def bench_locomo(paths, ks, json_out, plot_out, ablations, cross_validate, fit_out, home, uri):
    """Recall@k and All@k on LoCoMo conversations, per category, next to BM25 and dense
    baselines measured in the same run.

    \b
    Example:  graphmem bench locomo ../shared/data/locomo/locomo10_v2/*.json --k 5,10,20
    """
    from rich.progress import Progress

    from .evaluation.locomo import load_conversations, run_benchmark

    cutoffs = [int(k) for k in ks.split(",") if k.strip()]
    if cross_validate and sum(len(load_conversations(p)) for p in paths) < 2:
        raise click.UsageError("--cross-validate holds each conversation out in turn: give at least two")
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as tmp:
        settings = Settings.from_env(uri=uri, home=Path(home or tmp))
        with Memory(settings=settings) as mem, Progress(console=console, transient=True) as bar:
            task = bar.add_task("questions", total=None)
            systems = locomo_systems(mem, ablations, collect=cross_validate or fit_out is not None)
            result = run_benchmark(list(paths), systems, ks=cutoffs,
                                   progress=lambda p: bar.update(task, completed=p.done, total=p.total,
                                                                 description=str(p)))
            if cross_validate or fit_out:
                _ranker_runs(mem, systems["graphmem"].collected, result, cross_validate, fit_out)
        if uri is None and home is None:
            from .drivers.embedded import EmbeddedServer

            EmbeddedServer(settings.home).stop()
    result.render(console)
    if json_out:
        Path(json_out).write_text(json.dumps(result.to_dict(), indent=2))
        console.print(f"figures written to {json_out}")
    if plot_out:
        console.print(f"plot written to {result.plot(plot_out)}")


HELD_OUT = "graphmem, ranker fit without the conversation"


def _ranker_runs(mem: Memory, collected: list, result, cross_validate: bool, fit_out: str | None) -> None:
    """The rankings a ranker fit on the other conversations gives (a row of the result), and a
    ranker fit on all of them (written to `fit_out`)."""
    from datetime import date

    from .evaluation.locomo import held_out_ranker_rankings, ranker_examples
    from .recall.ranker import fit

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
            raise click.ClickException(f"cannot fit a ranker: {exc}") from None
        Path(fit_out).write_text(json.dumps(ranker.to_dict(), indent=2) + "\n")
        console.print(f"ranker fit on {len(examples)} questions written to {fit_out}")


def _rounded(x: float) -> float | None:
    return None if x != x else round(x, 3)  # NaN (no such question) is no JSON number


COMMANDS = [recall, gaps]
BENCH_COMMANDS = [bench_locomo]
