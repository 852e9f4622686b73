// recall_standing: what holds for the user's later questions, with their vectors, the newest
// of each kind first: standing instructions (what the user told their agent to do from now on,
// graphmem/ingest/extract.py standing_instruction) and stated preferences (stated_preference).
// Recall puts the one of each kind nearest the question (an instruction's scope, read from
// its text, where it says one) first when it is near enough
// (graphmem/recall/standing.py). Archived ones only when asked for; an incomplete one never; one
// a newer memory superseded no longer holds.
// params: user_id, include_archived, limit
// mode: read
MATCH (m:Memory {user_id: $user_id, standing: true})
WHERE m.complete = true AND m.embedding IS NOT NULL
  AND ($include_archived OR m.state IS NULL OR m.state <> 'archived')
WITH m, size([(m)<-[:SUPERSEDES]-(newer:Memory {user_id: $user_id, complete: true}) | newer.uid]) AS newer
WHERE newer = 0
RETURN m.uid AS uid, 'standing' AS kind, m.embedding AS embedding, m.text AS text
ORDER BY m.observed_at DESC, uid
LIMIT $limit
UNION ALL
MATCH (m:Memory {user_id: $user_id, preference: true})
WHERE m.complete = true AND m.embedding IS NOT NULL
  AND ($include_archived OR m.state IS NULL OR m.state <> 'archived')
WITH m, size([(m)<-[:SUPERSEDES]-(newer:Memory {user_id: $user_id, complete: true}) | newer.uid]) AS newer
WHERE newer = 0
RETURN m.uid AS uid, 'preference' AS kind, m.embedding AS embedding, m.text AS text
ORDER BY m.observed_at DESC, uid
LIMIT $limit
