// unwitness_sessions: take back the session simplices of the given sessions (their memories'
// witness of simplices first observed as a session), so that a session that lost memories is
// witnessed again from those it keeps. Counts go down by one per witness taken back; the
// paths of simplices nothing keeps stored are returned, for `remove`.
// params: user_id, sessions, sep
// mode: write
UNWIND $sessions AS grp
MATCH (m:Memory {user_id: $user_id, session: grp})<-[w:WITNESSED_BY]-(s:SimplexNode)
WHERE s.kind = 'session'
WITH s, collect(w) AS edges
WITH s, edges, s.count - size(edges) AS left
FOREACH (w IN edges | DELETE w)
WITH s, left, CASE WHEN left > 0 THEN left ELSE s.count END AS count
// one left without witnesses is marked until `remove` unstores it: a run interrupted between
// the two finishes it (unwitnessed_simplices.cypher)
FOREACH (x IN CASE WHEN left <= 0 THEN [s] ELSE [] END | SET x.unwitnessed = true)
SET s.count = count,
    s.packed = s.key + $sep + toString(count) + $sep + coalesce(toString(s.first_seen), '') + $sep +
               coalesce(toString(s.last_seen), '') + $sep + coalesce(s.meta, '') + $sep + coalesce('=' + s.kind, '')
// collected, not filtered by WHERE: FalkorDB 4.16 moves such a filter before the SET above,
// and the counts of the rows it drops are never lowered
WITH collect(CASE WHEN left <= 0 THEN s.path END) AS gone
UNWIND gone AS path
RETURN path
