// Package outcome is what a search reports of a schedule, as the user
// reads it in a Violation: its Steps, each with its Reads, its Writes
// (and the server's answers) and the stale Windows that served them, and
// the Bounds of the search that found it, with the deepening's levels
// (DeepeningLevel). Package explore gives these types under its own
// names (aliases); the run fills them in, and nothing here runs a
// schedule.
//
// It imports of the explorer's module only internal/informers, for the
// stale windows (imports_test.go in the explorer's folder checks it).
package outcome

import "github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

// Window is a stale window of a schedule (internal/informers, stale.go;
// explore.Window says what its fields hold).
type Window = informers.Window
