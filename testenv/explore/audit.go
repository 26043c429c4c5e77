package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"

	"context"
)

// auditResult adds, once, the audit of each violation's Cause to res's
// violations (callsite.Auditor says what the audit is): Cause.Audit, and
// the finding (or callsite.NotStatusWrite) at the end of the Message.
// Errors of the linter go to the progress writer; the violation then
// names no audit.
func auditResult(ctx context.Context, o Options, res *Result) {
	if res == nil {
		return
	}
	a := callsite.Auditor{Lint: o.Lint}
	if !o.Quiet {
		a.Progress = o.Progress
	}
	for _, v := range append([]*Violation{res.Violation}, res.Violations...) {
		if v == nil || v.audited {
			continue
		}
		v.audited = true
		if v.Cause == nil {
			continue
		}
		finding, note, more := a.Write(ctx, v.Cause.Verb, v.Cause.At)
		if !more {
			return
		}
		if finding != "" {
			v.Cause.Audit, v.Message = finding, v.Message+note
		}
	}
}
