// recall_standing: the user's standing instructions (what a user told their agent to do from
// now on, graphmem/ingest/extract.py standing_instruction) with their vectors, the newest
// first; recall puts the one nearest the question first when it is near enough
// (graphmem/recall/standing.py). Archived ones only when asked for; an incomplete one never.
// params: user_id, include_archived, limit
// mode: read
MATCH (m:Memory {user_id: $user_id, standing: true})
WHERE m.complete = true AND m.embedding IS NOT NULL
  AND ($include_archived OR m.state IS NULL OR m.state <> 'archived')
RETURN m.uid AS uid, m.embedding AS embedding
ORDER BY m.observed_at DESC, uid
LIMIT $limit
