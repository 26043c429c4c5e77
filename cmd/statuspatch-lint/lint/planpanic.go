package lint

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/lint/internal/migrate"
	"golang.org/x/tools/go/analysis"
)

// fixPlanner plans a write's move onto its patcher; a test puts one that
// fails in its place (planSafely's).
var fixPlanner = migrate.Fix

// planSafely runs plan, a write's move, and turns a panic of it into the
// reason the write stays: the write is still reported, unmoved, and the
// run's other findings and fixes stand, where the panic ended the whole
// run with exit 2 and nothing written (s114's newcomer: a tutorial-shaped
// Reconcile made every statuspatch-lint run of the project panic).
func planSafely(plan func() (*analysis.SuggestedFix, string)) (fix *analysis.SuggestedFix, why string) {
	defer func() {
		if r := recover(); r != nil {
			fix, why = nil, fmt.Sprintf("-fix failed while planning this write (%v, at %s): a bug of statuspatch-lint; please report it with this function's code, and move the write by hand", r, panicSite())
		}
	}()
	return plan()
}

// panicSite names the function and line of the linter where the panic
// being recovered was raised: the first frame below the runtime's.
func panicSite() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "runtime.") {
			name := f.Function[strings.LastIndex(f.Function, "/")+1:]
			return fmt.Sprintf("%s, %s:%d", name, filepath.Base(f.File), f.Line)
		}
		if !more {
			return "an unknown place"
		}
	}
}
