// recall_temporal: memories whose session date or referred-to time falls in [$start, $end]
// (epoch seconds), those mentioning the matched entities first, then the earliest, then by uid.
// The matched entities are found once, and each in-range memory is asked only whether it
// mentions one of them (an edge between two known nodes), never walked through all its
// mentions: a wide range ("in 2023") holds thousands of memories. Without matched entities,
// one null stands in, so that the memories stay (with no hits).
// params: user_id, start, end, vids, limit
// mode: read
OPTIONAL MATCH (e:Entity {user_id: $user_id})
WHERE e.vid IN $vids
WITH collect(e) AS matched
MATCH (m:Memory {user_id: $user_id})
WHERE (m.refers_to >= $start AND m.refers_to <= $end) OR (m.observed_at >= $start AND m.observed_at <= $end)
UNWIND CASE WHEN size(matched) = 0 THEN [null] ELSE matched END AS e
OPTIONAL MATCH (m)-[r:MENTIONS]->(e)
WITH m, count(r) AS hits
RETURN m.uid AS uid, hits + CASE WHEN m.refers_to >= $start AND m.refers_to <= $end THEN 1 ELSE 0 END AS score
ORDER BY score DESC, m.observed_at, uid
LIMIT $limit
