// list_conversations: the user's conversations with their memories and first and last dates.
// params: user_id
// mode: read
MATCH (m:Memory {user_id: $user_id})
WHERE m.complete = true
WITH m.conversation AS conversation, count(m) AS memories, min(m.session_date) AS first, max(m.session_date) AS last,
     min(m.observed_at) AS started
RETURN conversation, memories, first, last
ORDER BY coalesce(started, -1.0), conversation
