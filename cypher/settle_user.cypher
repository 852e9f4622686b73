// settle_user: mark the user's memory finished by a writer that holds its lease: no ingest
// left anything half-written, and the entity catalogue is the one named $catalog (a process
// that wrote it may keep its copy; any other writer names another or none, stored as ''). Only
// one property is ever removed here: FalkorDB 4.16, removing an existing property and setting
// another to a null parameter in one SET, removes a third instead.
// params: user_id, catalog
// mode: write
MATCH (u:User {id: $user_id})
SET u.unfinished = null, u.catalog = coalesce($catalog, '')
RETURN u.catalog AS catalog
