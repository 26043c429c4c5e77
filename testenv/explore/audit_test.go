package explore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore"
	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

// blindAudit is statuspatch-lint -audit's finding for phaser's blind
// status patch (writebase_test.go).
const blindAudit = "blind: Status().Patch of Widget: client.MergeFrom without optimistic lock"

// A violation a write caused names, beside the write's kind and line,
// statuspatch-lint -audit's finding for that line, in the message and in
// the JSON report; without the linter, none. A write that is not a
// status write (a delete) is named as such, with the linter or not.
func TestViolationNamesTheAuditOfItsWrite(t *testing.T) {
	lint := buildLint(t)
	o := serverOptions(t)
	o.Lint, o.Report = lint, filepath.Join(t.TempDir(), "report.json")
	res, err := explore.Run(t.Context(), phaserScenario(false), o)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || v.Invariant != explore.InvariantLostWrite {
		t.Fatalf("blind patch after a newer read: want %s, got:\n%v", explore.InvariantLostWrite, v)
	}
	t.Logf("%s", v.Message)
	namesWrite(t, v.Message, "blind merge patch of status", "writebase_test.go", "r.c.Status().Patch(ctx, w, opt)")
	if !strings.HasSuffix(v.Message, " (statuspatch-lint -audit: "+blindAudit+")") {
		t.Errorf("the message does not end with the line's audit %q: %q", blindAudit, v.Message)
	}
	if v.Cause == nil || v.Cause.Kind != "blind merge patch of status" || v.Cause.Audit != blindAudit {
		t.Errorf("Cause: %+v, want the blind merge patch of status, audited %q", v.Cause, blindAudit)
	}
	rep, err := report.Read(o.Report)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Violations) != 1 || rep.Violations[0].Cause == nil || rep.Violations[0].Cause.Audit != blindAudit ||
		rep.Violations[0].Message != v.Message {
		t.Errorf("report: want the violation with cause audited %q, got %+v", blindAudit, rep.Violations)
	}

	// Without the linter: the write, and no audit.
	o.Lint, o.Report, o.Replay = filepath.Join(t.TempDir(), "statuspatch-lint"), "", v.Seed
	res, err = explore.Run(t.Context(), phaserScenario(false), o)
	if err != nil || res.Violation == nil || res.Violation.Cause == nil {
		t.Fatalf("replay %q without the linter: want the violation and its cause, got %v, %v", v.Seed, err, res.Violation)
	}
	if c := res.Violation.Cause; c.Audit != "" || c.Kind != v.Cause.Kind || c.At != v.Cause.At || strings.Contains(res.Violation.Message, "statuspatch-lint") {
		t.Errorf("without the linter: want %s at %s and no audit, got %+v, %q", v.Cause.Kind, v.Cause.At, c, res.Violation.Message)
	}

	// A delete: not a status write, linter or not, in the message and the
	// report.
	for _, l := range []string{lint, "off"} {
		o.Lint, o.Replay, o.Report = l, "", filepath.Join(t.TempDir(), "report.json")
		res, err = explore.Run(t.Context(), gizmoScenario(gizmoReconciler{staleParent: true}), o)
		if err != nil || res.Violation == nil || res.Violation.Invariant != explore.InvariantOwnDelete {
			t.Fatalf("stale parent: want %s, got %v, %v", explore.InvariantOwnDelete, err, res.Violation)
		}
		namesWrite(t, res.Violation.Message, "delete", "builtin_test.go", "r.c.Delete(ctx, g,")
		const class = "not a status write"
		if c := res.Violation.Cause; c == nil || c.Audit != class || !strings.HasSuffix(res.Violation.Message, " (audit: "+class+")") ||
			strings.Contains(res.Violation.Message, "statuspatch-lint") {
			t.Errorf("a delete (lint %s): want audited %q, got %+v, %q", l, class, c, res.Violation.Message)
		}
		if rep, err := report.Read(o.Report); err != nil || len(rep.Violations) != 1 || rep.Violations[0].Cause == nil || rep.Violations[0].Cause.Audit != class {
			t.Errorf("a delete (lint %s): want the report's cause audited %q, got %v, %+v", l, class, err, rep)
		}
	}
}

// buildLint builds statuspatch-lint from this checkout's
// cmd/statuspatch-lint, with its own go.mod. Under hack/compat.sh (GOWORK
// off, a line's Go) the linter loads this package in the repository's
// workspace, with a Go new enough for it, as testenv-server is built
// (servers_test.go).
func buildLint(t *testing.T) string {
	t.Helper()
	_ = os.Getenv("STATUSPATCH_SOURCE_DIGEST") // its source is outside this module (serverBinary)
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build statuspatch-lint with: %v", err)
	}
	if os.Getenv("GOWORK") == "off" {
		work, err := filepath.Abs(filepath.Join("..", "..", "go.work"))
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv("GOWORK", work)
		t.Setenv("GOTOOLCHAIN", "auto")
	}
	bin := filepath.Join(t.TempDir(), "statuspatch-lint")
	cmd := exec.Command(goCmd, "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("..", "..", "cmd", "statuspatch-lint")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/statuspatch-lint: %v\n%s", err, out)
	}
	return bin
}
