// recall_lexical: the user's memories matching the query's terms in the full-text index over
// text and restated text (Lucene scoring). $terms is built from the query's words, escaped.
// params: user_id, terms, limit
CALL db.index.fulltext.queryNodes('memory_text', $terms) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
RETURN node.uid AS uid, score
ORDER BY score DESC
LIMIT $limit
