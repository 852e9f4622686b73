// recall_entity_boost: of the given candidate memories, those mentioning the given entities,
// with the summed weights of the ones they mention: the share of the entity channel of an
// entity too frequent to walk all its memories.
// $boosts rows: {vid, weight}
// params: user_id, uids, boosts
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
UNWIND $boosts AS boost
MATCH (m)-[:MENTIONS]->(:Entity {user_id: $user_id, vid: boost.vid})
RETURN m.uid AS uid, sum(boost.weight) AS score
