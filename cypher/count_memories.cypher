// count_memories: record on the user how many memories it holds and their mean length in
// terms (BM25's N and avgdl in recall_lexical; recall also uses N to tell a name that says
// something from one that is everywhere). Unless $force, only for a user not counted yet:
// ingest_memories.cypher raises the counts of a counted user as it creates memories.
// params: user_id, force
// mode: write
MATCH (u:User {id: $user_id})
WHERE $force OR u.length_sum IS NULL
OPTIONAL MATCH (m:Memory {user_id: $user_id})
WITH u, count(m) AS memories, sum(coalesce(m.length, 0)) AS total, avg(m.length) AS avg_length
SET u.memories = memories, u.length_sum = total, u.avg_length = avg_length
RETURN memories
