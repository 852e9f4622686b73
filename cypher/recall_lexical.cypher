// recall_lexical: Okapi BM25 (k1 = 1.2, b = 0.75) over the user's own term postings:
// (:Memory)-[:HAS_TERM {tf}]->(:Term {word, df}), lemmas written at ingest. Scored in the
// graph, so every backend ranks the same way and one user's words never weigh another's.
// A word in more than $max_df memories is not walked (it weighs little and costs its whole
// posting list): recall_lexical_boost.cypher adds its share to the other channels' candidates.
// A score is a sum whose last bits depend on the order it is added up in, which backends do not
// share: scores are ranked at 9 decimals, as recall ranks them (SCORE_DECIMALS), then by uid.
// params: user_id, terms, max_df, limit
// mode: read
MATCH (u:User {id: $user_id})
UNWIND $terms AS word
MATCH (t:Term {user_id: $user_id, word: word})
WHERE t.df <= $max_df
WITH t, log(1.0 + (coalesce(u.memories, t.df) - t.df + 0.5) / (t.df + 0.5)) AS idf, coalesce(u.avg_length, 10.0) AS avg
MATCH (t)<-[h:HAS_TERM]-(m:Memory)
WITH m, sum(idf * h.tf * 2.2 / (h.tf + 1.2 * (0.25 + 0.75 * m.length / avg))) AS score
RETURN m.uid AS uid, score
ORDER BY round(score * 1000000000.0) DESC, uid
LIMIT $limit
