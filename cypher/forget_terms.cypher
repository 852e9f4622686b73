// forget_terms: the term postings of the given memories, each term's document frequency
// lowered by the postings removed, and the terms no memory uses any more: BM25 then scores
// as if the memories had never been ingested.
// params: user_id, uids
// mode: write
UNWIND $uids AS uid
MATCH (:Memory {user_id: $user_id, uid: uid})-[h:HAS_TERM]->(t:Term)
WITH t, collect(h) AS postings
FOREACH (h IN postings | DELETE h)
SET t.df = t.df - size(postings)
WITH t, size(postings) AS removed
WITH collect(CASE WHEN t.df <= 0 THEN t END) AS unused, sum(removed) AS removed
FOREACH (t IN unused | DETACH DELETE t)
RETURN removed AS postings, size(unused) AS terms
