// prune_entities: delete the entities an interrupted ingest created that nothing came to use:
// still pending since before $before (the start of the ingest that finishes now), mentioned
// by no memory and in no simplex.
// params: user_id, before
// mode: write
MATCH (e:Entity {user_id: $user_id})
WHERE e.pending IS NOT NULL AND e.pending < $before
  AND NOT (e)<-[:MENTIONS]-() AND NOT (e)<-[:LABEL]-()
DETACH DELETE e
RETURN count(*) AS pruned
