// write_abstracts: create or update abstracts, each linked SUMMARIZES to exactly its members
// (links to former members dropped). Idempotent: written again, nothing changes.
// $rows: {key, vid, bucket, text, entities, first_seen, last_seen, size, members: [uid]}
// params: user_id, rows
// mode: write
UNWIND $rows AS row
MERGE (a:Abstract {user_id: $user_id, key: row.key})
SET a.vid = row.vid, a.bucket = row.bucket, a.text = row.text, a.entities = row.entities,
    a.first_seen = row.first_seen, a.last_seen = row.last_seen, a.size = row.size, a.stale = false
WITH a, row
OPTIONAL MATCH (a)-[old:SUMMARIZES]->(x:Memory)
WITH a, row, [r IN collect([old, x.uid]) WHERE r[0] IS NOT NULL AND NOT r[1] IN row.members | r[0]] AS dropped
FOREACH (r IN dropped | DELETE r)
WITH a, row
UNWIND row.members AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
MERGE (a)-[:SUMMARIZES]->(m)
RETURN count(DISTINCT a) AS abstracts, count(m) AS links
