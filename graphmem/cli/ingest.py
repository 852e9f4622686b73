"""`graphmem ingest`: transcripts in, with a progress bar; one call of `Memory.ingest`."""

from __future__ import annotations

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from ..ingest import FORMATS, read_sources
from .common import console, emit, open_memory, user_command


@click.command("ingest")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--format", "format_", type=click.Choice(FORMATS), default=None,
              help="Transcript format (default: detected from the content).")
@click.option("--dry-run", is_flag=True, help="Parse and report, write nothing.")
@click.option("--conversation", default=None,
              help="The conversation they belong to (default: each file its own, found again by its content).")
@user_command(reads=True)
def ingest_command(ctx, paths, format_, dry_run, conversation, user, as_json):
    """Ingest chat transcripts (LoCoMo JSON, JSON Lines, messages arrays, `Speaker: text`).

    Running it again on the same files changes nothing; on an edited file, it adds the new
    messages and replaces the edited ones.

    \b
    Example:  graphmem ingest conversation.json --user alice
    """
    mem = open_memory(ctx)
    keep = mem.settings.keep_tool_results  # validates every file first
    total = sum(len(turns) for _, turns in read_sources(list(paths), format_, keep_tool_results=keep))
    with Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[rate]} turns/s"), TimeElapsedColumn(), TimeRemainingColumn(),
                  console=console, disable=as_json, transient=False) as bar:
        task = bar.add_task("reading models", total=total, rate="-")

        def advance(name: str, done: int) -> None:
            bar.update(task, advance=done, description=name)
            elapsed = bar.tasks[0].elapsed or 0
            bar.update(task, rate=f"{bar.tasks[0].completed / elapsed:.0f}" if elapsed else "-")

        summary = mem.ingest(list(paths), user=user, format=format_, dry_run=dry_run, progress=advance,
                             conversation=conversation)
    emit(summary.to_dict(), as_json, render_summary)


def render_summary(d: dict) -> None:
    table = Table(title=f"ingested into {d['user']}" + (" (dry run: nothing written)" if d["dry_run"] else ""),
                  show_header=False)
    table.add_row("conversations", ", ".join(d["conversations"]))
    for key in ("files", "turns", "sessions", "memories_added", "memories_replaced", "memories_missing", "sentences", "entities_added", "mentions", "relations",
                "turn_simplices", "session_simplices", "capped_simplices", "dated_references"):
        table.add_row(key.replace("_", " "), str(d[key]))
    table.add_row("seconds", f"{d['seconds']:.1f} ({d['turns_per_second']} turns/s)")
    table.add_row("time by stage", ", ".join(f"{k} {v:.1f}s" for k, v in d["stages"].items()))
    console.print(table)


COMMANDS = [ingest_command]
