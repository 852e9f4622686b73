// recall_entity: memories mentioning the matched entities, plus spreading activation one hop
// along RELATES, decayed by $decay. An entity's weight is its seed weight over
// log(2 + frequency), so rare entities count more than the speakers. A neighbour mentioned more
// than $fanout times is not walked, as a seed is not (recall/__init__.py FANOUT): its memories
// would weigh little and make the walk grow with the memory.
// $seeds rows: {vid, weight}
// params: user_id, seeds, decay, fanout, limit
UNWIND $seeds AS seed
MATCH (e:Entity {user_id: $user_id, vid: seed.vid})
OPTIONAL MATCH (e)-[:RELATES]-(n:Entity)
WHERE coalesce(n.frequency, 1) <= $fanout
WITH seed, e, collect(DISTINCT n) AS related
UNWIND [[e, seed.weight]] + [x IN related | [x, seed.weight * $decay]] AS activation
WITH activation[0] AS entity, max(activation[1]) AS weight
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(entity)
WITH m, sum(weight / log(2.0 + coalesce(entity.frequency, 1))) AS score, count(entity) AS hits
RETURN m.uid AS uid, score, hits
ORDER BY score DESC
LIMIT $limit
