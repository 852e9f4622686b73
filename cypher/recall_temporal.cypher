// recall_temporal: memories whose session date or referred-to time falls in [$start, $end]
// (epoch seconds), those mentioning the matched entities first, then the earliest, then by uid.
// params: user_id, start, end, vids, limit
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE (m.refers_to >= $start AND m.refers_to <= $end) OR (m.observed_at >= $start AND m.observed_at <= $end)
OPTIONAL MATCH (m)-[:MENTIONS]->(e:Entity)
WHERE e.vid IN $vids
WITH m, count(e) AS hits
RETURN m.uid AS uid, hits + CASE WHEN m.refers_to >= $start AND m.refers_to <= $end THEN 1 ELSE 0 END AS score
ORDER BY score DESC, m.observed_at, uid
LIMIT $limit
