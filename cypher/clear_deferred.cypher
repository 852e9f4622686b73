// clear_deferred: the given memories' groups are derived again; they no longer wait (those
// noted meanwhile still do). With $all none waits (a rebuild derived every group).
// params: user_id, uids, all
// mode: write
MATCH (u:User {id: $user_id})
SET u.unconsolidated = CASE WHEN $all THEN [] ELSE [uid IN coalesce(u.unconsolidated, []) WHERE NOT uid IN $uids] END
RETURN size(u.unconsolidated) AS waiting
