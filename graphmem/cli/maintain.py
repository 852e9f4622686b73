"""`graphmem maintain`: one call of `Memory.maintain`, the lifecycle pass."""

from __future__ import annotations

import click
from rich.table import Table

from ..keys import parse_time
from .common import console, cypher_option, emit, friendly_errors, json_option, open_memory, uri_option


@click.command("maintain")
@click.option("--user", "-u", envvar="GRAPHMEM_USER", default=None,
              help="Only this user's memories (default: every user's).")
@click.option("--dry-run", is_flag=True, help="Count what would move; change nothing.")
@click.option("--now", default=None, metavar="TIME", help="Take this time (ISO) for now, e.g. to preview a date.")
@uri_option
@json_option
@cypher_option(reads=True)
@click.pass_context
@friendly_errors
def maintain_command(ctx, user, dry_run, now, as_json):
    """Move memories through active, warm, cold and archived as they age without being recalled
    (the rule: graphmem/lifecycle.py, README "Lifecycle"). Archived memories leave recall
    (recall --include-archived brings them back) and are never deleted. Running it again
    changes nothing.

    \b
    Example:  graphmem maintain --dry-run
              graphmem maintain --user sam --json
    """
    done = open_memory(ctx).maintain(user, now=parse_time(now, "--now"), dry_run=dry_run)

    def render(d: dict) -> None:
        verb = "would move" if d["dry_run"] else "moved"
        users = f"{d['users']} user" + ("" if d["users"] == 1 else "s")
        console.print(f"{d['memories']} memories of {users}: {verb} {d['moved']}")
        if d["transitions"]:
            table = Table()
            table.add_column("from")
            table.add_column("to")
            table.add_column("memories", justify="right")
            for step, count in d["transitions"].items():
                was, _, to = step.partition("->")
                table.add_row(was, to, str(count))
            console.print(table)
        console.print("now " + ", ".join(f"{state}: {count}" for state, count in d["states"].items()))

    emit(done.to_dict(), as_json, render)


COMMANDS = [maintain_command]
