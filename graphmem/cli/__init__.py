"""`graphmem` command line: a thin skin over the library; every command is one library call."""

from __future__ import annotations

import functools
import importlib
import json
import logging
import sys
from typing import Any, Callable

import click
from rich.console import Console
from rich.table import Table

from . import Memory
from .errors import GraphmemError
from .settings import Settings

console = Console()
EXTENSIONS = ("graphmem.cli_ingest", "graphmem.cli_recall", "graphmem.cli_bench")


def uri_option(fn: Callable) -> Callable:
    return click.option("--uri", envvar="GRAPHMEM_URI", default=None,
                        help="Backend: falkor://HOST:PORT, neo4j://HOST:7687 (default: embedded FalkorDB).")(fn)


def user_option(fn: Callable) -> Callable:
    return click.option("--user", "-u", envvar="GRAPHMEM_USER", default="default", show_default=True,
                        help="Whose memory to use; every query is scoped to it.")(fn)


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(fn)


def open_memory(ctx: click.Context, uri: str | None) -> Memory:
    """Connect once per command; closed when the command ends."""
    auth = None
    user, password = _env("GRAPHMEM_NEO4J_USER"), _env("GRAPHMEM_NEO4J_PASSWORD")
    if user:
        auth = (user, password or "")
    mem = Memory(settings=Settings.from_env(uri=uri), auth=auth)
    ctx.call_on_close(mem.close)
    return mem


def _env(name: str) -> str | None:
    import os

    return os.environ.get(name) or None


def friendly_errors(fn: Callable) -> Callable:
    """Library errors become one clear line (click.ClickException), never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except GraphmemError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper


def emit(data: Any, as_json: bool, render: Callable[[Any], None]) -> None:
    if as_json:
        click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        render(data)


def parse_vertices(values: tuple[str, ...]) -> list[int | str]:
    """Vertices on the command line: names, or integer vids written as #12."""
    return [int(v[1:]) if v.startswith("#") and v[1:].isdigit() else v for v in values]


@click.group()
@click.version_option(package_name="graphmem")
def main() -> None:
    """graphmem: graph-database-native memory for LLM agents.

    \b
    Example:
      graphmem simplex insert Alice Bob Paris --user alice
      graphmem simplex cofaces Alice Paris --user alice
    """
    # the neo4j driver logs connection failures itself; we report them as one line
    logging.getLogger("neo4j").setLevel(logging.CRITICAL)


# -- simplex ------------------------------------------------------------------------


@main.group()
def simplex() -> None:
    """Insert and query simplices (sets of co-occurring entities).

    Vertices are entity names; write an integer vid as #12."""


def simplex_table(simplices: list[dict], title: str) -> None:
    table = Table(title=title)
    for column in ("dim", "vertices", "kind", "count", "last seen", "witnesses"):
        table.add_column(column)
    for s in simplices:
        table.add_row(str(s["dimension"]), ", ".join(s["vertices"]), s["kind"] or "", str(s["count"]),
                      (s["last_seen"] or "")[:19], str(len(s["witnesses"])))
    console.print(table)


def faces_table(faces: list[dict], title: str) -> None:
    table = Table(title=title)
    for column in ("dim", "vertices", "stored", "count"):
        table.add_column(column)
    for f in faces:
        table.add_row(str(f["dimension"]), ", ".join(f["vertices"]), "yes" if f["stored"] else "implied only",
                      str(f["count"]))
    console.print(table)


@simplex.command("insert")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--kind", default="observed", show_default=True, help="What observed it (turn, session, ...).")
@click.option("--meta", default=None, help="JSON object stored with the simplex.")
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_insert(ctx, vertices, kind, meta, user, uri, as_json):
    """Record an observed simplex (inserting it again raises its count).

    \b
    Example:  graphmem simplex insert Alice Bob Paris --kind turn --user alice
    """
    try:
        meta_dict = json.loads(meta) if meta else None
    except json.JSONDecodeError as exc:
        raise click.BadParameter(f"not JSON: {exc}", param_hint="--meta") from None
    s = open_memory(ctx, uri).complex(user).insert(parse_vertices(vertices), kind=kind, meta=meta_dict)
    emit(s.to_dict(), as_json, lambda d: simplex_table([d], "stored"))


@simplex.command("find")
@click.argument("vertices", nargs=-1, required=True)
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_find(ctx, vertices, user, uri, as_json):
    """Is this exact simplex stored? Exits 1 when it is not.

    \b
    Example:  graphmem simplex find Bob Alice --user alice
    """
    s = open_memory(ctx, uri).complex(user).find(parse_vertices(vertices))
    emit(s.to_dict() if s else None, as_json,
         lambda d: simplex_table([d], "found") if d else console.print("not stored"))
    if s is None:
        ctx.exit(1)


@simplex.command("cofaces")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--limit", type=int, default=None, help="At most this many, largest first.")
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_cofaces(ctx, vertices, limit, user, uri, as_json):
    """Every stored simplex containing all the vertices.

    \b
    Example:  graphmem simplex cofaces Alice Paris --user alice
    """
    found = open_memory(ctx, uri).complex(user).cofaces(parse_vertices(vertices), limit=limit)
    emit([s.to_dict() for s in found], as_json, lambda d: simplex_table(d, f"{len(d)} cofaces"))


