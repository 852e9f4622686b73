// forget_user: delete up to $batch of each kind of the user's nodes (with their
// relationships), the user itself once nothing else is left; run until every statement
// deletes nothing. Batched, so no transaction holds a whole user's memory.
// params: user_id, batch
// mode: write
MATCH (n:Sentence {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Sentence' AS label, count(*) AS deleted;
MATCH (n:Abstract {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Abstract' AS label, count(*) AS deleted;
MATCH (n:Memory {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Memory' AS label, count(*) AS deleted;
MATCH (n:Term {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Term' AS label, count(*) AS deleted;
MATCH (n:SimplexNode {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'SimplexNode' AS label, count(*) AS deleted;
MATCH (n:Entity {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Entity' AS label, count(*) AS deleted;
MATCH (n:Session {user_id: $user_id}) WITH n LIMIT $batch DETACH DELETE n RETURN 'Session' AS label, count(*) AS deleted
