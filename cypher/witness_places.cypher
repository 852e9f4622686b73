// witness_places: for each place entity, the entities mentioned with it and the memories.
// params: user_id, place_kinds
// mode: read
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(place:Entity)
WHERE place.kind IN $place_kinds
MATCH (m)-[:MENTIONS]->(e:Entity)
WITH place, e, collect(DISTINCT m.uid) AS memories, min(m.observed_at) AS at
WITH toString(place.vid) AS grp, collect([e.vid, size(memories)]) AS vertices, collect(memories) AS memory_lists, min(at) AS at
RETURN grp, vertices, reduce(acc = [], ms IN memory_lists | acc + ms) AS memories, at
