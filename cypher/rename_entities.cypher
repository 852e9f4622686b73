// rename_entities: give entities the name their remaining memories call them by (the name
// they had came from forgotten memories), with its embedding.
// $rows: {vid, name, norm, embedding}
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.name = row.name, e.norm = row.norm, e.embedding = row.embedding
RETURN count(e) AS renamed
