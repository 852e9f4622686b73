// count_memories: record on the user how many memories it holds and their mean length in
// terms (BM25's N and avgdl in recall_lexical; recall also uses N to tell a name that says
// something from one that is everywhere).
// params: user_id
// mode: write
MATCH (u:User {id: $user_id})
OPTIONAL MATCH (m:Memory {user_id: $user_id})
WITH u, count(m) AS memories, avg(m.length) AS avg_length
SET u.memories = memories, u.avg_length = avg_length
RETURN memories
