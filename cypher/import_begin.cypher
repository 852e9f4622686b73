// import_begin: before an import writes: the user node keeps its id and the lease the import
// holds and nothing else (the file's user node brings its properties), and is marked with the
// import's key ($token, a digest of the file), so that a retry of an interrupted import of the
// same file may go on where the user already holds what it wrote. import_end removes the mark.
// params: user_id, token
// mode: write
MERGE (u:User {id: $user_id})
SET u = {id: $user_id, lease: u.lease, lease_until: u.lease_until, lease_holder: u.lease_holder, importing: $token}
RETURN u.id AS user
