// claims_naming: the claims that give a value which may name one of the given things ("our CI
// runs on Jenkins" names jenkins), or the state of the thing itself ("I'm on metformin 500mg",
// state:metformin): the keys a claim that the thing ended ("we ditched Jenkins", "my doctor took
// me off metformin") is settled with (graphmem/supersession.py). A value contains the thing's
// stem; whether it names it is for the caller to say. Unordered: the caller reads a set of keys.
// $names rows: {subject (vid), stem}
// params: user_id, names
// mode: read
UNWIND $names AS k
MATCH (e:Entity {user_id: $user_id, vid: k.subject})<-[c:CLAIMS]-(m:Memory {user_id: $user_id})
WHERE c.positive = true AND (c.value CONTAINS k.stem OR c.slot = 'state:' + k.stem) AND m.forgetting IS NULL
  AND NOT c.slot STARTS WITH 'does:' AND NOT c.slot STARTS WITH 'likes:'
RETURN DISTINCT k.subject AS subject, c.slot AS slot, c.value AS value
