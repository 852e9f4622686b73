"""`graphmem recall` and `graphmem gaps`: each one call of `Memory.recall`."""

from __future__ import annotations

import click
from rich.table import Table
from rich.text import Text

from ..keys import parse_time
from .common import console, emit, open_memory, user_command

asker_option = click.option("--as", "asker", metavar="SPEAKER", default=None,
                            help="Who asks: the speaker the question's I and my mean.")


@click.command("recall")
@click.argument("query")
@click.option("--k", "-k", default=10, show_default=True, help="How many memories.")
@click.option("--budget", type=int, default=None, help="Trim to fit this many tokens of context.")
@asker_option
@click.option("--include-archived", is_flag=True, help="Archived memories too (graphmem maintain archives them).")
@click.option("--asked-at", default=None, metavar="TIME",
              help="When the question is asked (ISO; default: now): what 'in January' or 'last week' is read from.")
@user_command(reads=True)
def recall_command(ctx, query, k, budget, asker, include_archived, asked_at, user, as_json):
    """The memories worth putting in context for QUERY, ranked, with the channels that found each.

    \b
    Example:  graphmem recall "When did Caroline go to the support group?" --user demo
    """
    mem = open_memory(ctx)
    mem.models.embedder(), mem.models.nlp()  # loaded first, so the time printed is the recall's own
    result = mem.recall(query, user=user, k=k, token_budget=budget, asker=asker, include_archived=include_archived,
                        asked_at=parse_time(asked_at, "--asked-at"))

    def render(d: dict) -> None:
        a = d["analysis"]
        console.print(f"{a['type']} question; entities: "
                      f"{', '.join(e['name'] for e in a['entities']) or 'none matched'}"
                      + (f"; time: {a['time_text']}" if a["time_text"] else "")
                      + (f"; asks for {', '.join(a['answer_kinds'])} entities" if a["answer_kinds"] else ""))
        if a["topic"] != d["query"]:
            console.print(f"topic: {a['topic']}")
        table = Table(expand=True)  # the memory's text takes what the other columns leave
        table.add_column("#")
        # the id is what `show`, `history` and `forget` take; the source (file:line, a message id) below it
        table.add_column("id, source", no_wrap=True, min_width=20)
        table.add_column("speaker")
        table.add_column("date", no_wrap=True)
        table.add_column("memory", ratio=3)
        table.add_column("channels (rank)", ratio=2, overflow="fold")
        for i, m in enumerate(d["memories"], start=1):
            found = " ".join(f"{c}:{r}" for c, r in m["channels"].items())
            why = " ".join(f"{reason}+{lift:.1f}" for reason, lift in m["why"].items())
            # a retired version is shown, below the current one, as context() marks it
            until = f"\n(superseded {m['valid_until'][:10]})" if m["valid_until"] else \
                f"\n(superseded in part {m['partly_superseded'][:10]})" if m["partly_superseded"] else ""
            table.add_row(str(i), Text.assemble(m["uid"], (f"\n{m['source_id']}" if m["source_id"] else "", "dim")),
                          m["speaker"] or "", (m["session_date"] or "")[:10],
                          Text.assemble(m["text"], (until, "dim")),
                          Text.assemble(found, (f"\nup by {why}" if why else "", "dim")))
        console.print(table)
        render_gaps(d["gaps"])
        console.print(f"recall took {d['timings_ms']['total']:.0f} ms", style="dim")

    emit(result.to_dict(), as_json, render)


@click.command("gaps")
@click.argument("query")
@asker_option
@user_command(reads=True)
def gaps_command(ctx, query, asker, user, as_json):
    """Knowledge gaps around QUERY, real holes first, each as a question to ask: names memory
    does not know, entities it names never seen together, and entities seen together only
    inside a larger observation (not a hole).

    \b
    Example:  graphmem gaps "Did Caroline and Melanie ever go to Paris?" --user demo
    """
    found = open_memory(ctx).gaps(query, user=user, asker=asker)

    def render(d: dict) -> None:
        console.print(f"entities: {', '.join(d['entities']) or 'none matched'}")
        render_gaps(d["gaps"])

    emit({"entities": found.entities, "gaps": [g.to_dict() for g in found.gaps]}, as_json, render)


def render_gaps(found: list[dict]) -> None:
    if not found:
        console.print("no gaps among the matched entities")
        return
    holes = sum(g["hole"] for g in found)
    table = Table(title=f"{len(found)} gap{'s' * (len(found) != 1)}, {holes or 'no'} real hole{'s' * (holes > 1)}")
    table.add_column("ask")
    table.add_column("gap")
    for g in found:
        # Text, not markup: names and questions are user text; a seen-together set is dimmed
        table.add_row(Text(g["question"]), Text(f"{g['kind']}: {g['meaning']}", style="" if g["hole"] else "dim"))
    console.print(table)


COMMANDS = [recall_command, gaps_command]
