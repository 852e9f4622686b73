// insert_simplices: record observed simplices in the simplex tree, in one statement.
// $vids: every vertex of the batch, ascending. $nodes: every trie node the words need (each prefix
// of each word), parents before children, each naming its own position i, its label's position
// vi in $vids and its parent's position pi in $nodes (null at depth 1):
//   {i: 4, key: "3,7", vertex: 7, depth: 2, path: [3, 7], ring: "7:2", vi: 1, pi: 0}
// $words: one row per distinct simplex, with its node's position:
//   {node, kind, meta, count, first, last, witnesses: [uid]}.
// Nothing is written unless every vertex in $vids is an entity of the user.
// A word with witnesses counts each witnessing memory once, so a retry does not double it;
// a simplex keeps the kind of its first observation.
// Every lookup is by index once: the entities and trie nodes are collected in $vids / $nodes
// order and reached by position afterwards (bench/README.md: index seeks were most of the time).
// Each L_j list (the trie nodes of one label at one depth) is a NEXT_SAME_LABEL list, newest
// first, its head marked by `ring_head`: new nodes are put in front of the old head, so an
// insert creates edges and deletes none, and never reads a list (on FalkorDB 4.16 reading or
// deleting a link of a relation matrix with pending changes synced it first: a ring splice was
// most of a single insert's time, bench/README.md).
// params: user_id, vids, nodes, words, sep
// mode: write
// retry: no (a word without witnesses raises its count each time it runs)
UNWIND $vids AS v
OPTIONAL MATCH (e:Entity {user_id: $user_id, vid: v})
WITH v, e ORDER BY v
WITH collect(e) AS labels
// a missing entity ends the statement here, before anything is written
WHERE size(labels) = size($vids) AND all(i IN range(0, size($vids) - 1) WHERE labels[i].vid = $vids[i])
// 1. the lists that gain a node: [positions of its new nodes, its head (null for a new list)]
CALL () {
  UNWIND $nodes AS t
  OPTIONAL MATCH (old:SimplexNode {user_id: $user_id, key: t.key})
  WITH t WHERE old IS NULL
  WITH t.ring AS ring, collect([t.i, t.vi, t.pi]) AS fresh
  OPTIONAL MATCH (head:SimplexNode {user_id: $user_id, ring_head: ring})
  RETURN collect([fresh, head]) AS lists
}
// 2. trie nodes, merged by key; the first new node of each list that gains nodes becomes its head
CALL (lists) {
  WITH [r IN lists | r[0][0][0]] AS heads
  UNWIND $nodes AS t
  WITH t, t.i IN heads AS head
  MERGE (n:SimplexNode {user_id: $user_id, key: t.key})
    ON CREATE SET n.vertex = t.vertex, n.depth = t.depth, n.path = t.path, n.count = 0,
                  n.ring_head = CASE WHEN head THEN t.ring END
  // MERGE does not keep its input's order (FalkorDB 4.16 emits matched rows in reverse)
  WITH t.i AS i, n ORDER BY i
  RETURN collect(n) AS trie
}
// 3. new nodes -> old head, which stops being the head
CALL (lists, trie) {
  UNWIND lists AS r
  WITH [f IN r[0] | trie[f[0]]] AS fresh, r[1] AS head
  FOREACH (old IN CASE WHEN head IS NULL THEN [] ELSE [head] END | SET old.ring_head = null)
  WITH fresh + CASE WHEN head IS NULL THEN [] ELSE [head] END AS chain
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  CREATE (a)-[:NEXT_SAME_LABEL]->(b)
  RETURN count(*) AS spliced
}
// 4. new nodes' LABEL and PARENT edges
CALL (lists, trie, labels) {
  UNWIND lists AS r
  UNWIND r[0] AS f
  WITH trie[f[0]] AS n, labels[f[1]] AS label, trie[coalesce(f[2], f[0])] AS parent, f[2] IS NULL AS root
  CREATE (n)-[:LABEL]->(label)
  FOREACH (p IN CASE WHEN root THEN [] ELSE [parent] END | CREATE (n)-[:PARENT]->(p))
  RETURN count(*) AS linked
}
// 5. the words themselves: observation counts, kind, metadata, times, witnesses
UNWIND $words AS w
WITH trie[w.node] AS node, w
// a node taken from a list is not matchable on FalkorDB 4.16 until UNWIND binds it again
UNWIND [node] AS s
UNWIND (CASE WHEN size(w.witnesses) = 0 THEN [null] ELSE w.witnesses END) AS uid
OPTIONAL MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (s)-[seen:WITNESSED_BY]->(m)
FOREACH (x IN CASE WHEN m IS NOT NULL AND seen IS NULL THEN [m] ELSE [] END | CREATE (s)-[:WITNESSED_BY]->(x))
WITH s, w, sum(CASE WHEN m IS NOT NULL AND seen IS NULL THEN 1 ELSE 0 END) AS added
WITH s, s.count + CASE
      WHEN size(w.witnesses) = 0 THEN w.count
      WHEN added > 0 THEN added
      WHEN s.count = 0 THEN 1
      ELSE 0 END AS seen,
    coalesce(s.kind, w.kind) AS kind,
    coalesce(w.meta, s.meta) AS meta,
    CASE WHEN s.first_seen IS NULL OR w.first < s.first_seen THEN w.first ELSE s.first_seen END AS first,
    CASE WHEN s.last_seen IS NULL OR w.last > s.last_seen THEN w.last ELSE s.last_seen END AS last
// `packed` is cofaces.cypher's one string per simplex, written with the fields it is made of
SET s.count = seen, s.kind = kind, s.meta = meta, s.first_seen = first, s.last_seen = last,
    s.packed = s.key + $sep + toString(seen) + $sep + coalesce(toString(first), '') + $sep +
               coalesce(toString(last), '') + $sep + coalesce(meta, '') + $sep + coalesce('=' + kind, '')
RETURN s.key AS key, seen AS count, kind, meta, first AS first_seen, last AS last_seen,
       [(s)-[:WITNESSED_BY]->(x) | x.uid] AS witnesses
