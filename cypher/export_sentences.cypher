// export_sentences: one page of the sentence views of the user's memories for `graphmem
// export` (graphmem/transfer.py), reached through their memories (a sentence is keyed by its
// memory's uid and its place n): up to $limit memories in uid order, after $after (null: from
// the first), each with its sentences (none for a memory of one sentence) as [every property
// (the embedding a list of floats), its outgoing relationships], a relationship as [type,
// properties, the other end's labels, the other end's key properties].
// params: user_id, after, limit
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE $after IS NULL OR m.uid > $after
WITH m, m.uid AS key ORDER BY key
LIMIT $limit
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(n:Sentence)
OPTIONAL MATCH (n)-[r]->(x)
WITH key, n, collect(CASE WHEN r IS NOT NULL THEN
       [type(r), properties(r), labels(x), x {.id, .uid, .n, .vid, .key, .word}] END) AS links
RETURN key, collect(CASE WHEN n IS NOT NULL THEN [properties(n), links] END) AS nodes
ORDER BY key
