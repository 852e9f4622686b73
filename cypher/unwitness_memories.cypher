// unwitness_memories: take back what the given memories stated and observed, so that they can
// be written again from scratch (an ingest redoing what an interrupted run half-wrote): the
// relations they stated, their mentions, and their witness of simplices. A simplex's count
// goes down by one per memory taken back; the paths of those nothing else keeps stored are
// returned, for `remove` to unstore them and prune the trie.
// params: user_id, uids, sep
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[:MENTIONS]->(:Entity)-[r:RELATES {memory: uid}]->(:Entity)
DELETE r
WITH DISTINCT m
OPTIONAL MATCH (m)-[mention:MENTIONS]->(:Entity)
DELETE mention
WITH DISTINCT m
MATCH (s:SimplexNode {user_id: $user_id})-[w:WITNESSED_BY]->(m)
WITH s, collect(w) AS edges
WITH s, edges, s.count - size(edges) AS left
FOREACH (w IN edges | DELETE w)
WITH s, left, CASE WHEN left > 0 THEN left ELSE s.count END AS count
// one left without witnesses is marked until `remove` unstores it: a run interrupted between
// the two finishes it (unwitnessed_simplices.cypher)
FOREACH (x IN CASE WHEN left <= 0 THEN [s] ELSE [] END | SET x.unwitnessed = true)
SET s.count = count,
    s.packed = s.key + $sep + toString(count) + $sep + coalesce(toString(s.first_seen), '') + $sep +
               coalesce(toString(s.last_seen), '') + $sep + coalesce(s.meta, '') + $sep + coalesce('=' + s.kind, '')
// collected, not filtered by WHERE: FalkorDB 4.16 moves such a filter before the SET above,
// and the counts of the rows it drops are never lowered
WITH collect(CASE WHEN left <= 0 THEN s.path END) AS gone
UNWIND gone AS path
RETURN path
