// supersede_by_hand: the user says memory $newer supersedes memory $older in whole
// (graphmem/supersession.py, `by_hand`): a SUPERSEDES relationship on no claim's key (subject
// -1, slot '*', which settling from the claims never removes), at when the newer one was said
// ($now when that is unknown), and no NOT_SUPERSEDES left between the two. Idempotent.
// params: user_id, newer, older, now
// mode: write
MATCH (n:Memory {user_id: $user_id, uid: $newer})
MATCH (o:Memory {user_id: $user_id, uid: $older})
MERGE (n)-[s:SUPERSEDES {subject: -1, slot: '*'}]->(o)
SET s.at = coalesce(n.observed_at, $now), s.basis = 'by hand', s.confidence = 1.0
WITH n, o, count(s) AS edges
OPTIONAL MATCH (n)-[k:NOT_SUPERSEDES]->(o)
DELETE k
RETURN edges
