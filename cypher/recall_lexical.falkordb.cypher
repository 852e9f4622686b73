// recall_lexical (FalkorDB): the full-text index (RediSearch scoring) over text and restated.
// params: user_id, terms, limit
CALL db.idx.fulltext.queryNodes('Memory', $terms) YIELD node, score
WITH node, score
WHERE node.user_id = $user_id
RETURN node.uid AS uid, score
ORDER BY score DESC
LIMIT $limit
