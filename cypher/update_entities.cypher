// update_entities: aliases of the given entities, and their frequency, first and last seen
// recomputed from the memories that mention them (so a retry never double-counts).
// $entities rows: {vid, aliases: [name]}
// params: user_id, entities
// mode: write
UNWIND $entities AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.aliases = row.aliases, e.alias_text = reduce(acc = '', a IN row.aliases | acc + ' ' + a),
    e.alias_norms = [a IN row.aliases | toLower(a)]
WITH e
OPTIONAL MATCH (m:Memory {user_id: $user_id})-[:MENTIONS]->(e)
WITH e, count(m) AS frequency, min(m.observed_at) AS first_seen, max(m.observed_at) AS last_seen
SET e.frequency = frequency, e.first_seen = coalesce(first_seen, e.first_seen),
    e.last_seen = coalesce(last_seen, e.last_seen)
RETURN count(e) AS updated
