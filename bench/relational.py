"""The relational reference design of the simplicial-memory paper, on a throwaway PostgreSQL.

One table `simplex_vertex` holds the simplex tree, one row per trie node:

    simplex_vertex(node_id serial primary key, user_id int, parent_id int references simplex_vertex,
                   vertex_id int, depth int, type text, meta_data jsonb)

with unique indexes on (user_id, parent_id, vertex_id) for non-root rows and (user_id, vertex_id)
for roots, a hash index on parent_id and an index on (user_id, vertex_id, depth). A node that
ends an inserted word carries `type` (the simplex's kind) and `meta_data` {count, first_seen,
last_seen}; a prefix-only node has neither.

Two forms, each in its own schema of one cluster, same data:

- `AsWritten`: the design as the paper drives it with asyncpg. Insert walks the word, one
  SELECT per letter and an INSERT per new node, in one transaction; find walks the same way;
  cofaces selects the candidate nodes of the last vertex at sufficient depth, walks each up to
  the root one query per step, and collects each matching subtree one query per node.
- `SetBased`: the same table at its best: a batch insert is one call of a set-based PL/pgSQL
  function (one INSERT .. ON CONFLICT per depth), find and faces one recursive CTE over all
  the keys, cofaces one recursive CTE (candidates, up-walk, containment, down-walk).
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import asyncpg

SCHEMA = """
CREATE SCHEMA {s};
SET search_path = {s};
CREATE TABLE simplex_vertex (
  node_id serial PRIMARY KEY,
  user_id int,
  parent_id int REFERENCES simplex_vertex,
  vertex_id int,
  depth int,
  type text,
  meta_data jsonb);
CREATE UNIQUE INDEX sv_child ON simplex_vertex (user_id, parent_id, vertex_id) WHERE parent_id IS NOT NULL;
CREATE UNIQUE INDEX sv_root ON simplex_vertex (user_id, vertex_id) WHERE parent_id IS NULL;
CREATE INDEX sv_parent ON simplex_vertex USING hash (parent_id);
CREATE INDEX sv_label ON simplex_vertex (user_id, vertex_id, depth);
"""

# a stored simplex's counters, raised by n observations at time $at
BUMP = """type = coalesce(simplex_vertex.type, {kind}),
  meta_data = jsonb_build_object(
    'count', coalesce((simplex_vertex.meta_data->>'count')::int, 0) + {n},
    'first_seen', least((simplex_vertex.meta_data->>'first_seen')::float8, {at}),
    'last_seen', greatest((simplex_vertex.meta_data->>'last_seen')::float8, {at}))"""

INSERT_FUNCTION = """
CREATE FUNCTION insert_words(p_user int, p_words text[], p_kind text, p_at float8) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE d int; maxd int;
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS _prefix (key text PRIMARY KEY, parent text, vertex int, depth int, node_id int)
    ON COMMIT DELETE ROWS;
  INSERT INTO _prefix (key, parent, vertex, depth)
    SELECT DISTINCT array_to_string(w[1:i], ','), CASE WHEN i > 1 THEN array_to_string(w[1:i - 1], ',') END, w[i], i
    FROM (SELECT string_to_array(k, ',')::int[] AS w FROM unnest(p_words) k) ws, generate_subscripts(ws.w, 1) i;
  SELECT max(depth) INTO maxd FROM _prefix;
  FOR d IN 1..maxd LOOP
    IF d = 1 THEN
      INSERT INTO simplex_vertex (user_id, parent_id, vertex_id, depth)
        SELECT p_user, NULL, p.vertex, 1 FROM _prefix p WHERE p.depth = 1 ORDER BY p.vertex
        ON CONFLICT DO NOTHING;
      UPDATE _prefix p SET node_id = s.node_id FROM simplex_vertex s
        WHERE p.depth = 1 AND s.user_id = p_user AND s.parent_id IS NULL AND s.vertex_id = p.vertex;
    ELSE
      INSERT INTO simplex_vertex (user_id, parent_id, vertex_id, depth)
        SELECT p_user, q.node_id, p.vertex, d FROM _prefix p JOIN _prefix q ON q.key = p.parent
        WHERE p.depth = d ORDER BY q.node_id, p.vertex
        ON CONFLICT DO NOTHING;
      UPDATE _prefix p SET node_id = s.node_id FROM _prefix q, simplex_vertex s
        WHERE p.depth = d AND q.key = p.parent AND s.user_id = p_user AND s.parent_id = q.node_id
          AND s.vertex_id = p.vertex;
    END IF;
  END LOOP;
  UPDATE simplex_vertex SET """ + BUMP.format(kind="p_kind", n="c.n", at="p_at") + """
    FROM (SELECT k, count(*) AS n FROM unnest(p_words) k GROUP BY k) c JOIN _prefix p ON p.key = c.k
    WHERE simplex_vertex.node_id = p.node_id;
  RETURN maxd;
