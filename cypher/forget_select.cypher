// forget_select: the user's memories a forget names, oldest first: those of $conversation,
// those mentioning one of $vids, those observed before $before (epoch seconds), or all
// ($all); a null selector selects nothing by itself.
// params: user_id, conversation, vids, before, all
// mode: read
MATCH (m:Memory {user_id: $user_id})
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE e.vid IN $vids
WITH m, count(e) AS named
WHERE $all OR m.conversation = $conversation OR m.observed_at < $before OR named > 0
RETURN m.uid AS uid
ORDER BY m.observed_at, m.position, m.uid
