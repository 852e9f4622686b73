"""`Memory`: the library's entry point. It composes the layers below it (a `Store`, the
`Models`, `Complex`, ingest, recall) and is imported by none of them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Sequence

from . import transfer
from .complex import Complex
from .drivers import Driver, connect
from .ingest import IngestSummary, Progress, Source, ingest
from .models import Models
from .recall import CHANNELS, Recollection, recall
from .settings import Settings
from .store import Store


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
        if setup:
            self.setup()

    @property
    def driver(self) -> Driver:
        return self.store.driver

    def setup(self) -> None:
        """Install the schema and bring stored data up to this version's layout (idempotent)."""
        self.store.install_schema()

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
               progress: Progress | None = None) -> IngestSummary:
        """Ingest chat transcripts (paths, or parsed `Turn`s) into `user`'s memory. Every file is
        validated before anything is written; running it again changes nothing."""
        return ingest(self.store, self.models, source, user=user, format=format, dry_run=dry_run,
                      progress=progress)

    def recall(self, query: str, *, user: str, k: int = 10, token_budget: int | None = None,
               asker: str | None = None, channels: Sequence[str] = CHANNELS, neighbours: bool = True,
               rank: bool = True, keep_candidates: bool = False) -> Recollection:
        """The memories worth putting in context for `query`, ranked, with their structure.

        `asker`: who asks, whose "I" and "my" the question means; `token_budget`: trim the
        memories to fit; `channels`, `neighbours`, `rank`: leave parts of recall out (ablations);
        `keep_candidates`: keep the ranker's input (to fit a ranker)."""
        return recall(self.store, self.models, query, user=user, k=k, token_budget=token_budget, asker=asker,
                      channels=channels, neighbours=neighbours, rank=rank, keep_candidates=keep_candidates)

    def close(self) -> None:
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
        return transfer.import_(self.store, file, user=user, replace=replace, progress=progress)
