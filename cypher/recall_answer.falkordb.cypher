// recall_answer (FalkorDB): memories mentioning an entity of the kinds the question asks for (a place, a
// title), said by the people it names when it names any, closest to the question first. Such
// memories are few (3-5 % of LoCoMo's turns) and hold most of the evidence of list questions
// ("Which cities has John been to?"), whose words the evidence ("Chicago") does not share.
// An entity mentioned more than $fanout times is not walked, as in recall_entity.
// params: user_id, kinds, speakers, vector, fanout, limit
MATCH (e:Entity {user_id: $user_id})
WHERE e.kind IN $kinds AND coalesce(e.frequency, 1) <= $fanout
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e)
WHERE (size($speakers) = 0 OR m.speaker IN $speakers) AND m.embedding IS NOT NULL
WITH DISTINCT m
RETURN m.uid AS uid, 1.0 - vec.cosineDistance(m.embedding, vecf32($vector)) AS score
ORDER BY score DESC
LIMIT $limit
