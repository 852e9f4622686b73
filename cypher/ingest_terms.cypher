// ingest_terms: the term postings of a batch of memories (lemma -> count in the turn), merged,
// each term's document frequency raised by the postings this statement created (a retry
// creates none, so it never double-counts). Counting a term's postings after the MERGEs
// instead missed the ones created in the same statement on FalkorDB 4.16.
// $postings rows: {uid, terms: [[word, tf]]} (a word once per memory)
// params: user_id, postings
// mode: write
UNWIND $postings AS p
MATCH (m:Memory {user_id: $user_id, uid: p.uid})
UNWIND p.terms AS posting
MERGE (t:Term {user_id: $user_id, word: posting[0]})
ON CREATE SET t.df = 0
WITH m, t, posting
OPTIONAL MATCH (m)-[old:HAS_TERM]->(t)
WITH m, t, posting, old IS NULL AS created
MERGE (m)-[h:HAS_TERM]->(t)
SET h.tf = posting[1]
WITH t, sum(CASE WHEN created THEN 1 ELSE 0 END) AS created
SET t.df = t.df + created
RETURN count(t) AS terms
