// import_end: the import into the user is complete: remove its mark (import_begin).
// params: user_id
// mode: write
MATCH (u:User {id: $user_id})
REMOVE u.importing
RETURN count(u) AS done
