// schema (FalkorDB): one property per index statement. Uniqueness of integer keys is set
// through GRAPH.CONSTRAINT by the driver; string keys are kept unique by MERGE
// (graphmem/drivers/falkor.py UNIQUE_KEYS says why).
// params: dimensions
// mode: write
CREATE INDEX FOR (u:User) ON (u.id);
CREATE INDEX FOR (e:Entity) ON (e.user_id);
CREATE INDEX FOR (e:Entity) ON (e.vid);
CREATE INDEX FOR (e:Entity) ON (e.norm);
CREATE INDEX FOR (e:Entity) ON (e.alias_norms);
CREATE INDEX FOR (m:Memory) ON (m.user_id);
CREATE INDEX FOR (m:Memory) ON (m.uid);
CREATE INDEX FOR (m:Memory) ON (m.session);
CREATE INDEX FOR (m:Memory) ON (m.observed_at);
CREATE INDEX FOR (m:Memory) ON (m.refers_to);
CREATE INDEX FOR (m:Memory) ON (m.speaker);
CREATE INDEX FOR (m:Memory) ON (m.standing);
CREATE INDEX FOR (m:Memory) ON (m.preference);
CREATE INDEX FOR (m:Memory) ON (m.conversation);
CREATE INDEX FOR (m:Memory) ON (m.digest);
CREATE INDEX FOR (s:Session) ON (s.user_id);
CREATE INDEX FOR (s:Session) ON (s.id);
CREATE INDEX FOR (t:Term) ON (t.user_id);
CREATE INDEX FOR (t:Term) ON (t.word);
CREATE INDEX FOR (n:SimplexNode) ON (n.user_id);
CREATE INDEX FOR (a:Abstract) ON (a.user_id);
CREATE INDEX FOR (a:Abstract) ON (a.key);
CREATE INDEX FOR (n:SimplexNode) ON (n.key);
CREATE INDEX FOR (n:SimplexNode) ON (n.vertex);
CREATE INDEX FOR (n:SimplexNode) ON (n.ring_head);
CREATE VECTOR INDEX FOR (m:Memory) ON (m.embedding) OPTIONS {dimension: $dimensions, similarityFunction: 'cosine'};
CREATE VECTOR INDEX FOR (e:Entity) ON (e.embedding) OPTIONS {dimension: $dimensions, similarityFunction: 'cosine'};
CALL db.idx.fulltext.createNodeIndex({label: 'Memory', language: 'english'}, 'text', 'restated');
CALL db.idx.fulltext.createNodeIndex({label: 'Entity', language: 'english'}, 'name', 'alias_text');
// Every relationship type, and the labels no index above names, made known before any statement
// is planned: FalkorDB caches a statement's plan, and a plan made while a relationship type did
// not exist yet goes on finding none of it once it does (a lifecycle pass planned before the
// store's first supersession never saw one). Made and deleted at once: nothing stays.
CREATE (t:GraphmemTypes:Sentence:Graphmem)
CREATE (t)-[:CLAIMS]->(t), (t)-[:HAS_SENTENCE]->(t), (t)-[:HAS_TERM]->(t), (t)-[:IN_SESSION]->(t),
       (t)-[:LABEL]->(t), (t)-[:MENTIONS]->(t), (t)-[:NEXT_SAME_LABEL]->(t), (t)-[:NOT_SUPERSEDES]->(t), (t)-[:PARENT]->(t),
       (t)-[:RECALLED_FOR]->(t), (t)-[:RELATES]->(t), (t)-[:SUMMARIZES]->(t), (t)-[:SUPERSEDES]->(t), (t)-[:WITNESSED_BY]->(t)
DETACH DELETE t
