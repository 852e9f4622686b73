// ingest_terms: the term postings of a batch of memories (lemma -> count in the turn), merged,
// then each touched term's document frequency recomputed (so a retry never double-counts).
// $postings rows: {uid, terms: [[word, tf]]}
// params: user_id, postings
UNWIND $postings AS p
MATCH (m:Memory {user_id: $user_id, uid: p.uid})
UNWIND p.terms AS posting
MERGE (t:Term {user_id: $user_id, word: posting[0]})
MERGE (m)-[h:HAS_TERM]->(t)
SET h.tf = posting[1]
WITH DISTINCT t
OPTIONAL MATCH (t)<-[posting_of:HAS_TERM]-(:Memory)
WITH t, count(posting_of) AS df
SET t.df = df
RETURN count(t) AS terms
