// recall_restatements: of the first memories recall ranked, who said each, when, what (the
// text) and its embedding: recall reads which of them says anew, later, what a better-ranked
// one said (graphmem/recall/recency.py).
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.embedding IS NOT NULL
RETURN m.uid AS uid, m.speaker AS speaker, m.observed_at AS at, m.text AS text, m.embedding AS embedding
