"""`graphmem add`, `list`, `show`, `history`, `supersede`, `unsupersede`, `conversations`, `users`
and `forget`: writing as an agent does, reading what is stored, setting right what superseded
what, and forgetting; each one library call."""

from __future__ import annotations

import json
from dataclasses import asdict
import sys

import click
from rich.table import Table

from ..errors import InputError
from ..keys import parse_time
from ..records import STATES
from .common import (at_least, console, cypher_option, emit, friendly_errors, json_option, open_memory, planning,
                     uri_option, user_command)


@click.command("add")
@click.argument("text", required=False)
@click.option("--speaker", default="user", show_default=True, help="Who said TEXT.")
@click.option("--messages", "messages_file", type=click.File("r"), default=None,
              help="A JSON array of chat messages (OpenAI or Anthropic format; - for standard input).")
@click.option("--conversation", default="default", show_default=True, help="The conversation they continue.")
@click.option("--at", default=None, help="Their time, when they carry none (ISO; default: now).")
@user_command(reads=True)
def add_command(ctx, text, speaker, messages_file, conversation, at, user, as_json):
    """Add a message (TEXT) or an agent's messages (--messages FILE) to the memory, as an agent
    does while it talks. Messages already stored are not added twice.

    \b
    Example:  graphmem add "I moved to Berlin." --speaker Sam --user sam
              graphmem add --messages chat.json --conversation support-42 --user sam
    """
    if (text is None) == (messages_file is None):
        raise click.UsageError("give TEXT or --messages FILE, one of them")
    if messages_file is not None:
        name = getattr(messages_file, "name", "messages")
        try:
            messages = json.load(messages_file)
        except json.JSONDecodeError as exc:
            raise click.ClickException(f"{name}:{exc.lineno}: bad JSON: {exc.msg}") from None
        if isinstance(messages, dict) and "messages" in messages:
            messages = messages["messages"]
    elif not text.strip():
        raise click.ClickException("TEXT is empty: nothing to add")
    else:
        messages = [(speaker, text)]
    mem = open_memory(ctx)
    try:
        summary = mem.add(messages, user=user, conversation=conversation, at=parse_time(at, "--at"))
    except InputError as exc:
        if messages_file is None or exc.source != "messages":
            raise
        # the library counts the messages it was given; here they are a file's
        where = f"message {exc.line}: " if exc.line else ""
        raise click.ClickException(f"{name}: {where}{exc.detail}") from None
    emit(summary.to_dict(), as_json, lambda d: console.print(
        f"added {d['memories_added']} of {d['turns']} messages to {user}'s conversation {conversation!r}"
        + "".join(f"\n{pair['by']} supersedes {pair['id']}" for pair in d["superseded"])))


def _memories_table(rows: list[dict], title: str) -> None:
    table = Table(title=title)
    table.add_column("id", no_wrap=True, min_width=20)
    # what --conversation takes is folded, never cut; a date is its day, whole, over its time
    table.add_column("conversation", overflow="fold")
    table.add_column("date", no_wrap=True, min_width=10)
    for column in ("speaker", "memory", "state"):
        table.add_column(column)
    for m in rows:
        table.add_row(m["id"], m["conversation"] or "", (m["date"] or "")[:16].replace("T", "\n"), m["speaker"], m["text"],
                      m["state"])
    console.print(table)


@click.command("list")
@click.option("--conversation", default=None, help="Only this conversation's memories.")
@click.option("--speaker", default=None, help="Only what this speaker said.")
@click.option("--entity", default=None, help="Only memories that mention this entity (name or alias).")
@click.option("--since", default=None, help="Only from this time on (ISO).")
@click.option("--until", default=None, help="Only before this time (ISO).")
@click.option("--limit", default=20, show_default=True, type=int, callback=at_least(1), help="Memories per page.")
@click.option("--after", default=None, metavar="ID", help="The page after this memory id (the last one shown).")
@click.option("--state", type=click.Choice(STATES), default=None,
              help="Only memories in this lifecycle state (archived: those recall leaves out).")
@click.option("--superseded/--current", default=None,
              help="Only memories a newer one superseded (in whole or in part) / only the others.")
@user_command
def list_command(ctx, conversation, speaker, entity, since, until, limit, after, state, superseded, user, as_json):
    """List the stored memories, oldest first, a page at a time.

    \b
    Example:  graphmem list --user sam --entity Berlin
    """
    mem = open_memory(ctx)
    page = mem.memories(user, conversation=conversation, speaker=speaker, entity=entity, since=parse_time(since, "--since"),
                        until=parse_time(until, "--until"), limit=limit, after=after, state=state,
                        superseded=superseded)
    rows = [m.to_dict() for m in page]

    def render(rows: list[dict]) -> None:
        _memories_table(rows, f"{user}: {len(rows)} memories")
        if len(rows) == limit:
            console.print(f"next page: --after {rows[-1]['id']}", style="dim")

    emit(rows, as_json, render)


@click.command("show")
@click.argument("memory_id")
@user_command
def show_command(ctx, memory_id, user, as_json):
    """One stored memory, whole: its text, speaker, time, conversation, place and entities."""
    mem = open_memory(ctx)
    found = mem.get(memory_id, user=user)
    if found is None:
        raise click.ClickException(f"no memory {memory_id!r} for user {user!r}")

    def render(d: dict) -> None:
        table = Table(show_header=False)
        for key, value in d.items():
            table.add_row(key, ", ".join(value) if isinstance(value, list) else str(value if value is not None else ""))
        console.print(table)

    emit(found.to_dict(), as_json, render)


