// rename_entities (FalkorDB): give entities the name their remaining memories call them by
// (the name they had came from forgotten memories), with its embedding as a vecf32 value. The
// old vector is removed first: FalkorDB sets no vector over another (FalkorDB#2099), and the
// old name's vector would stay, a trace of what was forgotten.
// $rows: {vid, name, norm, embedding}
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
SET e.name = row.name, e.norm = row.norm, e.embedding = NULL
WITH e, row
SET e.embedding = vecf32(row.embedding)
RETURN count(e) AS renamed
