// conversation_known: which of the given memories a conversation holds (uid, what they say,
// place, whether complete), and the last place taken in it: what messages added to it need, without reading the
// whole conversation.
// params: user_id, conversation, uids
// mode: read
OPTIONAL MATCH (last:Memory {user_id: $user_id, conversation: $conversation})
WITH max(last.position) AS end
UNWIND (CASE WHEN size($uids) = 0 THEN [null] ELSE $uids END) AS uid
OPTIONAL MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.conversation = $conversation
RETURN m.uid AS uid, m.digest AS digest, m.position AS position, m.complete = true AS complete, end
