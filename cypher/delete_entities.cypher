// delete_entities: delete the given entities when no memory mentions them and no simplex
// holds them (with the relations between them).
// params: user_id, vids
// mode: write
UNWIND $vids AS vid
MATCH (e:Entity {user_id: $user_id, vid: vid})
WHERE NOT (e)<-[:MENTIONS]-() AND NOT (e)<-[:LABEL]-()
DETACH DELETE e
RETURN count(*) AS entities
