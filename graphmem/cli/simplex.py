"""`graphmem simplex ...`, `graphmem stats`, `graphmem verify`: each one call on a user's `Complex`."""

from __future__ import annotations

import json

import click
from rich.table import Table

from .common import at_least, console, emit, open_memory, parse_vertices, user_command


@click.group("simplex")
def simplex_group() -> None:
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


def parse_meta(ctx: click.Context, param: click.Parameter, value: str | None) -> dict | None:
    """--meta: a JSON object, refused in one line before anything is written."""
    if not value:
        return None
    try:
        meta = json.loads(value)
    except json.JSONDecodeError as exc:
        raise click.ClickException(f"--meta is not JSON: {exc}") from None
    if not isinstance(meta, dict):
        what = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(type(meta), "a number")
        raise click.ClickException(f"--meta must be a JSON object, not {what}: {value}")
    return meta


def faces_table(faces: list[dict], title: str) -> None:
    table = Table(title=title)
    for column in ("dim", "vertices", "stored", "count"):
        table.add_column(column)
    for f in faces:
        table.add_row(str(f["dimension"]), ", ".join(f["vertices"]), "yes" if f["stored"] else "implied only",
                      str(f["count"]))
    console.print(table)


@simplex_group.command("insert")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--kind", default="observed", show_default=True, help="What observed it (turn, session, ...).")
@click.option("--meta", default=None, callback=parse_meta, help="JSON object stored with the simplex.")
@user_command
def simplex_insert(ctx, vertices, kind, meta, user, as_json):
    """Record an observed simplex (inserting it again raises its count).

    \b
    Example:  graphmem simplex insert Alice Bob Paris --kind turn --user alice
    """
    s = open_memory(ctx).complex(user).insert(parse_vertices(vertices), kind=kind, meta=meta)
    emit(s.to_dict(), as_json, lambda d: simplex_table([d], "stored"))


@simplex_group.command("list")
@click.option("--limit", type=int, default=20, show_default=True, callback=at_least(1), help="At most this many.")
@user_command
def simplex_list(ctx, limit, user, as_json):
    """The stored simplices, largest first, then most observed.

    \b
    Example:  graphmem simplex list --limit 5 --user alice
    """
    found = open_memory(ctx).complex(user).simplices(limit=limit)
    emit([s.to_dict() for s in found], as_json, lambda d: simplex_table(d, f"{len(d)} largest simplices"))


@simplex_group.command("find")
@click.argument("vertices", nargs=-1, required=True)
@user_command
def simplex_find(ctx, vertices, user, as_json):
    """Is this exact simplex stored? Exits 1 when it is not.

    \b
    Example:  graphmem simplex find Bob Alice --user alice
    """
    s = open_memory(ctx).complex(user).find(parse_vertices(vertices))
    emit(s.to_dict() if s else None, as_json,
         lambda d: simplex_table([d], "found") if d else console.print("not stored"))
    if s is None:
        ctx.exit(1)


@simplex_group.command("cofaces")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--limit", type=int, default=None, callback=at_least(1), help="At most this many, largest first.")
@user_command
def simplex_cofaces(ctx, vertices, limit, user, as_json):
    """Every stored simplex containing all the vertices.

    \b
    Example:  graphmem simplex cofaces Alice Paris --user alice
    """
    found = open_memory(ctx).complex(user).cofaces(parse_vertices(vertices), limit=limit)
    emit([s.to_dict() for s in found], as_json, lambda d: simplex_table(d, f"{len(d)} cofaces"))


@simplex_group.command("faces")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--max-dim", type=int, default=None, callback=at_least(0),
              help="Only faces up to this dimension (0: the vertices).")
@user_command
def simplex_faces(ctx, vertices, max_dim, user, as_json):
    """All faces of a simplex, each marked stored or implied only.

    \b
    Example:  graphmem simplex faces Alice Bob Paris --user alice
    """
    faces = open_memory(ctx).complex(user).faces(parse_vertices(vertices), max_dim=max_dim)
    emit([f.to_dict() for f in faces], as_json, lambda d: faces_table(d, f"{len(d)} faces"))


@simplex_group.command("gaps")
@click.argument("vertices", nargs=-1, required=True)
@user_command
def simplex_gaps(ctx, vertices, user, as_json):
    """Faces implied by stored simplices but never observed themselves: seen together only
    inside a larger simplex. (`graphmem gaps "QUESTION"` ranks a question's gaps and says what
    to ask.)

    \b
    Example:  graphmem simplex gaps Alice Bob Paris --user alice
    """
    gaps = open_memory(ctx).complex(user).gaps(parse_vertices(vertices))
    emit([f.to_dict() for f in gaps], as_json,
         lambda d: faces_table(d, f"{len(d)} faces seen only inside a larger simplex"))


@simplex_group.command("witnessed")
@click.argument("memory_id")
@user_command
def simplex_witnessed(ctx, memory_id, user, as_json):
    """The stored simplices a memory witnessed (its turn's, its session's), largest first.

    \b
    Example:  graphmem simplex witnessed e7699f5af5cd2e3c1c3d --user demo
    """
    found = open_memory(ctx).complex(user).witnessed(memory_id)
    emit([s.to_dict() for s in found], as_json, lambda d: simplex_table(d, f"{len(d)} simplices witnessed by {memory_id}"))


@simplex_group.command("remove")
@click.argument("vertices", nargs=-1, required=True)
@click.option("--cofaces", is_flag=True, help="Also remove every stored simplex containing it.")
@user_command
def simplex_remove(ctx, vertices, cofaces, user, as_json):
    """Remove a simplex (and, with --cofaces, everything containing it).

    \b
    Example:  graphmem simplex remove Alice Bob --cofaces --user alice
    """
    removed = open_memory(ctx).complex(user).remove(parse_vertices(vertices), cofaces=cofaces)
    emit({"removed": removed}, as_json, lambda d: console.print(f"removed {d['removed']} simplices"))


@click.command("stats")
@user_command(reads=True)
def stats(ctx, user, as_json):
    """Counts of a user's memory: memories, entities, relations, simplices by dimension.

    \b
    Example:  graphmem stats --user alice
              graphmem --uri neo4j://localhost:7687 --neo4j-user neo4j --neo4j-password secret stats --user alice
    """
    data = open_memory(ctx).complex(user).stats()

    def render(d):
        table = Table(title=f"memory of {d['user']}", show_header=False)
        for key in ("memories", "sessions", "entities", "mentions", "relations", "simplices", "trie_nodes", "witnessed"):
            table.add_row(key, str(d[key]))
        for dim, n in sorted(d["by_dimension"].items()):
            table.add_row(f"  dimension {dim}", str(n))
        console.print(table)

    emit(data, as_json, render)


@click.command("verify")
@user_command
def verify(ctx, user, as_json):
    """Check the simplex tree's and the memory's invariants; exits 1 on any violation.

    \b
    Example:  graphmem verify --user alice
    """
    problems = open_memory(ctx).complex(user).verify()
    emit(problems, as_json, lambda d: console.print(
        "sound: the simplex tree and the memory" if not d else "\n".join(f"{p['key']}: {p['problem']}" for p in d)))
    if problems:
        ctx.exit(1)


COMMANDS = [simplex_group, stats, verify]
