// recall_lexical_boost: of the given candidate memories, the BM25 share of the query's words
// too frequent to walk (in more than $max_df memories): recall_lexical.cypher's formula, over
// each candidate's own postings. What recall_entity_boost is to the entity channel.
// params: user_id, terms, max_df, uids
// mode: read
MATCH (u:User {id: $user_id})
UNWIND $terms AS word
MATCH (t:Term {user_id: $user_id, word: word})
WHERE t.df > $max_df
WITH u, collect(t) AS frequent
WHERE size(frequent) > 0
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
UNWIND frequent AS t
MATCH (m)-[h:HAS_TERM]->(t)
WITH u, m, h, log(1.0 + (coalesce(u.memories, t.df) - t.df + 0.5) / (t.df + 0.5)) AS idf
WITH m, sum(idf * h.tf * 2.2 / (h.tf + 1.2 * (0.25 + 0.75 * m.length / coalesce(u.avg_length, 10.0)))) AS score
RETURN m.uid AS uid, score