END $$;
"""

LOOKUP_CTE = """
WITH RECURSIVE q AS (SELECT k AS key, string_to_array(k, ',')::int[] AS w FROM unnest($2::text[]) k),
walk (key, w, i, node_id) AS (
  SELECT q.key, q.w, 1, s.node_id FROM q
  JOIN simplex_vertex s ON s.user_id = $1 AND s.parent_id IS NULL AND s.vertex_id = q.w[1]
  UNION ALL
  SELECT walk.key, walk.w, walk.i + 1, s.node_id FROM walk
  JOIN simplex_vertex s ON s.user_id = $1 AND s.parent_id = walk.node_id AND s.vertex_id = walk.w[walk.i + 1]
  WHERE walk.i < cardinality(walk.w))
SELECT walk.key, coalesce((s.meta_data->>'count')::int, 0) AS count, s.type, s.meta_data
FROM walk JOIN simplex_vertex s ON s.node_id = walk.node_id
WHERE walk.i = cardinality(walk.w)
"""

COFACES_CTE = """
WITH RECURSIVE cand AS (
  SELECT node_id, parent_id, vertex_id FROM simplex_vertex
  WHERE user_id = $1 AND vertex_id = $2 AND depth >= $3),
up (cand, cur, path) AS (
  SELECT node_id, parent_id, ARRAY[vertex_id] FROM cand
  UNION ALL
  SELECT up.cand, s.parent_id, s.vertex_id || up.path FROM up JOIN simplex_vertex s ON s.node_id = up.cur),
hit AS (SELECT cand, path FROM up WHERE cur IS NULL AND path @> $4::int[]),
down (node_id, path) AS (
  SELECT cand, path FROM hit
  UNION ALL
  SELECT s.node_id, down.path || s.vertex_id FROM down JOIN simplex_vertex s ON s.parent_id = down.node_id)
