// recall_answer (FalkorDB): memories mentioning what the question asks for, said by the people it names
// when it names any, closest to $vector (the question's topic) first. What it asks for:
// entities of $kinds (a place, a title). Such memories are few and hold much of the evidence of list questions
// ("Which cities has John been to?"), whose words the evidence ("Chicago") does not share.
// The walk is bounded as the memory grows: the rarest of those entities first, while their
// mentions add up to at most $fanout (a large memory holds thousands of places: walking them all
// grew this statement's latency with the memory, bench/README.md).
// Ties are broken by vid and uid, so that every backend walks and ranks the same memories.
// The query vectors are made vecf32 once, first: vecf32($param) in a row's expression is made
// again for every row (bench/README.md).
// params: user_id, kinds, speakers, vector, fanout, limit
// mode: read
WITH vecf32($vector) AS question
MATCH (e:Entity {user_id: $user_id})
WHERE e.kind IN $kinds
WITH question, e, coalesce(e.frequency, 1) AS mentions
ORDER BY mentions, e.vid
WITH question, collect([e, mentions]) AS found
UNWIND reduce(acc = [0, []], x IN found |
         CASE WHEN acc[0] + x[1] <= $fanout THEN [acc[0] + x[1], acc[1] + [x[0]]] ELSE acc END)[1] AS e
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e)
WHERE (size($speakers) = 0 OR m.speaker IN $speakers) AND m.embedding IS NOT NULL
WITH DISTINCT question, m
RETURN m.uid AS uid, 1.0 - vec.cosineDistance(m.embedding, question) AS score
ORDER BY score DESC, uid
LIMIT $limit
