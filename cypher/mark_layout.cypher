// mark_layout: record that a migration run in Python is done on this graph (layout_done.cypher).
// params: layout
// mode: write
MERGE (:Graphmem {layout: $layout})
RETURN $layout AS layout
