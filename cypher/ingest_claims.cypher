// ingest_claims: what the given memories claim of someone (graphmem/ingest/claims.py), one
// CLAIMS relationship per claim from the memory to its subject entity; the memories' earlier
// claims (an interrupted write's) are replaced, so a retry writes the same.
// $claims rows: {uid, subject (vid), n, slot, qualifiers, value, positive, cue, needs_cue}
// params: user_id, uids, claims
// mode: write
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[old:CLAIMS]->(:Entity)
DELETE old
WITH count(*) AS cleared
UNWIND $claims AS c
MATCH (m:Memory {user_id: $user_id, uid: c.uid})
MATCH (e:Entity {user_id: $user_id, vid: c.subject})
CREATE (m)-[r:CLAIMS {n: c.n, slot: c.slot, qualifiers: c.qualifiers, value: c.value, positive: c.positive,
                      cue: c.cue, needs_cue: c.needs_cue}]->(e)
RETURN count(r) AS claims
