// supersede: a newer memory supersedes an older one: it gave a new value for the same subject
// and slot at `at` (epoch seconds); `basis` says what was compared, `confidence` how sure.
// $edges rows: {newer, older, subject (vid), slot, at, basis, confidence}
// params: user_id, edges
// mode: write
UNWIND $edges AS x
MATCH (n:Memory {user_id: $user_id, uid: x.newer})
MATCH (o:Memory {user_id: $user_id, uid: x.older})
MERGE (n)-[s:SUPERSEDES {subject: x.subject, slot: x.slot}]->(o)
SET s.at = x.at, s.basis = x.basis, s.confidence = x.confidence
RETURN count(s) AS edges
