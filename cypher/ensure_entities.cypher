// ensure_entities: create the user and any entity not seen before (fresh vids from the
// user's counter), then return the vid of every requested entity. One statement. An ingest
// creates its entities $pending: invisible to entity resolution until a memory that mentions
// them is complete (complete_memories), so that a re-run never resolves against what an
// interrupted one half-wrote.
// params: user_id, entities, now, pending
// mode: write
MERGE (u:User {id: $user_id})
  ON CREATE SET u.next_vid = 1, u.created_at = $now
// Setting a property first takes the write lock on u (Neo4j), so concurrent writers
// read next_vid one after the other. Entities made outside an ingest change the catalogue
// that ingests may keep a copy of (settle_user.cypher).
SET u.touched_at = $now, u.catalog = CASE WHEN $pending THEN u.catalog ELSE '' END
WITH u
UNWIND $entities AS ent
OPTIONAL MATCH (e:Entity {user_id: $user_id, norm: ent.norm})
WITH u, collect(CASE WHEN e IS NULL THEN ent END) AS fresh
FOREACH (i IN range(0, size(fresh) - 1) |
  CREATE (:Entity {user_id: $user_id, vid: u.next_vid + i, name: fresh[i].name, norm: fresh[i].norm,
                   kind: fresh[i].kind, aliases: [fresh[i].name], alias_text: fresh[i].name,
                   alias_norms: [toLower(fresh[i].name)],
                   frequency: 0, first_seen: $now, last_seen: $now,
                   pending: CASE WHEN $pending THEN $now ELSE null END}))
SET u.next_vid = u.next_vid + size(fresh)
WITH count(*) AS done
UNWIND $entities AS ent
MATCH (e:Entity {user_id: $user_id, norm: ent.norm})
RETURN ent.norm AS norm, e.vid AS vid, e.name AS name
