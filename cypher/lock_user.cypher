// lock_user: take or renew the user's ingest lease for $token until $until, unless another
// holder's lease still runs; returns whether $token holds it. Concurrent ingests into one user
// then run one after another, as a sequential run would (entity resolution reads what the
// earlier one wrote). A holder that died frees it when its lease runs out, or at once when the
// taker knows it is gone ($stale: the token of a holder on the taker's machine whose process no
// longer runs); a stale token another taker has replaced meanwhile frees nothing.
// Taking it also returns what the last holder left: whether it finished (`unfinished`: it
// died or failed mid-way, so its pending entities need pruning) and the name of the entity
// catalogue it wrote (settle_user.cypher); from then on the user is unfinished until this
// holder settles it. A lease with no end (left so by FalkorDB#1787, see unlock_user.cypher)
// is free. Refused, it returns the holder's token and where it runs (`holder`; null when an
// older graphmem took it).
// params: user_id, token, now, until, holder, stale
// mode: write
MERGE (u:User {id: $user_id})
  ON CREATE SET u.next_vid = 1, u.created_at = $now
// Setting a property first takes the write lock on u (Neo4j), so two takers read the lease
// one after the other.
SET u.touched_at = $now
WITH u, u.lease IS NULL OR u.lease = $token OR coalesce(u.lease = $stale, false)
          OR coalesce(u.lease_until, 0) < $now AS free,
     coalesce(u.unfinished, false) AS unfinished, u.catalog AS catalog, u.lease AS token, u.lease_holder AS holder
FOREACH (x IN CASE WHEN free THEN [u] ELSE [] END |
  SET x.lease = $token, x.lease_until = $until, x.lease_holder = $holder, x.unfinished = true)
RETURN free AS held, unfinished, catalog, token, holder
