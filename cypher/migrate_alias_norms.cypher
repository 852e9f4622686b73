// migrate_alias_norms: entities written before graphmem kept alias_norms (the lower-cased
// aliases recall_entities_by_name seeks by) get it, once per graph: a (:Graphmem {layout:
// 'alias_norms'}) marker says it is done, so later runs read one node (an import sets them
// itself: import_nodes.cypher). Run by Memory.setup. One statement: a crash leaves either the
// entities as they were or all of them and the marker.
// params:
// mode: write
OPTIONAL MATCH (done:Graphmem {layout: 'alias_norms'})
WITH done WHERE done IS NULL
OPTIONAL MATCH (e:Entity)
WHERE e.alias_norms IS NULL
WITH collect(e) AS old
FOREACH (x IN old | SET x.alias_norms = [a IN coalesce(x.aliases, []) | toLower(a)])
MERGE (:Graphmem {layout: 'alias_norms'})
RETURN size(old) AS migrated
