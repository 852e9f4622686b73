// conversation_memories: a conversation's stored memories in order (uid, what they say,
// place, whether complete), to align a transcript read again against it.
// params: user_id, conversation
// mode: read
MATCH (m:Memory {user_id: $user_id, conversation: $conversation})
RETURN m.uid AS uid, m.digest AS digest, m.position AS position, m.complete = true AS complete
ORDER BY position, uid
