package explore

import "github.com/statuspatch/statuspatch/testenv/explore/internal/outcome"

// Step is one reconcile (or action) of a schedule: its reads, its writes
// and the stale windows that served them (internal/outcome).
type Step = outcome.Step

// Read is one read of a step. Versions count from 1, the created object.
type Read = outcome.Read

// Write is one write of a step and the server's answer.
type Write = outcome.Write
