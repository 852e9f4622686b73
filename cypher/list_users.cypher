// list_users: every user the store holds, with how many memories each (an administrator's
// view: the one statement not scoped by user).
// params:
// mode: read
MATCH (u:User)
RETURN u.id AS user, coalesce(u.memories, 0) AS memories
ORDER BY user
