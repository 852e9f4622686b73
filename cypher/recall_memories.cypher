// recall_memories: the fields of the given memories; a memory an interrupted ingest left
// incomplete is never served (its re-run completes it). Its lifecycle state comes along: a
// memory brought in after the candidates (another version of a fact) may be archived.
// params: user_id, uids
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE m.complete = true
RETURN m.uid AS uid, m.text AS text, m.restated AS restated, m.speaker AS speaker, m.source_id AS source_id,
       m.session AS session, m.session_date AS session_date, m.position AS position,
       m.refers_to AS refers_to, m.time_text AS time_text, m.caption AS caption, m.addressee AS addressee,
       m.state AS state
