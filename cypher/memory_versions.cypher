// memory_versions: of the given memories, the (subject, slot) keys each claims, which newer
// memories supersede each (uid, when, basis, confidence, the key), which older ones each
// supersedes, the current versions at the end of each chain that starts at it, with the
// chain's key, and every version on those chains with its key and when it was said (the
// version that held at a time): a chain follows one key, at most 8 steps on, to a memory no
// complete one supersedes on that key. A key is written `subject|slot`. Whether a memory is superseded at all (every key it claims
// retired) or only in part is for graphmem/supersession.py to say.
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WITH m, [(m)-[c:CLAIMS]->(e:Entity) | toString(e.vid) + '|' + c.slot] AS claimed
OPTIONAL MATCH (m)<-[s:SUPERSEDES]-(n:Memory {complete: true})
WITH m, claimed,
     collect(CASE WHEN n IS NULL THEN null
                  ELSE [n.uid, s.at, s.basis, s.confidence, toString(s.subject) + '|' + s.slot] END) AS newer
OPTIONAL MATCH (m)-[:SUPERSEDES]->(o:Memory)
WITH m, claimed, newer, collect(DISTINCT o.uid) AS older
OPTIONAL MATCH p = (m)<-[:SUPERSEDES*1..8]-(h:Memory {complete: true})
WITH m, claimed, newer, older, h, relationships(p) AS rels
WITH m, claimed, newer, older, h, rels, head(rels) AS first
WITH m, claimed, newer, older, h,
     CASE WHEN h IS NOT NULL AND all(r IN rels WHERE r.subject = first.subject AND r.slot = first.slot)
          THEN first END AS chain
WITH m, claimed, newer, older, h, chain.subject AS subject, chain.slot AS slot
RETURN m.uid AS uid, m.observed_at AS at, claimed, newer, older,
       collect(DISTINCT CASE WHEN subject IS NOT NULL
                             AND size([(h)<-[t:SUPERSEDES]-(x:Memory {complete: true})
                                       WHERE t.subject = subject AND t.slot = slot | x.uid]) = 0
                        THEN [h.uid, toString(subject) + '|' + slot] END) AS current,
       collect(DISTINCT CASE WHEN subject IS NOT NULL
                        THEN [h.uid, toString(subject) + '|' + slot, h.observed_at] END) AS later
ORDER BY uid
