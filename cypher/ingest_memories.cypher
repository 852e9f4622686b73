// ingest_memories: merge a batch of memory units with their sessions and mentions, in one
// statement. A memory is keyed by its uid (graphmem/ingest/identity.py), so a retry or a
// second ingest of the same transcript changes nothing; `added` counts the memories this
// statement created (a concurrent ingest may have created the others). A mention keeps the
// names the memory called the entity by: forgetting the memory takes back those aliases.
// $memories rows: {uid, text, restated, speaker, conversation, digest, message_id, session,
//                  session_date, source_id, position, observed_at, refers_to, time_text,
//                  caption, addressee, length, standing, preference, mentions: [{vid, names, kind}]}
// (standing: true for a standing instruction, extract.standing_instruction; preference: true for a
// stated preference, extract.stated_preference; else null, not stored; addressee: whom the
// memory's "you" means, null when it says no "you" or the conversation has not two speakers)
// params: user_id, memories
// mode: write
UNWIND $memories AS row
OPTIONAL MATCH (old:Memory {user_id: $user_id, uid: row.uid})
WITH row, old IS NULL AS fresh
MERGE (s:Session {user_id: $user_id, id: row.session})
  ON CREATE SET s.started_at = row.observed_at, s.date = row.session_date
MERGE (m:Memory {user_id: $user_id, uid: row.uid})
  ON CREATE SET m.text = row.text, m.restated = row.restated, m.speaker = row.speaker,
                m.conversation = row.conversation, m.digest = row.digest, m.message_id = row.message_id,
                m.session = row.session, m.session_date = row.session_date, m.source_id = row.source_id,
                m.position = row.position, m.observed_at = row.observed_at, m.refers_to = row.refers_to,
                m.time_text = row.time_text, m.caption = row.caption, m.addressee = row.addressee, m.length = row.length,
                m.standing = row.standing, m.preference = row.preference
MERGE (m)-[:IN_SESSION]->(s)
WITH collect([m, row.mentions]) AS written, sum(CASE WHEN fresh THEN 1 ELSE 0 END) AS added,
     sum(CASE WHEN fresh THEN row.length ELSE 0 END) AS length
// the user's memory count and mean length (count_memories.cypher), raised by what this
// statement created, so that adding a message does not count them all again
OPTIONAL MATCH (u:User {id: $user_id})
WITH written, added, u, u.length_sum IS NOT NULL AS counted, coalesce(u.memories, 0) + added AS memories,
     coalesce(u.length_sum, 0) + length AS total
FOREACH (x IN CASE WHEN counted AND added > 0 THEN [u] ELSE [] END |
  SET x.memories = memories, x.length_sum = total, x.avg_length = toFloat(total) / memories)
WITH written, added
UNWIND written AS w
WITH w[0] AS m, w[1] AS mentions, added
UNWIND (CASE WHEN size(mentions) = 0 THEN [null] ELSE mentions END) AS mention
OPTIONAL MATCH (e:Entity {user_id: $user_id, vid: mention.vid})
FOREACH (x IN CASE WHEN e IS NULL THEN [] ELSE [e] END | MERGE (m)-[r:MENTIONS]->(x) SET r.names = mention.names, r.kind = mention.kind)
RETURN count(e) AS mentions, toInteger(max(added)) AS added