@click.command("conversations")
@user_command
def conversations_command(ctx, user, as_json):
    """The user's conversations, with how many memories each and their first and last dates."""
    mem = open_memory(ctx)
    rows = [c.to_dict() for c in mem.conversations(user)]

    def render(rows: list[dict]) -> None:
        table = Table(title=f"{user}: {len(rows)} conversations")
        for column in ("conversation", "memories", "first", "last"):
            table.add_column(column)
        for c in rows:
            table.add_row(c["id"], str(c["memories"]), (c["first"] or "")[:10], (c["last"] or "")[:10])
        console.print(table)

    emit(rows, as_json, render)


@click.command("users")
@uri_option
@json_option
@cypher_option()
@click.pass_context
@friendly_errors
def users_command(ctx, as_json):
    """Every user the store holds, with how many memories each."""
    mem = open_memory(ctx)
    rows = mem.users()

    def render(rows: list[dict]) -> None:
        table = Table(title=f"{len(rows)} users")
        table.add_column("user")
        table.add_column("memories")
        for u in rows:
            table.add_row(u["user"], str(u["memories"]))
        console.print(table)

    emit(rows, as_json, render)


@click.command("forget")
@click.option("--memory", "memory_ids", multiple=True, metavar="ID", help="Forget this memory (repeatable).")
@click.option("--conversation", default=None, help="Forget this conversation.")
@click.option("--entity", default=None, help="Forget every memory that mentions this entity.")
@click.option("--before", default=None, help="Forget every memory before this time (ISO).")
@click.option("--everything", is_flag=True, help="Forget the whole user.")
@click.option("--yes", is_flag=True, help="Do not ask before forgetting the whole user.")
@user_command(reads=True)
def forget_command(ctx, memory_ids, conversation, entity, before, everything, yes, user, as_json):
    """Forget memories, leaving no trace: with them go everything only they justified (term
    statistics, relations, simplices, entities) and their vectors. Logged, without the content.

    \b
    Example:  graphmem forget --conversation trip-2023 --user sam
              graphmem forget --everything --user sam --yes
    """
    given = [bool(memory_ids), conversation is not None, entity is not None, before is not None, everything]
    if sum(given) != 1:  # the library's own message names its arguments, not these options
        raise click.ClickException("give exactly one of --memory, --conversation, --entity, --before, --everything")
    if everything and not yes and sys.stdin.isatty() and not planning(ctx):
        click.confirm(f"Forget everything of {user!r}?", abort=True)
    mem = open_memory(ctx)
    done = mem.forget(user, memories=list(memory_ids) or None, conversation=conversation, entity=entity,
                      before=parse_time(before, "--before"), everything=everything)
    emit(done.to_dict(), as_json, lambda d: console.print(
        f"forgot {d['memories']} memories of {user}" + (f" ({d['nodes']} nodes)" if d["nodes"] else
                                                        f"; {d['entities']} entities and {d['simplices']} simplices "
                                                        f"went with them")))
    if done.missing:  # a mistyped id is not a success: what was found is forgotten all the same
        names = ", ".join(repr(uid) for uid in done.missing)
        raise click.ClickException(f"no memory {names} for user {user!r} (never stored, or forgotten already)")


@click.command("history")
@click.argument("memory_id")
@user_command(reads=True)
def history_command(ctx, memory_id, user, as_json):
    """The versions of what a memory said, oldest first: when each was said, until when it held,
    and what superseded it."""
    mem = open_memory(ctx)
    versions = mem.history(memory_id, user=user)
    if not versions:
        raise click.ClickException(f"no memory {memory_id!r} for user {user!r}")
    _emit_versions(versions, as_json)


@click.command("supersede")
@click.argument("newer")
@click.argument("older")
@user_command(reads=True)
def supersede_command(ctx, newer, older, user, as_json):
    """Say that memory NEWER supersedes memory OLDER: a new value for what the older one said,
    where none was read. Recall then gives the newer one first and marks the older superseded.
    Shows the older one's versions.

    \b
    Example:  graphmem supersede 9c1e... 41ab... --user sam
    """
    _emit_versions(open_memory(ctx).supersede(newer, older, user=user), as_json)


@click.command("unsupersede")
@click.argument("newer")
@click.argument("older")
@user_command(reads=True)
def unsupersede_command(ctx, newer, older, user, as_json):
    """Say that memory NEWER does not supersede memory OLDER (a link read wrongly): both hold,
    and memories added later leave it so. Shows the older one's versions.

    \b
    Example:  graphmem unsupersede 9c1e... 41ab... --user sam
    """
    _emit_versions(open_memory(ctx).unsupersede(newer, older, user=user), as_json)


def _emit_versions(versions: list, as_json: bool) -> None:
    rows = [{**asdict(v), "current": v.current} for v in versions]

    def render(rows: list[dict]) -> None:
        table = Table(title=f"{len(rows)} versions, oldest first")
        table.add_column("id", no_wrap=True, min_width=20)  # what show, forget and history take: never cut
        for column in ("said", "until", "speaker", "text"):
            table.add_column(column)
        for v in rows:
            until = (v["valid_until"] or "")[:10] or "now"
            basis = f" ({v['superseded_by'][0]['basis']})" if v["superseded_by"] else ""
            table.add_row(v["uid"], (v["said_at"] or "")[:10], until + basis, v["speaker"] or "", v["text"])
        console.print(table)

    emit(rows, as_json, render)


COMMANDS = [add_command, list_command, show_command, history_command, supersede_command, unsupersede_command,
            conversations_command, users_command, forget_command]
