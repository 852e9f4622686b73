"""What every command shares: the console, option decorators, the connection to the backend,
library errors as one line, and output as a table or JSON. Command modules import this module
only, never each other nor `graphmem.cli`."""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, replace
from typing import Any, Callable
from urllib.parse import urlsplit

import click
from rich.console import Console

from ..drivers import NEO4J_SCHEMES
from ..errors import GraphmemError
from ..memory import Memory
from ..settings import Settings
from ..store import Plan, PlanEnded

# what is printed is mostly user text (memories, names, file paths): read as written, never as
# rich markup ("[/]" in a regex was a MarkupError) or emoji codes; styles are given as styles
console = Console(markup=False, emoji=False)
PLANNING = "graphmem.planning"  # ctx.meta: under --cypher, whether the plan runs reads (Plan.reads)
PLAN = "graphmem.plan"  # ctx.meta: the Plan the command's store records into


@dataclass
class Connection:
    """Where commands connect: given before the command (`graphmem --uri ... stats`, or the
    environment) or after it (`graphmem stats --uri ...`); the one after the command wins."""
    uri: str | None = None
    user: str | None = None
    password: str | None = None


def connection(ctx: click.Context) -> Connection:
    # ctx.meta is one dict for the group's context and its command's, so both levels fill one Connection
    return ctx.meta.setdefault("graphmem.connection", Connection())


