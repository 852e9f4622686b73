"""`graphmem export` and `graphmem import`: a user's whole memory out as JSON Lines, and back
into any backend; each one call of `Memory.export` / `Memory.import_`."""

from __future__ import annotations

import io
import json
import sys
from contextlib import contextmanager
from typing import Callable, Iterator

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .common import console, cypher_option, emit, friendly_errors, json_option, open_memory, planning, uri_option, user_command


@click.command("export")
@click.option("--out", "-o", default="-", metavar="FILE", type=click.Path(dir_okay=False, allow_dash=True),
              help="The file to write; a name ending in .gz is compressed. Default: standard output.")
@user_command(reads=True)
def export_command(ctx, out, user, as_json):
    """Write a user's whole memory as JSON Lines: memories with their vectors, entities,
    relations, simplices with their counts and witnesses, terms and sessions.

    A file is written whole or not at all. `graphmem import` reads it into any backend.

    \b
    Example:  graphmem export --user alice --out alice.jsonl.gz
              graphmem export --user alice > alice.jsonl
    """
    mem = open_memory(ctx)
    if planning(ctx):  # --cypher: the reads run, what they give goes nowhere
        mem.export(user, io.StringIO())
        return
    if out == "-":  # standard output is the file: the summary goes to standard error
        summary = mem.export(user, sys.stdout)
        click.echo(json.dumps(summary.to_dict(), indent=2, default=str, ensure_ascii=False) if as_json else
                   f"exported {summary.nodes} nodes and {summary.relationships} relationships of {user!r}", err=True)
        return
    with progress_bar(as_json) as advance:
        summary = mem.export(user, out, progress=advance)
    emit(summary.to_dict(), as_json, lambda d: render(d, f"exported {d['user']}"))


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--user", "-u", default=None,
              help="Import under this user id (default: the user the file was exported from).")
@click.option("--replace", is_flag=True,
              help="Delete what the user holds first; without it, a user that holds memories is refused.")
@uri_option
@json_option
@cypher_option(reads=True)
@click.pass_context
@friendly_errors
def import_command(ctx, file, user, replace, as_json):
    """Read a file `graphmem export` wrote into this store (the embedded one, Neo4j, a FalkorDB
    server): the whole file is checked before anything is written, and running it again after
    an interruption completes it. FILE may be - for standard input.

    \b
    Example:  graphmem --uri neo4j://localhost:7687 --neo4j-user neo4j --neo4j-password secret import alice.jsonl.gz
              graphmem import alice.jsonl --user alice-copy
    """
    mem = open_memory(ctx)
    source = sys.stdin if file == "-" else file
    with progress_bar(as_json) as advance:
        summary = mem.import_(source, user=user, replace=replace, progress=advance)
    emit(summary.to_dict(), as_json, lambda d: render(d, f"imported into {d['user']}"))


@contextmanager
def progress_bar(disable: bool) -> Iterator[Callable[[str, int, int], None]]:
    with Progress(TextColumn("{task.description}", style="bold", markup=False), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, disable=disable or not console.is_terminal, transient=True) as bar:
        task = bar.add_task("reading", total=None)

        def advance(what: str, done: int, total: int) -> None:
            bar.update(task, description=what, completed=done, total=total)

        yield advance


def render(d: dict, title: str) -> None:
    table = Table(title=title, show_header=False)
    table.add_row("file", d["file"])
    if d["source_user"] is not None and d["source_user"] != d["user"]:
        table.add_row("exported from", d["source_user"])
    table.add_row("nodes", f"{d['nodes']} ({', '.join(f'{k} {v}' for k, v in d['labels'].items())})")
    table.add_row("relationships", str(d["relationships"]))
    if d["replaced"]:
        table.add_row("replaced", f"{d['replaced']} nodes deleted first")
    if d["resumed"]:
        table.add_row("resumed", "went on with an unfinished import of this file")
    table.add_row("seconds", f"{d['seconds']:.1f}")
    console.print(table)
    for note in d["notes"]:
        console.print(Text.assemble(("note:", "yellow"), f" {note}"), highlight=False)


COMMANDS = [export_command, import_command]
