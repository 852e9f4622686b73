"""`Memory`: the library's entry point. It composes the layers below it (a `Store`, the
`Models`, `Complex`, ingest, recall) and is imported by none of them."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable, Sequence

from . import lifecycle
from . import consolidation, records
from . import transfer
from .complex import Complex
from .drivers import Driver, connect
from .errors import GraphmemError, InputError
from .forgetting import Forgotten, forget_memories, forget_user, leftovers, log_erasure
from .ingest import IngestSummary, Progress, Source, ingest
from .ingest.claims import ACTIONS_LAYOUT, rekey_instructions
from .ingest.lease import UserLease
from .ingest.messages import to_turns
from .keys import check_user
from .models import Models
from .records import Conversation, StoredMemory
from .recall import CHANNELS, Gaps, Recollection, gaps, recall
from .settings import Settings
from .store import Store
from . import supersession


class Memory:
    """A memory store on one backend.

    >>> mem = Memory()                                   # embedded FalkorDB
    >>> mem = Memory("neo4j://localhost:7687", auth=("neo4j", "secret"))
    >>> cx = mem.complex(user="alice")
    """

    def __init__(self, uri: str | None = None, *, auth: tuple[str, str] | None = None,
                 home: str | Path | None = None, settings: Settings | None = None, setup: bool = True,
                 **overrides: Any):
        base = settings or Settings.from_env()
        if uri is not None or home is not None or overrides:
            changes = dict(overrides)
            if uri is not None:
                changes["uri"] = uri
            if home is not None:
                changes["home"] = Path(home).expanduser()
            base = replace(base, **changes)
            base.validate()
        self.settings = base
        self.store = Store(connect(self.settings, auth), self.settings)
        self.models = Models(self.settings)
        self._added: set[str] = set()  # users `add` wrote to: their consolidation may wait
        if setup:
            self.setup()

    @property
    def driver(self) -> Driver:
        return self.store.driver

    def setup(self) -> None:
        """Install the schema and bring stored data up to this version's layout (idempotent)."""
        self.store.install_schema()
        if not self.store.run("layout_done", layout=ACTIONS_LAYOUT)[0]["done"]:  # once per graph
            for row in self.store.run("list_users"):
                rekey_instructions(self.store, row["user"])
            self.store.run("mark_layout", layout=ACTIONS_LAYOUT)

    def run(self, name: str, **params: Any) -> list[dict]:
        """Run the operation `name` from cypher/ with its declared parameters."""
        return self.store.run(name, **params)

    def cypher(self, name: str, **params: Any) -> str:
        """The statement and its parameters as Neo4j Browser takes them (`:param` lines)."""
        return self.store.cypher(name, **params)

    def complex(self, user: str) -> Complex:
        """Handle on `user`'s simplicial complex."""
        return Complex(self.store, user)

    def ingest(self, source: Source, *, user: str, format: str | None = None, dry_run: bool = False,
               progress: Progress | None = None, conversation: str | None = None) -> IngestSummary:
        """Ingest chat transcripts (paths, or parsed `Turn`s) into `user`'s memory. Every file is
        validated before anything is written; running it again changes nothing, and running it
        on an edited transcript adds what is new and replaces what was edited. Each transcript
        is its own conversation (found again by its content) unless `conversation` names one."""
        return self._purged(ingest(self.store, self.models, source, user=user, format=format, dry_run=dry_run,
                                   progress=progress, conversation=conversation))

    def _purged(self, summary: IngestSummary) -> IngestSummary:
        """An edited message's old text went with its memory: no file in the home keeps it
        (the embedded server's log is rewritten, as after a forget)."""
        if summary.memories_replaced:
            self.driver.purge_logs()
        return summary

    def add(self, messages: Any, *, user: str, conversation: str = "default", at: datetime | None = None,
            keep_tool_results: bool | None = None) -> IngestSummary:
        """Add what an agent holds to `user`'s memory, recallable when this returns: one string,
        `(speaker, text)` pairs, or chat messages in the OpenAI or Anthropic format (a message's
        speaker is its `name`, else its role; system prompts and tool plumbing are left out, tool
        results too unless `keep_tool_results`). New messages continue `conversation`; messages
        it already holds (by their `id`, else by what they say) are not added twice, so a retry
        or the whole history passed again changes nothing. `at`: the time of messages that carry
        none (default: now). The summary's `superseded` names the older memories they superseded
        (`{"id": older, "by": newer}`), for the agent to check (`unsupersede` undoes one)."""
        keep = self.settings.keep_tool_results if keep_tool_results is None else keep_tool_results
        turns = to_turns(messages, keep_tool_results=keep, at=at or datetime.now(timezone.utc), source="messages")
        if not turns:
            return IngestSummary(check_user(user))
        self._added.add(check_user(user))  # consolidation may wait: done at close at the latest
        summary = self._purged(ingest(self.store, self.models, turns, user=user, conversation=conversation,
                                      whole=False))
        summary.superseded = supersession.superseded_by(self.store, user, summary.memory_ids)
        return summary

    def memories(self, user: str, *, conversation: str | None = None, speaker: str | None = None,
                 since: datetime | None = None, until: datetime | None = None, entity: str | None = None,
                 limit: int | None = records.PAGE, after: str | None = None,
                 state: str | None = None, superseded: bool | None = None) -> list[StoredMemory]:
        """A page of `user`'s memories, oldest first, filtered (`state`: only those in this
        lifecycle state, "archived" for the ones recall leaves out; `superseded`: True only those a
        newer memory superseded, in whole or in part, False only the others); pass the last id as `after`
        for the next page (an empty page is the end; an `after` that is no memory of the user's
        is refused, not read as the start)."""
        return records.memories(self.store, user, conversation=conversation, speaker=speaker, since=since,
                                until=until, entity=entity, limit=limit, after=after, state=state,
                                superseded=superseded)

    def get(self, memory_id: str, *, user: str) -> StoredMemory | None:
        """One memory by its id, or None."""
        return records.get(self.store, user, memory_id)

    def users(self) -> list[dict]:
        """Every user the store holds, with how many memories each."""
        return records.users(self.store)

    def conversations(self, user: str) -> list[Conversation]:
        """`user`'s conversations, oldest first."""
        return records.conversations(self.store, user)

    def forget(self, user: str, *, memories: Iterable[str] | None = None, conversation: str | None = None,
               entity: str | None = None, before: datetime | None = None, everything: bool = False) -> Forgotten:
        """Forget, leaving no trace: the memories named (by id, by conversation, those mentioning
        an entity, those before a time, or all of the user's), with everything only they
        justified (graphmem/forgetting.py). Exactly one of the selectors; ids that are no memory
        of the user (never stored, or forgotten already) are named in `missing`. The erasure is logged
        in `erasures.jsonl` in the graphmem home, without what was erased. A user nothing was
        stored for has nothing to forget: nothing is written, and no user is made."""
        check_user(user)
        chosen = {"memories": memories is not None, "conversation": conversation is not None,
                  "entity": entity is not None, "before": before is not None, "everything": everything}
        kinds = [k for k, given in chosen.items() if given]
        if len(kinds) != 1:
            raise InputError("forget takes exactly one of memories=, conversation=, entity=, before=, everything=True")
        if isinstance(memories, str):
            raise InputError("memories= takes a list of memory ids, not one string")
        if not self.store.run("user_exists", user_id=user)[0]["known"]:  # nothing to forget: nothing written
            if entity is not None:
                raise InputError(f"no entity called {entity!r} for user {user!r}")
            return Forgotten(user, kinds[0], missing=list(dict.fromkeys(memories or [])))
        lifecycle.flush_accesses(self.store, user)  # so that no access noted in this process outlives what is forgotten
        with UserLease(self.store, user) as lease:
            if everything:
                done = forget_user(self.store, user)
            else:
                if memories is not None:
                    uids = list(dict.fromkeys(memories))
                else:
                    vids = records.entity_vids(self.store, user, entity) if entity is not None else []
                    if entity is not None and not vids:
                        raise InputError(f"no entity called {entity!r} for user {user!r}")
                    uids = [row["uid"] for row in self.store.run(
                        "forget_select", user_id=user, conversation=conversation, vids=vids, all=False,
                        before=before.replace(tzinfo=before.tzinfo or timezone.utc).timestamp() if before else None)]
                if lease.unfinished:  # what an interrupted forget left half-done is finished too
                    Complex(self.store, user).finish_unwitnessing()
                    uids = list(dict.fromkeys(leftovers(self.store, user) + uids))
                    self.store.run("count_memories", user_id=user, force=True)
                # the model loads only if an entity must be renamed (its naming memories forgotten)
                done = forget_memories(self.store, Complex(self.store, user), uids,
                                       lambda texts: self.models.embedder().embed(texts), kind=kinds[0])
                if lease.unfinished:  # what an interrupted ingest left is not memory either
                    self.store.run("prune_entities", user_id=user, before=time.time())
                    consolidation.refresh(self.store, user)  # an interrupted forget's stale abstracts
                lease.settle(None)  # entities changed: no process's copy of the catalogue holds
        if done.memories or done.nodes:  # the embedded server's log still holds what went: rewritten
            self.driver.purge_logs()
        log_erasure(self.settings.home / "erasures.jsonl", done)
        return done

    def history(self, memory_id: str, *, user: str) -> list[supersession.Version]:
        """The versions of what a memory said, oldest first: it and the memories that superseded
        it or that it superseded (a newer value for the same subject and attribute), each with
        when it was said and until when it held (graphmem/supersession.py). Empty for an
        unknown id."""
        return supersession.history(self.store, check_user(user), memory_id)

    def supersede(self, newer: str, older: str, *, user: str) -> list[supersession.Version]:
        """Say that memory `newer` supersedes memory `older`: it gives a new value for what the
        older one said, where no claim was read ("the new sprint deadline of April 5" after "a
        deadline of April 1"). Recall then answers the present with the newer one first and the
        older below it, marked superseded, as for a link read at write time. The older one's
        versions, as `history` gives them. Idempotent; `unsupersede` undoes it."""
        return self._by_hand(newer, older, user, supersede=True)

    def unsupersede(self, newer: str, older: str, *, user: str) -> list[supersession.Version]:
        """Say that memory `newer` does not supersede memory `older`, though a claim read says so
        (a link read wrongly): both hold, and later memories leave it so. The older one's
        versions, as `history` gives them. Idempotent; `supersede` undoes it."""
        return self._by_hand(newer, older, user, supersede=False)

    def _by_hand(self, newer: str, older: str, user: str, supersede: bool) -> list[supersession.Version]:
        check_user(user)
        supersession.check_pair(self.store, user, newer, older)  # before the lease: no user is made for nothing
        with UserLease(self.store, user) as lease:
            supersession.by_hand(self.store, user, newer, older, supersede, time.time())
            if not lease.unfinished:  # what an interrupted writer left stays for the next ingest to finish
                lease.settle(lease.catalog)
        return supersession.history(self.store, user, older)

    def abstracts(self, user: str) -> list[consolidation.Abstract]:
        """`user`'s abstract memories, oldest first: groups of memories that share an entity
        within a span of time, each summarised by its members' most central sentences
        (graphmem/consolidation.py). Kept current as memories are added and forgotten: what
        `add` left waiting is derived first."""
        self.consolidate(user, rebuild=False)
        return consolidation.abstracts(self.store, check_user(user))

    def consolidate(self, user: str, *, rebuild: bool = True) -> consolidation.Consolidated:
        """Derive every abstract of `user` again from the memories (abstracts are derived state:
        this changes nothing on a store kept current, and rebuilds them on any other).
        `rebuild=False`: only the groups of what `add` left waiting and of what a forget changed."""
        check_user(user)
        if not rebuild and not consolidation.deferred(self.store, user):
            return consolidation.Consolidated()
        with UserLease(self.store, user) as lease:
            done = consolidation.consolidate(self.store, user, None if rebuild else [])
            # finished: the user is as the last writer left it (abstracts and simplices change,
            # never entities, so its catalogue holds); one a crashed writer left unfinished stays
            # so for the next ingest or forget, which finish what it left half-done
            if not lease.unfinished:
                lease.settle(lease.catalog)
            return done

    def recall(self, query: str, *, user: str, k: int = 10, token_budget: int | None = None,
               asker: str | None = None, channels: Sequence[str] = CHANNELS, neighbours: bool = True,
               rank: bool = True, keep_candidates: bool = False, include_archived: bool = False,
               abstracts: bool = True, asked_at: datetime | None = None) -> Recollection:
        """The memories worth putting in context for `query`, ranked, with their structure.

        `asker`: who asks, whose "I" and "my" the question means; `token_budget`: trim the
        memories to fit; `channels`, `neighbours`, `rank`: leave parts of recall out (ablations);
        `keep_candidates`: keep the ranker's input (to fit a ranker); `include_archived`: archived
        memories too (`maintain`); `abstracts`: False leaves out what abstract memories lend
        their members (`abstracts`); `asked_at`: when the question is asked (default: now), what
        a date it names without a year ("in January") or relative to now ("last week") is read
        from, for a history replayed later."""
        return recall(self.store, self.models, query, user=user, k=k, token_budget=token_budget, asker=asker,
                      channels=channels, neighbours=neighbours, rank=rank, keep_candidates=keep_candidates,
                      include_archived=include_archived, abstracts=abstracts, asked_at=asked_at)

    def gaps(self, query: str, *, user: str, asker: str | None = None) -> Gaps:
        """What memory lacks around `query`, real holes first, each phrased as a question the
        agent could ask: names memory does not know, entities it names never seen together,
        and those seen together only inside a larger observation (no hole). The gaps `recall`
        gives, without recalling memories (none is counted as accessed)."""
        return gaps(self.store, self.models, query, user=user, asker=asker)

    def maintain(self, user: str | None = None, *, now: datetime | None = None,
                 dry_run: bool = False) -> lifecycle.Maintained:
        """Move every user's memories (or `user`'s) through active, warm, cold and archived by
        the rule in graphmem/lifecycle.py, as of `now` (default: now); `dry_run` only counts.
        Archived memories leave recall and are never deleted. Idempotent."""
        return lifecycle.maintain(self.store, user, now, dry_run)

    def close(self) -> None:
        try:
            for user in sorted(self._added):
                self.consolidate(user, rebuild=False)
        except GraphmemError as exc:  # closing goes on: the note of what waits is kept for a later pass
            logging.getLogger(__name__).warning("abstracts not derived on close: %s", exc)
        self._added.clear()
        try:
            lifecycle.flush_accesses(self.store)
        except GraphmemError as exc:  # closing goes on: the counts are a hint, not memory
            logging.getLogger(__name__).warning("recall accesses not written on close: %s", exc)
        self.store.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.store.describe()})"

    def export(self, user: str, file: transfer.Destination, *,
               progress: transfer.Progress | None = None) -> transfer.TransferSummary:
        """Write `user`'s whole memory to `file` as JSON Lines (a path, compressed when it ends
        in .gz, or a text stream): memories with their vectors, entities, relations, simplices
        with their counts and witnesses. `import_` reads it into any backend."""
        return transfer.export(self.store, user, file, progress=progress)

    def import_(self, file: transfer.Source, *, user: str | None = None, replace: bool = False,
                progress: transfer.Progress | None = None) -> transfer.TransferSummary:
        """Read a file `export` wrote, under the user it was exported from or under `user`. The
        whole file is checked before anything is written; a user that holds memories is
        refused (`transfer.UserNotEmpty`) unless `replace`, which deletes them first. An import
        interrupted anywhere and run again completes as if it had never stopped."""
        done = transfer.import_(self.store, file, user=user, replace=replace, progress=progress)
        if replace:  # what the import replaced is in no file of the home either
            self.driver.purge_logs()
        return done