SELECT down.path, s.type, s.meta_data, (s.meta_data->>'count')::int AS count
FROM down JOIN simplex_vertex s ON s.node_id = down.node_id
WHERE (s.meta_data->>'count')::int > 0
ORDER BY cardinality(down.path) DESC, count DESC, down.path
"""


def _key(word) -> str:
    return ",".join(str(v) for v in word)


class Cluster:
    """initdb + pg_ctl in a temp dir, unix socket only; removed on stop()."""

    def __init__(self):
        self.bin = pg_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="graphmem-bench-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        # initdb refuses to run as root: run the server as the `postgres` account then
        self.user = None
        if os.geteuid() == 0:
            try:
                self.user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root and there is no 'postgres' account to run PostgreSQL as") from None
            os.chown(self.dir, self.user.pw_uid, self.user.pw_gid)

    def _pg(self, *args: str) -> None:
        kwargs = {"user": self.user.pw_uid, "group": self.user.pw_gid} if self.user else {}
        done = subprocess.run([str(self.bin / args[0]), *args[1:]], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, cwd=self.dir, **kwargs)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip()[-800:]}")

    def start(self) -> "Cluster":
        self._pg("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
        # synchronous_commit=off: like the embedded FalkorDB's appendfsync everysec, a crash may
        # lose the last fraction of a second but never corrupts (fsync stays on)
        options = f"-k {self.dir} -c listen_addresses='' -c synchronous_commit=off"
        self._pg("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        return self

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            try:
                self._pg("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
            except RuntimeError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)

    def data_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.data.rglob("*") if p.is_file())

    async def connect(self, schema: str | None = None) -> asyncpg.Connection:
        settings = {"search_path": schema} if schema else {}
        return await asyncpg.connect(host=str(self.dir), user="postgres", database="postgres",
                                     server_settings=settings)


def pg_bin() -> Path:
    found = shutil.which("pg_ctl")
    candidates = [Path(found).parent] if found else []
    candidates += sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
    candidates += [Path("/usr/local/pgsql/bin"), Path("/opt/homebrew/bin")]
    for c in candidates:
        if (c / "initdb").exists() and (c / "pg_ctl").exists():
            return c
    raise RuntimeError("PostgreSQL's initdb/pg_ctl not found (install PostgreSQL, or put its bin/ on PATH)")


class Relational:
    """Shared by both forms: the table in its own schema, one connection."""

    name = "relational"

    def __init__(self, cluster: Cluster, schema: str, user_id: int = 1):
        self.cluster, self.schema, self.user = cluster, schema, user_id
        self.conn: asyncpg.Connection | None = None

    async def open(self) -> None:
        admin = await self.cluster.connect()
        await admin.execute(SCHEMA.format(s=self.schema))
        if isinstance(self, SetBased):
            await admin.execute(f"SET search_path = {self.schema};" + INSERT_FUNCTION)
        await admin.close()
        self.conn = await self.cluster.connect(self.schema)

    async def close(self) -> None:
        if self.conn:
            await self.conn.close()

    async def sizes(self) -> dict:
        rows = await self.conn.fetchrow(
            "SELECT pg_total_relation_size('simplex_vertex') AS total, pg_relation_size('simplex_vertex') AS heap, "
            "pg_indexes_size('simplex_vertex') AS indexes, count(*) AS nodes FROM simplex_vertex")
        return dict(rows)

    async def analyze(self) -> None:
        await self.conn.execute("VACUUM ANALYZE simplex_vertex")


class AsWritten(Relational):
    name = "relational (as written)"

    async def insert(self, word, kind: str = "observed", at: float | None = None) -> None:
        at = time.time() if at is None else at
        conn = self.conn
        async with conn.transaction():
            node = None
            for depth, vertex in enumerate(word, 1):
                if node is None:
                    found = await conn.fetchval(
                        "SELECT node_id FROM simplex_vertex WHERE user_id = $1 AND parent_id IS NULL AND vertex_id = $2",
                        self.user, vertex)
                else:
                    found = await conn.fetchval(
                        "SELECT node_id FROM simplex_vertex WHERE user_id = $1 AND parent_id = $2 AND vertex_id = $3",
                        self.user, node, vertex)
                if found is None:
                    found = await conn.fetchval(
                        "INSERT INTO simplex_vertex (user_id, parent_id, vertex_id, depth) VALUES ($1, $2, $3, $4) "
                        "RETURNING node_id", self.user, node, vertex, depth)
                node = found
            await conn.execute("UPDATE simplex_vertex SET " + BUMP.format(kind="$2", n="1", at="$3::float8")
                               + " WHERE node_id = $1", node, kind, at)

    async def insert_many(self, words, kind: str = "observed", at: float | None = None) -> None:
        for word in words:  # the design's insert is per simplex
            await self.insert(word, kind, at)

    async def find(self, word):
        """(count, type, meta) of the stored simplex, or None."""
        conn, node, row = self.conn, None, None
        for vertex in word:
            if node is None:
                row = await conn.fetchrow(
                    "SELECT node_id, type, meta_data FROM simplex_vertex "
                    "WHERE user_id = $1 AND parent_id IS NULL AND vertex_id = $2", self.user, vertex)
            else:
                row = await conn.fetchrow(
                    "SELECT node_id, type, meta_data FROM simplex_vertex "
                    "WHERE user_id = $1 AND parent_id = $2 AND vertex_id = $3", self.user, node, vertex)
            if row is None:
                return None
            node = row["node_id"]
        return row if row["type"] is not None else None

    async def faces(self, faces):
        """Membership of each face: one find per face."""
        return {_key(f): await self.find(f) is not None for f in faces}

    async def cofaces(self, vids):
        conn, wanted = self.conn, set(vids)
        candidates = await conn.fetch(
            "SELECT node_id, parent_id, vertex_id, type, meta_data FROM simplex_vertex "
            "WHERE user_id = $1 AND vertex_id = $2 AND depth >= $3", self.user, vids[-1], len(vids))
        found = []
        for cand in candidates:
            path, parent = [cand["vertex_id"]], cand["parent_id"]
            while parent is not None:  # up to the root, one query per step
                row = await conn.fetchrow("SELECT parent_id, vertex_id FROM simplex_vertex WHERE node_id = $1", parent)
                path.append(row["vertex_id"])
                parent = row["parent_id"]
            path.reverse()
            if not wanted <= set(path):
                continue
            stack = [(cand["node_id"], path, cand["type"], cand["meta_data"])]
            while stack:  # the subtree, one query per node
                node, path, kind, meta = stack.pop()
                if kind is not None:
                    found.append((tuple(path), kind, meta))
                for child in await conn.fetch(
                        "SELECT node_id, vertex_id, type, meta_data FROM simplex_vertex WHERE parent_id = $1", node):
                    stack.append((child["node_id"], path + [child["vertex_id"]], child["type"], child["meta_data"]))
        return found


class SetBased(Relational):
    name = "relational (CTE)"

    async def insert_many(self, words, kind: str = "observed", at: float | None = None) -> None:
        at = time.time() if at is None else at
        await self.conn.fetchval("SELECT insert_words($1, $2, $3, $4)", self.user, [_key(w) for w in words], kind, at)

    async def insert(self, word, kind: str = "observed", at: float | None = None) -> None:
        await self.insert_many([word], kind, at)

    async def find(self, word):
        rows = await self.conn.fetch(LOOKUP_CTE, self.user, [_key(word)])
        return rows[0] if rows and rows[0]["count"] > 0 else None

    async def faces(self, faces):
        rows = await self.conn.fetch(LOOKUP_CTE, self.user, [_key(f) for f in faces])
        counts = {row["key"]: row["count"] for row in rows}
        return {_key(f): counts.get(_key(f), 0) > 0 for f in faces}

    async def cofaces(self, vids):
        rows = await self.conn.fetch(COFACES_CTE, self.user, vids[-1], len(vids), list(vids))
        return [(tuple(row["path"]), row["type"], row["meta_data"]) for row in rows]
