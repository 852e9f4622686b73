// conversation_exists: whether the user holds a memory of this conversation.
// params: user_id, conversation
// mode: read
MATCH (m:Memory {user_id: $user_id, conversation: $conversation})
RETURN m.uid AS uid
LIMIT 1