def _remember(field: str) -> Callable:
    def callback(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        if value is not None:  # given at this level: overrides what the group was given
            setattr(connection(ctx), field, value)

    return callback


def _connection_options(fn: Callable, *, group: bool) -> Callable:
    where = "" if group else " (overrides one given before the command)"
    options = [
        click.option("--uri", envvar="GRAPHMEM_URI" if group else None, show_envvar=group, default=None,
                     expose_value=False, callback=_remember("uri"),
                     help="Backend: falkor://HOST:PORT, neo4j://HOST:7687 (default: embedded FalkorDB)" + where + "."),
        click.option("--neo4j-user", envvar="GRAPHMEM_NEO4J_USER" if group else None, show_envvar=group,
                     default=None, expose_value=False, callback=_remember("user"), metavar="NAME",
                     help="Neo4j user (default: neo4j when a password is given)" + where + "."),
        click.option("--neo4j-password", envvar="GRAPHMEM_NEO4J_PASSWORD" if group else None, show_envvar=group,
                     default=None, expose_value=False, callback=_remember("password"), metavar="SECRET",
                     help="Neo4j password" + where + "."),
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


def group_uri_option(fn: Callable) -> Callable:
    """--uri, --neo4j-user, --neo4j-password on the group, read from GRAPHMEM_* when not given."""
    return _connection_options(fn, group=True)


def uri_option(fn: Callable) -> Callable:
    """--uri, --neo4j-user, --neo4j-password on a command; read with `credentials` / `open_memory`."""
    return _connection_options(fn, group=False)


def user_option(fn: Callable) -> Callable:
    return click.option("--user", "-u", envvar="GRAPHMEM_USER", default="default", show_default=True,
                        help="Whose memory to use; every query is scoped to it.")(fn)


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")(fn)


def cypher_option(reads: bool = False) -> Callable:
    """--cypher: print the statements the command would run, each with its `:param` lines, for
    Neo4j Browser, instead of running them (store.Plan). Name lookups run, so the parameters are
    the real ones. `reads`, for commands that run several dependent statements: the reads run
    too, and the plan ends, unrun, at the first write; otherwise it ends at the first statement
    that is not a lookup. No write runs either way, nor the schema set-up."""
    more = ("its reads run, for the parameters of the statements after them; it stops at the first write, unrun"
            if reads else "only name lookups run")
    def decorate(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def wrapper(*args, show_cypher: bool = False, **kwargs):
            if not show_cypher:
                return fn(*args, **kwargs)
            ctx = click.get_current_context()
            ctx.meta[PLANNING] = reads
            console.quiet = True  # the command's own output (tables, progress) is not shown
            try:
                fn(*args, **kwargs)
            except (PlanEnded, click.exceptions.Exit):
                pass
            finally:
                console.quiet = False
            plan: Plan | None = ctx.meta.get(PLAN)
            click.echo(plan.show() if plan is not None else Plan(reads).show(), nl=False)

        return click.option("--cypher", "show_cypher", is_flag=True,
                            help=f"Print the Cypher it would run, with :param lines for Neo4j Browser, instead of "
                                 f"running it ({more}; no write runs).")(wrapper)

    return decorate


def planning(ctx: click.Context) -> bool:
    """Whether the command runs under --cypher."""
    return ctx.meta.get(PLANNING) is not None


def user_command(fn: Callable | None = None, *, reads: bool = False) -> Callable:
    """The options and handling every per-user command shares: --user, the connection options,
    --json, --cypher (cypher_option: `reads` for a command of several dependent statements), the
    click context, and library errors as one line."""
    def decorate(fn: Callable) -> Callable:
        return user_option(uri_option(json_option(cypher_option(reads)(click.pass_context(friendly_errors(fn))))))

    return decorate(fn) if fn is not None else decorate


def credentials(ctx: click.Context) -> tuple[str | None, tuple[str, str] | None]:
    """The URI the command was given (None: GRAPHMEM_URI or the embedded database) and the
    credentials to pass with it. A Neo4j user without a password is refused here, in one line,
    before the driver turns it into an obscure authentication error."""
    conn = connection(ctx)
    uri = Settings.from_env(uri=conn.uri).uri
    scheme = urlsplit(uri).scheme.lower() if uri else ""
    if scheme not in NEO4J_SCHEMES:  # FalkorDB takes a password only; the one in its URI unless given
        return conn.uri, (conn.user or "", conn.password) if conn.password else None
    if conn.user is None and conn.password is None:
        try:
            in_uri = urlsplit(str(uri))
            user, password = in_uri.username, in_uri.password
        except ValueError:
            return conn.uri, None  # a malformed URI: connecting says what is wrong with it
        if user and not password:
            raise click.ClickException(f"Neo4j user {user!r} in the URI has no password: write neo4j://{user}:PASSWORD@HOST, "
                                       f"or pass --neo4j-password / set GRAPHMEM_NEO4J_PASSWORD")
        return conn.uri, None  # the driver takes them from the URI
    if not conn.password:
        raise click.ClickException(f"Neo4j user {conn.user!r} given without a password: "
                                   f"pass --neo4j-password or set GRAPHMEM_NEO4J_PASSWORD")
    return conn.uri, (conn.user or "neo4j", conn.password)


def open_memory(ctx: click.Context) -> Memory:
    """Connect once per command, as its options and the group's say; closed when the command ends."""
    uri, auth = credentials(ctx)
    if planning(ctx):  # --cypher: no schema set-up, no access counts written, the store records
        mem = Memory(settings=replace(Settings.from_env(uri=uri), count_accesses=False), auth=auth, setup=False)
        ctx.call_on_close(mem.close)
        ctx.meta[PLAN] = ctx.with_resource(mem.store.planning(ctx.meta[PLANNING]))
        return mem
    mem = Memory(settings=Settings.from_env(uri=uri), auth=auth)
    ctx.call_on_close(mem.close)
    return mem


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
    if planning(click.get_current_context()):
        return  # --cypher prints the plan instead
    if as_json:
        click.echo(json.dumps(data, indent=2, default=str, ensure_ascii=False))
    else:
        render(data)


def at_least(minimum: int) -> Callable:
    """An option callback for a count: an integer of at least `minimum` (1 for a limit, 0 for a
    dimension), or not given. Anything less is refused in one line naming the option, before the
    command runs."""
    def callback(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
        if value is not None and value < minimum:
            raise click.ClickException(f"{param.opts[0]} must be a {'positive' if minimum else 'non-negative'} "
                                       f"integer, not {value}")
        return value

    return callback


def parse_vertices(values: tuple[str, ...]) -> list[int | str]:
    """Vertices on the command line: names, or integer vids written as #12."""
    return [int(v[1:]) if v.startswith("#") and v[1:].isdigit() else v for v in values]
