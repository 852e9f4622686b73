// abstract_groups: the groups (entity vid, time bucket) the given memories belong to, or with
// $all every complete memory of the user's (a rebuild); consolidation re-derives each.
// params: user_id, uids, all, span
// mode: read
MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e:Entity)
WHERE m.complete = true AND ($all OR m.uid IN $uids)
RETURN DISTINCT e.vid AS vid, toInteger(floor(coalesce(m.observed_at, 0) / $span)) AS bucket
