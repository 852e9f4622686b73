// list_abstracts: the user's abstracts, oldest first, each with its members' ids.
// params: user_id
// mode: read
MATCH (a:Abstract {user_id: $user_id})
OPTIONAL MATCH (a)-[:SUMMARIZES]->(m:Memory)
WITH a, collect(m.uid) AS members
RETURN a.key AS key, a.text AS text, a.entities AS entities, a.first_seen AS first_seen,
       a.last_seen AS last_seen, a.size AS size, members
ORDER BY a.first_seen, a.key
