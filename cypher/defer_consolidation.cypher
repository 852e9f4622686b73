// defer_consolidation: note memories whose groups are not derived again yet (`Memory.add` of a
// few messages leaves that to a later, larger pass: graphmem/consolidation.py); returns how
// many wait. Noting one twice notes it once.
// params: user_id, uids
// mode: write
MATCH (u:User {id: $user_id})
WITH u, coalesce(u.unconsolidated, []) AS waiting
SET u.unconsolidated = waiting + [uid IN $uids WHERE NOT uid IN waiting]
RETURN size(u.unconsolidated) AS waiting
