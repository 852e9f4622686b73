// layout_done: whether a migration that Memory.setup runs in Python (supersession.rekey) has
// run on this graph: a (:Graphmem {layout}) marker, as migrate_lists.cypher leaves one.
// params: layout
// mode: read
OPTIONAL MATCH (done:Graphmem {layout: $layout})
RETURN done IS NOT NULL AS done
