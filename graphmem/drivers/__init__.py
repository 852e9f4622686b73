"""Pick a backend from a URI: none (embedded FalkorDB), falkor://, neo4j:// or bolt://."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import BackendUnavailable, ConfigError
from ..settings import Settings
from .base import Driver

NEO4J_SCHEMES = {"neo4j", "neo4j+s", "neo4j+ssc", "bolt", "bolt+s", "bolt+ssc"}
FALKOR_SCHEMES = {"falkor", "falkordb", "redis"}


def connect(settings: Settings, auth: tuple[str, str] | None = None) -> Driver:
    uri = settings.uri
    if not uri or uri == "embedded":
        from .embedded import EmbeddedServer
        from .falkor import FalkorDriver

        server = EmbeddedServer(settings.home, settings.aof_fsync, settings.server_idle_stop)
        _writable(server.dir)
        where = f"embedded {server.dir}"
        try:
            return FalkorDriver(settings.graph, unix_socket_path=str(server.start()), where=where, revive=server.start,
                                purge=server.purge)
        except BackendUnavailable:
            if server.running():
                raise
        # it stopped itself, idle, between start() and our connection: start it again
        return FalkorDriver(settings.graph, unix_socket_path=str(server.start()), where=where, revive=server.start,
                            purge=server.purge)
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError as exc:
        raise ConfigError(f"bad URI {uri!r}: {exc}") from None
    scheme = parts.scheme.lower()
    if scheme in NEO4J_SCHEMES:
        from .neo4j import Neo4jDriver

        if auth is None and parts.username:
            auth = (parts.username, parts.password or "")
            uri = uri.replace(f"{parts.username}:{parts.password}@" if parts.password else f"{parts.username}@", "")
        return Neo4jDriver(uri, auth=auth, database=settings.graph if settings.graph != "graphmem" else None)
    if scheme in FALKOR_SCHEMES:
        from .falkor import FalkorDriver

        if not parts.hostname:
            raise ConfigError(f"bad URI {uri!r}: expected falkor://HOST:PORT")
        password = auth[1] if auth else parts.password
        return FalkorDriver(settings.graph, host=parts.hostname, port=port or 6379, password=password)
    raise ConfigError(
        f"unsupported URI {uri!r}: use falkor://HOST:PORT, neo4j://HOST:7687, bolt://HOST:7687, "
        f"or leave GRAPHMEM_URI unset for the embedded database")


__all__ = ["Driver", "connect"]


def _writable(directory: Path) -> None:
    """The embedded store's directory, made if need be, or one line saying why it cannot be."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"cannot use {directory} for the embedded store: {exc.strerror or exc} "
                          f"(set GRAPHMEM_HOME to a writable directory)") from None
    if not os.access(directory, os.W_OK | os.X_OK):
        raise ConfigError(f"cannot write to {directory} for the embedded store: read-only "
                          f"(set GRAPHMEM_HOME to a writable directory)")

