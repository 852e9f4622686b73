// settle_entities: after memories were forgotten, each given entity's aliases, kind, frequency
// and first and last seen, recomputed from the memories that still mention it (aliases: the
// names they call it by, earliest first; an entity mentioned before mentions kept their names
// keeps its aliases). Returns each entity's name and new aliases, whether any memory still
// mentions it and whether a simplex still holds it, for the caller to delete or rename it.
// params: user_id, vids
// mode: write
// the speakers left, read once for all the entities
OPTIONAL MATCH (s:Memory {user_id: $user_id})
WITH collect(DISTINCT s.speaker) AS speakers
UNWIND $vids AS vid
MATCH (e:Entity {user_id: $user_id, vid: vid})
OPTIONAL MATCH (m:Memory {user_id: $user_id})-[r:MENTIONS]->(e)
WITH speakers, e, m, r
ORDER BY m.observed_at, m.position, m.uid
WITH speakers, e, collect(coalesce(r.names, [])) AS said, collect(r.kind) AS kinds, count(m) AS frequency,
     min(m.observed_at) AS first_seen, max(m.observed_at) AS last_seen
WITH speakers, e, kinds, frequency, first_seen, last_seen,
     reduce(acc = [], names IN said | acc + [n IN names WHERE NOT n IN acc]) AS aliases
WITH speakers, e, kinds, frequency, first_seen, last_seen,
     CASE WHEN size(aliases) = 0 THEN e.aliases ELSE aliases END AS aliases
// its kind: a speaker's is PERSON, as ingest makes it; any other's is what its earliest
// mention kept was read as (mentions written before mentions kept their kind keep the kind)
SET e.aliases = aliases, e.alias_text = reduce(acc = '', a IN aliases | acc + ' ' + a),
    e.alias_norms = [a IN aliases | toLower(a)],
    e.kind = CASE WHEN any(a IN aliases WHERE a IN speakers) THEN 'PERSON' ELSE coalesce(head(kinds), e.kind) END,
    e.frequency = frequency, e.first_seen = coalesce(first_seen, e.first_seen),
    e.last_seen = coalesce(last_seen, e.last_seen)
RETURN e.vid AS vid, e.name AS name, aliases, frequency, size([(e)<-[:LABEL]-(n) | n]) > 0 AS labelled
ORDER BY vid
