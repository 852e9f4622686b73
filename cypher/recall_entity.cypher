// recall_entity: memories mentioning the matched entities, plus spreading activation one hop
// along RELATES, decayed by $decay. An entity's weight is its seed weight over
// log(2 + frequency), so rare entities count more than the speakers. The walk is bounded as
// the memory grows: a seed walks its own memories (recall sends only seeds with at most
// FANOUT of them) and those of the neighbours that fit, taken the most related first (most
// RELATES edges, then the rarer, then by vid) as long as their mentions add up to at most $fanout:
// in a large memory a seed's neighbours mention most of it (bench/README.md). Ties are broken
// by vid and uid, so that every backend walks and ranks the same memories; a score is a sum
// (recall_lexical.cypher), ranked at 9 decimals.
// $seeds rows: {vid, weight}
// params: user_id, seeds, decay, fanout, limit
// mode: read
UNWIND $seeds AS seed
MATCH (e:Entity {user_id: $user_id, vid: seed.vid})
OPTIONAL MATCH (e)-[r:RELATES]-(n:Entity)
WITH seed, e, n, count(r) AS strength
ORDER BY strength DESC, coalesce(n.frequency, 1), n.vid
WITH seed, e, collect(CASE WHEN n IS NOT NULL THEN [n, coalesce(n.frequency, 1)] END) AS ranked
WITH seed, e, reduce(acc = [0, []], x IN ranked |
       CASE WHEN acc[0] + x[1] <= $fanout THEN [acc[0] + x[1], acc[1] + [x[0]]] ELSE acc END)[1] AS related
UNWIND [[e, seed.weight]] + [x IN related | [x, seed.weight * $decay]] AS activation
WITH activation[0] AS entity, max(activation[1]) AS weight
// an entity's share once, not on each of its up to FANOUT mentions; the user's entity is the
// anchor, so its mentions are the user's memories (as recall_lexical.cypher's terms are)
WITH entity, weight / log(2.0 + coalesce(entity.frequency, 1)) AS share
MATCH (m:Memory)-[:MENTIONS]->(entity)
WITH m, sum(share) AS score
RETURN m.uid AS uid, score
ORDER BY round(score * 1000000000.0) DESC, uid
LIMIT $limit
