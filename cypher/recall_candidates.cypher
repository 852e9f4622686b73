// recall_candidates: of each candidate memory, who said it and what it is (its text and its
// indexed words: the ranker's content features), where it sits (its session and position: the
// ranker reads which candidates are near it), and the same of its session neighbours (the turns
// just before and after it, each marked whether it comes before, with its position). The session
// and position are read first, so the (user, session) index finds the neighbours. Archived
// memories (graphmem/lifecycle.py) are neither candidates nor neighbours unless $include_archived:
// every channel's candidates pass here.
// params: user_id, uids, include_archived
// mode: read
UNWIND $uids AS uid
MATCH (m:Memory {user_id: $user_id, uid: uid})
WHERE $include_archived OR m.state IS NULL OR m.state <> 'archived'
WITH m.uid AS uid, m.speaker AS speaker, m.text AS text, m.length AS words,
     m.session AS session, m.position AS position
OPTIONAL MATCH (n:Memory {user_id: $user_id, session: session})
WHERE n.position IN [position - 1, position + 1]
  AND ($include_archived OR n.state IS NULL OR n.state <> 'archived')
RETURN uid, speaker, text, words, session, position,
       collect(CASE WHEN n IS NOT NULL
                    THEN [n.uid, n.speaker, n.text, n.length, n.position < position, n.position] END) AS neighbours
