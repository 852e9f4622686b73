"""`Memory`: the library's entry point. One connection, one handle per user."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import queries
from .complex import Complex
from .drivers import Driver, connect
from .settings import Settings


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
            from dataclasses import replace

            changes = dict(overrides)
            if uri is not None:
                changes["uri"] = uri
            if home is not None:
                changes["home"] = Path(home).expanduser()
            base = replace(base, **changes)
            base.validate()
        self.settings = base
        self.driver: Driver = connect(self.settings, auth)
        if setup:
            self.setup()

    def setup(self) -> None:
        """Install the schema and bring stored data up to this version's layout (idempotent)."""
        schema = self.query("schema")
        self.driver.install_schema(schema.statements(), {"dimensions": self.settings.embedding_dimensions})
        self.run("migrate_lists")

    def query(self, name: str) -> queries.Query:
        return queries.load(name, self.driver.dialect)

    def run(self, name: str, read_only: bool = False, **params: Any) -> list[dict]:
        """Run the operation `name` from cypher/ with its declared parameters."""
        query = self.query(name)
        missing = set(query.params) - set(params)
        if missing:
            raise TypeError(f"{query.path.name} needs parameters {sorted(missing)}")
        return self.driver.run(query.text, {k: params[k] for k in query.params}, read_only=read_only)

    def cypher(self, name: str, **params: Any) -> str:
        """The statement and its parameters as Neo4j Browser takes them (`:param` lines)."""
        import json

        query = queries.load(name, "neo4j")
        lines = [f":param {k} => {json.dumps(params.get(k))};" for k in query.params]
        return "\n".join(lines + ["", query.text])

    def complex(self, user: str) -> Complex:
        return Complex(self, user)

    def ingest(self, source, user: str, **options: Any):
        """Ingest chat transcripts (paths, or parsed turns) into `user`'s memory; see graphmem.ingest."""
        from .ingest import ingest

        return ingest(self, source, user=user, **options)

    def recall(self, query: str, user: str, k: int = 10, **options: Any):
        """The memories worth putting in context for `query`, with their structure; see graphmem.recall."""
        from .recall import recall

        return recall(self, query, user=user, k=k, **options)

    def embedder(self):
        """The configured sentence-transformers model (loaded once per process)."""
        from .models import embedder
        from .errors import ConfigError

        model = embedder(self.settings.embedding_model, self.settings.embedding_precision)
        if model.dimensions != self.settings.embedding_dimensions:
            raise ConfigError(
                f"embedding model {self.settings.embedding_model!r} gives {model.dimensions}-d vectors but the "
                f"indexes are sized {self.settings.embedding_dimensions}; set GRAPHMEM_EMBEDDING_DIMENSIONS")
        return model

    def nlp(self):
        """The configured spaCy pipeline (loaded once per process)."""
        from .models import nlp

        return nlp(tuple(self.settings.spacy_models))

    def close(self) -> None:
        self.driver.close()

    def __enter__(self) -> "Memory":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Memory({self.driver.describe()})"
