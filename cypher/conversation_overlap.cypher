// conversation_overlap: the stored conversations that hold any of the given message digests,
// how many of them each holds and its size, most shared first: the conversation a transcript
// read again continues.
// params: user_id, digests
// mode: read
UNWIND $digests AS d
MATCH (m:Memory {user_id: $user_id, digest: d})
WITH m.conversation AS conversation, count(DISTINCT d) AS shared
MATCH (c:Memory {user_id: $user_id, conversation: conversation})
RETURN conversation, shared, count(c) AS size
ORDER BY shared DESC, conversation