@simplex.command("faces")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--max-dim", type=int, default=None, help="Only faces up to this dimension.")
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_faces(ctx, vertices, max_dim, user, uri, as_json):
    """All faces of a simplex, each marked stored or implied only.

    \b
    Example:  graphmem simplex faces Alice Bob Paris --user alice
    """
    faces = open_memory(ctx, uri).complex(user).faces(parse_vertices(vertices), max_dim=max_dim)
    emit([f.to_dict() for f in faces], as_json, lambda d: faces_table(d, f"{len(d)} faces"))


@simplex.command("gaps")
@click.argument("vertices", nargs=-1, required=True)
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_gaps(ctx, vertices, user, uri, as_json):
    """Faces implied by stored simplices but never observed themselves.

    \b
    Example:  graphmem simplex gaps Alice Bob Paris --user alice
    """
    gaps = open_memory(ctx, uri).complex(user).gaps(parse_vertices(vertices))
    emit([f.to_dict() for f in gaps], as_json, lambda d: faces_table(d, f"{len(d)} gaps"))


@simplex.command("remove")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--cofaces", is_flag=True, help="Also remove every stored simplex containing it.")
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def simplex_remove(ctx, vertices, cofaces, user, uri, as_json):
    """Remove a simplex (and, with --cofaces, everything containing it).

    \b
    Example:  graphmem simplex remove Alice Bob --cofaces --user alice
    """
    removed = open_memory(ctx, uri).complex(user).remove(parse_vertices(vertices), cofaces=cofaces)
    emit({"removed": removed}, as_json, lambda d: console.print(f"removed {d['removed']} simplices"))


@main.command()
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def stats(ctx, user, uri, as_json):
    """Counts of a user's memory: memories, entities, relations, simplices by dimension.

    \b
    Example:  graphmem stats --user alice
    """
    data = open_memory(ctx, uri).complex(user).stats()

    def render(d):
        table = Table(title=f"memory of {d['user']}", show_header=False)
        for key in ("memories", "sessions", "entities", "mentions", "relations", "simplices", "trie_nodes", "witnessed"):
            table.add_row(key, str(d[key]))
        for dim, n in sorted(d["by_dimension"].items()):
            table.add_row(f"  dimension {dim}", str(n))
        console.print(table)

    emit(data, as_json, render)


@main.command()
@user_option
@uri_option
@json_option
@click.pass_context
@friendly_errors
def verify(ctx, user, uri, as_json):
    """Check the simplex tree's invariants; exits 1 on any violation.

    \b
    Example:  graphmem verify --user alice
    """
    problems = open_memory(ctx, uri).complex(user).verify()
    emit(problems, as_json, lambda d: console.print(
        "simplex tree sound" if not d else "\n".join(f"{p['key']}: {p['problem']}" for p in d)))
    if problems:
        ctx.exit(1)


@main.command()
@click.argument("operation")
@click.option("--dialect", type=click.Choice(["neo4j", "falkordb"]), default="neo4j", show_default=True)
def cypher(operation, dialect):
    """Print the Cypher of an operation, with its parameters, for Neo4j Browser.

    \b
    Example:  graphmem cypher cofaces
    """
    from . import queries

    try:
        query = queries.load(operation, dialect)
    except FileNotFoundError:
        raise click.ClickException(f"no operation {operation!r}; known: {', '.join(queries.names())}") from None
    click.echo(f"// {query.path.name}; parameters: {', '.join('$' + p for p in query.params) or 'none'}")
    click.echo(query.path.read_text().strip())


# -- the embedded database ----------------------------------------------------------


@main.group()
def db() -> None:
    """Start, stop or inspect the embedded FalkorDB server."""


def _server():
    from .drivers.embedded import EmbeddedServer

    settings = Settings.from_env()
    return EmbeddedServer(settings.home, settings.aof_fsync)


@db.command("start")
@friendly_errors
def db_start():
    """Start the embedded server (a no-op when it runs already)."""
    socket = _server().start()
    console.print(f"embedded FalkorDB running on {socket}")


@db.command("stop")
@friendly_errors
def db_stop():
    """Stop the embedded server cleanly (AOF flushed)."""
    console.print("stopped" if _server().stop() else "was not running")


@db.command("status")
@json_option
def db_status(as_json):
    """Whether the embedded server runs, its pid, socket and data directory."""
    emit(_server().status(), as_json, lambda d: console.print(
        "\n".join(f"{k}: {v}" for k, v in d.items())))


@main.group()
def bench() -> None:
    """Benchmarks: retrieval quality on LoCoMo, speed at scale."""


def _load_extensions() -> None:
    """Command modules: COMMANDS join the top level, BENCH_COMMANDS the bench group."""
    for name in EXTENSIONS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        for command in getattr(module, "COMMANDS", []):
            main.add_command(command)
        for command in getattr(module, "BENCH_COMMANDS", []):
            bench.add_command(command)


_load_extensions()

if __name__ == "__main__":
    sys.exit(main())
