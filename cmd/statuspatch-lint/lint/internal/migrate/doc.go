// Package migrate is -fix's move of a handwritten status write onto its
// kind's generated patcher: Fix returns the suggested fix, or why the
// write stays. It reads the package's syntax and types only (no SSA, no
// disk); the analyzer gives it the writes it found (Write).
//
// Its types, one concern each:
//
//   - migration (migrate.go, migratewhy.go, migratefetch.go, ...): the plan
//     of one write: where the patcher is made, the base and re-reads it
//     replaces, and the reasons a write stays.
//   - helperMove (migratehelper*.go): a write in a write-only helper, which
//     takes the patcher its callers make; an exported one's callers in
//     other packages are a fix group a whole-module driver resolves
//     (migrateexported.go: HelperFact, GroupMember).
//   - applyMove (migrateapply.go): a server-side apply, onto apply mode.
//   - fetchPlan (migratefetch.go): a re-read made a Fetch of the patcher.
//   - site (migratesite.go, migratetext.go): the write's call in its file,
//     the statements around it and the text edits made there.
//   - calls (migratecalls.go): what the package's calls do: the client's
//     methods, client.MergeFrom, getters, the helpers tests may call.
package migrate
