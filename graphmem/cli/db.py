"""`graphmem db ...` (the embedded server) and `graphmem cypher` (an operation's statement)."""

from __future__ import annotations

import click

from ..queries import load as load_query, names as query_names
from ..settings import Settings
from .common import console, emit, friendly_errors, json_option


@click.command("cypher")
@click.argument("operation")
@click.option("--dialect", type=click.Choice(["neo4j", "falkordb"]), default="neo4j", show_default=True)
def cypher(operation, dialect):
    """Print the Cypher file of an operation for Neo4j Browser, after a `:param NAME => null;`
    line for each of its parameters (the Neo4j dialect): fill in the values and paste it whole
    to run its readable form; a file with a faster form for the library holds that one in its
    `//|` lines (graphmem/queries.py). `graphmem COMMAND --cypher` prints a command's
    statements with their real parameters.

    \b
    Example:  graphmem cypher cofaces
    """
    try:
        query = load_query(operation, dialect)
    except FileNotFoundError:
        raise click.ClickException(f"no operation {operation!r}; known: {', '.join(query_names())}") from None
    click.echo(f"// {query.path.name}; parameters: {', '.join('$' + p for p in query.params) or 'none'}")
    if dialect == "neo4j" and query.params:  # Browser's syntax, as store.Store.cypher writes it
        click.echo("\n".join(f":param {p} => null;" for p in query.params) + "\n")
    click.echo(query.path.read_text().strip())


@click.group("db")
def db_group() -> None:
    """Start, stop or inspect the embedded FalkorDB server.

    \b
    Example:  graphmem db status
    """


def _server():
    from ..drivers.embedded import EmbeddedServer

    settings = Settings.from_env()
    return EmbeddedServer(settings.home, settings.aof_fsync)


@db_group.command("start")
@friendly_errors
def db_start():
    """Start the embedded server (a no-op when it runs already).

    \b
    Example:  graphmem db start
    """
    socket = _server().start()
    console.print(f"embedded FalkorDB running on {socket}")


@db_group.command("stop")
@friendly_errors
def db_stop():
    """Stop the embedded server cleanly (AOF flushed).

    \b
    Example:  graphmem db stop
    """
    console.print("stopped" if _server().stop() else "was not running")


@db_group.command("status")
@json_option
@click.pass_context
@friendly_errors
def db_status(ctx, as_json):
    """Whether the embedded server runs, its pid, socket and data directory; exits 1 when it is
    not running (so scripts can test it).

    \b
    Example:  graphmem db status --json
    """
    status = _server().status()
    emit(status, as_json, lambda d: console.print("\n".join(f"{k}: {v}" for k, v in d.items())))
    if not status["running"]:
        ctx.exit(1)


COMMANDS = [cypher, db_group]
