// witness_sessions: witness_groups.cypher's session groups for the given sessions only, their
// memories found through the (user_id, session) index: ingest rebuilds the sessions of what
// it read, not every session of the user (which made each ingest call O(all memories)).
// params: user_id, sessions
// mode: read
UNWIND $sessions AS grp
MATCH (m:Memory {user_id: $user_id, session: grp})-[:MENTIONS]->(e:Entity)
WITH grp, e, collect(DISTINCT m.uid) AS memories, min(m.observed_at) AS at
WITH grp, collect([e.vid, size(memories)]) AS vertices, collect(memories) AS memory_lists, min(at) AS at
RETURN grp, vertices, reduce(acc = [], ms IN memory_lists | acc + ms) AS memories, at
