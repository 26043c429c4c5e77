package explore

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/callsite"

	"context"
	"fmt"
)

// A violation a write caused names that write's kind and line
// (Write.Kind, Write.At, read by internal/callsite); where the
// operator's source is on disk and statuspatch-lint is at hand, it also
// names the line's -audit finding: "blind: Status().Patch of Widget:
// client.MergeFrom without optimistic lock" (issue 73). The explorer
// runs the linter as a program: importing it would add golang.org/x/tools
// to the operator's module graph (hack/explorepins). It runs
// `statuspatch-lint -audit -json` once per package per process, and takes
// a finding only from the line the write was sent from. A write that is
// not a status write (a create, a delete, a spec patch, another
// subresource's) is not the linter's to class: its request says so, and
// the report names its class as callsite.NotStatusWrite, linter or not.
//
// The linter runs in the folder go test runs in, the operator's module,
// on the write's package by its import path: a write in a dependency's
// package (a status helper library, in the module cache or replaced to a
// folder) is audited through the operator's build, never in the
// dependency's own folder, whose go.mod (its replace lines, a missing
// go.sum) may not build (issue 82).

// auditResult adds, once, the audit of each violation's Cause to res's
// violations: Cause.Audit, and the finding (or callsite.NotStatusWrite)
// at the end of the Message.
// Errors of the linter go to the progress writer; the violation then
// names no audit.
func auditResult(ctx context.Context, o Options, res *Result) {
	if res == nil {
		return
	}
	bin := ""
	for _, v := range append([]*Violation{res.Violation}, res.Violations...) {
		if v == nil || v.audited {
			continue
		}
		v.audited = true
		if v.Cause != nil && !callsite.StatusWrite(v.Cause.Verb) {
			v.Cause.Audit = callsite.NotStatusWrite
			v.Message += " (audit: " + callsite.NotStatusWrite + ")"
			continue
		}
		if v.Cause == nil || v.Cause.At == "" {
			continue
		}
		if bin == "" {
			if bin = callsite.Lint(o.Lint); bin == "" {
				return
			}
		}
		finding, err := callsite.Audit(ctx, bin, v.Cause.At)
		if err != nil && !o.Quiet && o.Progress != nil {
			fmt.Fprintf(o.Progress, "explore: no audit of the write at %s: %v\n", v.Cause.At, err)
		}
		if finding != "" {
			v.Cause.Audit = finding
			v.Message += " (statuspatch-lint -audit: " + finding + ")"
		}
	}
}
