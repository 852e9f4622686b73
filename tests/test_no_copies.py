"""A memory layer keeps no copy of user text outside the graph: the embedded server records no
query telemetry and writes no crash report (which would list the running queries), so what a
user asked is nowhere in its files after a restart and a rewrite."""

from __future__ import annotations

import time
from pathlib import Path

from graphmem import Memory, Settings
from graphmem.drivers.embedded import EmbeddedServer

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "chat.txt"


def test_no_query_text_is_kept_in_the_store_files(tmp_path):
    settings = Settings(home=tmp_path, server_idle_stop=0)
    secret = "quokkazebra"
    with Memory(settings=settings) as mem:
        mem.ingest(EXAMPLE, user="u")
        mem.recall(f"Did Alice ever see a {secret} in Lisbon?", user="u", k=3)
        connection = mem.driver._db.connection
        assert not connection.keys("telemetry*")
        # a crash report would list the running queries with their parameters
        assert connection.config_get("crash-log-enabled") == {"crash-log-enabled": "no"}
        connection.bgrewriteaof()
        deadline = time.monotonic() + 30
        while connection.info("persistence")["aof_rewrite_in_progress"] and time.monotonic() < deadline:
            time.sleep(0.1)
    server = EmbeddedServer(tmp_path)
    server.stop()
    found = [p for p in tmp_path.rglob("*") if p.is_file() and secret.encode() in p.read_bytes()]
    assert found == []
    with Memory(settings=settings) as mem:  # and the store is whole after the restart
        assert mem.complex("u").verify() == []
    server.stop()
