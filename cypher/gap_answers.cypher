// gap_answers: for each given entity, how many entities of $kinds (what the question asks for:
// a place for "where", a title) some memory mentions together with it. None: nothing memory
// holds links the entity to an answer of that kind.
// params: user_id, vids, kinds
// mode: read
UNWIND $vids AS vid
MATCH (e:Entity {user_id: $user_id, vid: vid})
OPTIONAL MATCH (e)<-[:MENTIONS]-(:Memory)-[:MENTIONS]->(x:Entity)
WHERE x.kind IN $kinds
RETURN vid, count(DISTINCT x) AS answers
