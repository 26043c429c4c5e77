package explore

import "github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

// Window is a stale window of a schedule: from the read that opened it to
// the one that closed it (or the end of the last step it served), every
// cached read the controllers of one process made of Kind through one
// informer saw the kind as it was at one point of the schedule. Each step
// it served lists it. Its fields: Controller, the reconciler whose read
// opened it, and Kind; Informer, the informer's representation ("",
// "unstructured", "metadata-only", as Read.Informer); FromStep and
// ToStep, the steps it spans; Opened, the read that opened it; Reads, the
// reads it served, that one included, in all its steps. How windows open
// and close: internal/informers (stale.go).
type Window = informers.Window
