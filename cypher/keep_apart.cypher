// keep_apart: the user says memory $newer does not supersede memory $older
// (graphmem/supersession.py, `by_hand`): a NOT_SUPERSEDES relationship that settling from the
// claims respects from then on, and no SUPERSEDES left between the two (the claims' links are
// settled again afterwards, without this one). Idempotent: the first time said is kept.
// params: user_id, newer, older, now
// mode: write
MATCH (n:Memory {user_id: $user_id, uid: $newer})
MATCH (o:Memory {user_id: $user_id, uid: $older})
MERGE (n)-[k:NOT_SUPERSEDES]->(o)
  ON CREATE SET k.at = $now
WITH n, o, count(k) AS kept
OPTIONAL MATCH (n)-[s:SUPERSEDES]->(o)
DELETE s
RETURN kept
