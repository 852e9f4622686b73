// remove: unstore the simplex $vids (or, with $cofaces, every stored simplex containing it),
// delete the trie nodes left with no stored simplex below them, and rebuild the
// NEXT_SAME_LABEL lists they were on. One statement.
// params: user_id, vids, cofaces
// mode: write
MATCH (:Entity {user_id: $user_id, vid: last($vids)})<-[:LABEL]-(c)
WHERE c.depth >= size($vids) AND ($cofaces OR c.depth = size($vids))
WITH c WHERE all(v IN $vids WHERE v IN c.path)
MATCH (s)-[:PARENT*0..]->(c)
WHERE s.count > 0 AND ($cofaces OR s = c)
WITH collect(DISTINCT s) AS removed
WHERE size(removed) > 0
// a node that stores nothing keeps only its place in the trie: all its properties written at
// once, because FalkorDB 4.16 removes the wrong properties when one statement removes several
// of one node (FalkorDB#1787)
FOREACH (s IN removed | SET s = {user_id: s.user_id, key: s.key, vertex: s.vertex, depth: s.depth, path: s.path,
                                 ring_head: s.ring_head, count: 0})
WITH removed
UNWIND removed AS s
OPTIONAL MATCH (s)-[w:WITNESSED_BY]->()
DELETE w
WITH DISTINCT removed, s
MATCH (s)-[:PARENT*0..]->(a)
WITH DISTINCT removed, a
OPTIONAL MATCH (x)-[:PARENT]->(a)
WITH removed, a, collect(x) AS children
ORDER BY a.depth DESC
WITH removed, collect([a, children]) AS candidates
// deepest first: a node goes when it stores nothing and every child of it goes
WITH removed, reduce(doomed = [], pair IN candidates |
       CASE WHEN pair[0].count = 0 AND all(child IN pair[1] WHERE child IN doomed)
            THEN doomed + [pair[0]] ELSE doomed END) AS doomed
WITH size(removed) AS removed_count, doomed, [d IN doomed | [d.vertex, d.depth]] AS rings
// plan each touched ring before deleting anything: its survivors and their current links
UNWIND (CASE WHEN size(rings) = 0 THEN [null] ELSE rings END) AS ring
WITH DISTINCT removed_count, doomed, ring
OPTIONAL MATCH (m:SimplexNode {user_id: $user_id, vertex: ring[0]})
WITH removed_count, doomed, ring, m, m.depth = ring[1] AND NOT m IN doomed AS survives
WITH removed_count, doomed, ring, collect(CASE WHEN survives THEN m END) AS members
UNWIND (CASE WHEN size(members) = 0 THEN [null] ELSE members END) AS member
OPTIONAL MATCH (member)-[link:NEXT_SAME_LABEL]->()
WITH removed_count, doomed, ring, members, collect(link) AS links
WITH removed_count, doomed, collect([ring, members]) AS plans, collect(links) AS link_lists
WITH removed_count, doomed, plans, reduce(acc = [], ls IN link_lists | acc + ls) AS links
FOREACH (l IN links | DELETE l)
FOREACH (d IN doomed | DETACH DELETE d)
FOREACH (plan IN plans |
  FOREACH (m IN plan[1] | SET m.ring_head = null)
  FOREACH (m IN plan[1][0..1] | SET m.ring_head = toString(plan[0][0]) + ':' + toString(plan[0][1]))
  FOREACH (i IN range(0, size(plan[1]) - 2) |
    FOREACH (a IN [plan[1][i]] | FOREACH (b IN [plan[1][i + 1]] |
      CREATE (a)-[:NEXT_SAME_LABEL]->(b)))))
RETURN removed_count
