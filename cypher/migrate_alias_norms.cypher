// migrate_alias_norms: entities written before graphmem kept alias_norms (the lower-cased
// aliases recall_entities_by_name seeks by), or imported from such an export, get it. Run by
// Memory.setup and after every import; where every entity has it, nothing is written.
// params:
// mode: write
MATCH (e:Entity)
WHERE e.alias_norms IS NULL
SET e.alias_norms = [a IN coalesce(e.aliases, []) | toLower(a)]
RETURN count(e) AS migrated
