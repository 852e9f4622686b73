// schema: uniqueness rules and indexes, idempotent (every statement says IF NOT EXISTS).
// The vector indexes only find recall's candidates: the recall statements compute each cosine
// exactly. Quantization is off (on by default since Neo4j 5.23) so that the candidates are the
// nearest by exact cosine, as FalkorDB's unquantized index finds them. `vector.quantization.enabled`
// came with Neo4j 5.23 (with `vector.hnsw.m` and `vector.hnsw.ef_construction`): 5.13-5.22
// reject it as an unknown index setting, as they reject insert_simplices.cypher's
// `CALL (a, b) { }`, so graphmem needs Neo4j 5.23 or later. An index made before this line keeps
// its settings (IF NOT EXISTS): drop it to remake it.
// params: dimensions
// mode: write
CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.id IS UNIQUE;
CREATE CONSTRAINT entity_vid IF NOT EXISTS FOR (e:Entity) REQUIRE (e.user_id, e.vid) IS UNIQUE;
CREATE CONSTRAINT entity_norm IF NOT EXISTS FOR (e:Entity) REQUIRE (e.user_id, e.norm) IS UNIQUE;
CREATE CONSTRAINT memory_uid IF NOT EXISTS FOR (m:Memory) REQUIRE (m.user_id, m.uid) IS UNIQUE;
CREATE CONSTRAINT session_id IF NOT EXISTS FOR (s:Session) REQUIRE (s.user_id, s.id) IS UNIQUE;
CREATE CONSTRAINT simplex_key IF NOT EXISTS FOR (n:SimplexNode) REQUIRE (n.user_id, n.key) IS UNIQUE;
CREATE CONSTRAINT term_word IF NOT EXISTS FOR (t:Term) REQUIRE (t.user_id, t.word) IS UNIQUE;
CREATE CONSTRAINT abstract_key IF NOT EXISTS FOR (a:Abstract) REQUIRE (a.user_id, a.key) IS UNIQUE;
CREATE INDEX simplex_label IF NOT EXISTS FOR (n:SimplexNode) ON (n.user_id, n.vertex);
CREATE INDEX simplex_ring_head IF NOT EXISTS FOR (n:SimplexNode) ON (n.user_id, n.ring_head);
CREATE INDEX memory_session IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.session);
CREATE INDEX memory_time IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.observed_at);
CREATE INDEX memory_refers_to IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.refers_to);
CREATE INDEX memory_speaker IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.speaker);
CREATE INDEX memory_standing IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.standing);
CREATE INDEX memory_preference IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.preference);
CREATE INDEX memory_conversation IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.conversation);
CREATE INDEX memory_digest IF NOT EXISTS FOR (m:Memory) ON (m.user_id, m.digest);
CREATE VECTOR INDEX memory_embedding IF NOT EXISTS FOR (m:Memory) ON (m.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dimensions), `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON (e.embedding)
  OPTIONS {indexConfig: {`vector.dimensions`: toInteger($dimensions), `vector.similarity_function`: 'cosine',
                         `vector.quantization.enabled`: false}};
CREATE FULLTEXT INDEX memory_text IF NOT EXISTS FOR (m:Memory) ON EACH [m.text, m.restated];
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.alias_text]
