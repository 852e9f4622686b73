// migrate_lists: graphmem once kept each L_j list as a ring (its tail linked back to its head);
// insert_simplices.cypher keeps lists, newest first. Cut the links into the heads, once per
// graph: a (:Graphmem {layout: 'lists'}) marker says it is done, so later runs read one node.
// Run by Memory.setup. One statement: a crash leaves either the rings or the lists and marker.
// params:
// mode: write
OPTIONAL MATCH (done:Graphmem {layout: 'lists'})
WITH done WHERE done IS NULL
OPTIONAL MATCH (h:SimplexNode)
WHERE h.ring_head IS NOT NULL
OPTIONAL MATCH (t)-[link:NEXT_SAME_LABEL]->(h)
DELETE link
WITH count(link) AS cut
MERGE (:Graphmem {layout: 'lists'})
RETURN cut
