// ingest_relations: subject-verb-object relations between entities, each with the memory
// that stated it; merged, so a retry changes nothing.
// $relations rows: {subject: vid, object: vid, label, memory: uid}
// params: user_id, relations
// mode: write
UNWIND $relations AS r
MATCH (a:Entity {user_id: $user_id, vid: r.subject})
MATCH (b:Entity {user_id: $user_id, vid: r.object})
MERGE (a)-[x:RELATES {label: r.label, memory: r.memory}]->(b)
RETURN count(x) AS relations
