// claims_of: every claim about the given (subject, slot) keys, of the memories not being
// forgotten: what supersession is settled from (graphmem/supersession.py).
// $keys rows: {subject (vid), slot}
// params: user_id, keys
// mode: read
UNWIND $keys AS k
MATCH (e:Entity {user_id: $user_id, vid: k.subject})<-[c:CLAIMS]-(m:Memory {user_id: $user_id})
WHERE c.slot = k.slot AND m.forgetting IS NULL
RETURN k.subject AS subject, c.slot AS slot, m.uid AS uid, m.observed_at AS at, m.position AS position, c.n AS n,
       c.qualifiers AS qualifiers, c.value AS value, c.positive AS positive, c.cue AS cue, c.needs_cue AS needs_cue
ORDER BY subject, slot, n, uid
