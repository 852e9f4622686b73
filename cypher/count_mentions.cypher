// count_mentions: aliases of the given entities, and the mentions of memories this write
// created added to their frequency, first and last seen: what update_entities recounts from
// every memory, in time independent of how often the entity was mentioned before. Only for
// memories none of which was stored before (a retry recounts: update_entities).
// $entities rows: {vid, aliases: [name], mentions, first, last} (mentions: how many of the new
// memories mention it; first, last: their earliest and latest observed_at, or null)
// params: user_id, entities
// mode: write
UNWIND $entities AS row
MATCH (e:Entity {user_id: $user_id, vid: row.vid})
// an entity this write created holds its creation time, not a memory's
WITH e, row, coalesce(e.frequency, 0) = 0 AS unseen
SET e.aliases = row.aliases, e.alias_text = reduce(acc = '', a IN row.aliases | acc + ' ' + a),
    e.alias_norms = [a IN row.aliases | toLower(a)],
    e.frequency = coalesce(e.frequency, 0) + row.mentions,
    e.first_seen = CASE WHEN unseen OR row.first < e.first_seen THEN coalesce(row.first, e.first_seen)
                        ELSE e.first_seen END,
    e.last_seen = CASE WHEN unseen OR row.last > e.last_seen THEN coalesce(row.last, e.last_seen)
                       ELSE e.last_seen END
RETURN count(e) AS updated
