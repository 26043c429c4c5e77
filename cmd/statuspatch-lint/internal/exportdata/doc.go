// Package exportdata is the statuspatch-lint command's export-data
// loading, as go vet loads: it lists the packages with go list (load.go)
// and type-checks from source only those that can hold a status write or
// a fact, the others from the build cache's export data (check.go).
//
//   - Load: the patterns' packages, type-checked, and how (Stats).
//   - ErrDecline: wrapped when the full checker must run instead;
//     StaleError beside it when only the build cache lacks dependencies,
//     which Compile (go list -export, building) puts there for -fix.
//   - RefuseTool, ToolexecEnv: the command as go list's -toolexec, which
//     builds nothing.
package exportdata
