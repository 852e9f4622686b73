// abstract_sentences: the sentences of the given memories, each with its embedding (a memory of
// one sentence has no Sentence nodes: its text is its sentence), to pick the most central. A
// sentence reads "speaker: ..."; so is a memory's text quoted. Without $vectors, each embedding
// is null: the caller holds them.
// params: user_id, uids, vectors
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
OPTIONAL MATCH (m)-[:HAS_SENTENCE]->(s:Sentence)
RETURN m.uid AS uid, m.speaker AS speaker, m.text AS text,
       collect(CASE WHEN s IS NOT NULL THEN [s.n, s.text, CASE WHEN $vectors THEN s.embedding END] END) AS sentences
