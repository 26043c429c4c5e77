package explore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// A violation a write caused names that write's kind and line
// (writecall.go); where the operator's source is on disk and
// statuspatch-lint is at hand, it also names the line's -audit finding:
// "blind: Status().Patch of Widget: client.MergeFrom without optimistic
// lock" (issue 73). The explorer runs the linter as a program: importing
// it would add golang.org/x/tools to the operator's module graph
// (hack/explorepins). It runs `statuspatch-lint -audit -json .` once per
// package folder per process, and takes a finding only from the line the
// write was sent from; a write that is not a status write has none, and
// the report then says nothing of it.

// envLint names the statuspatch-lint binary when Options.Lint does not.
const envLint = "STATUSPATCH_LINT"

// sourceFiles maps a call site's short file name ("controllers/x.go") to
// the file its frame named, as the binary recorded it: absolute, unless
// built with -trimpath; "" when two files share the short name.
var sourceFiles sync.Map

func rememberFile(short, full string) {
	if v, loaded := sourceFiles.LoadOrStore(short, full); loaded && v.(string) != full {
		sourceFiles.Store(short, "")
	}
}

// audits caches the linter's findings per binary and folder for the
// process, each "file:line" to its message; a run at a time.
var audits struct {
	sync.Mutex
	m map[auditKey]map[string]string
}

type auditKey struct {
	bin, dir string
	tests    bool
}

// lintBinary is the statuspatch-lint o names (Options.Lint): "" for
// none.
func lintBinary(o Options) string {
	name := o.Lint
	if name == "" {
		name = os.Getenv(envLint)
	}
	if name == "" {
		name = moduleLint()
	}
	if name == "" {
		name = "statuspatch-lint"
	}
	if name == "off" {
		return ""
	}
	bin, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return bin
}

// moduleLint is bin/statuspatch-lint of the module go test runs in (the
// folder of the nearest go.mod above the working folder), where the
// README's install and kubebuilder's Makefile put it; "" when it has
// none.
func moduleLint() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			bin := filepath.Join(dir, "bin", "statuspatch-lint")
			if _, err := os.Stat(bin); err != nil {
				return ""
			}
			return bin
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// auditResult adds, once, the audit of each violation's Cause to res's
// violations: Cause.Audit, and the finding at the end of the Message.
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
		if v.Cause == nil || v.Cause.At == "" {
			continue
		}
		if bin == "" {
			if bin = lintBinary(o); bin == "" {
				return
			}
		}
		finding, err := auditLine(ctx, bin, v.Cause.At)
		if err != nil && !o.Quiet && o.Progress != nil {
			fmt.Fprintf(o.Progress, "explore: no audit of the write at %s: %v\n", v.Cause.At, err)
		}
		if finding != "" {
			v.Cause.Audit = finding
			v.Message += " (statuspatch-lint -audit: " + finding + ")"
		}
	}
}

// auditLine is the linter's finding for the call site at ("dir/x.go:42",
// or "dir/x.go:42 through wrap/c.go:9": the first line), "" when the
// source is not on disk or the line has no finding.
func auditLine(ctx context.Context, bin, at string) (string, error) {
	site, _, _ := strings.Cut(at, " through ")
	i := strings.LastIndex(site, ":")
	if i < 0 {
		return "", nil
	}
	v, _ := sourceFiles.Load(site[:i])
	file, _ := v.(string)
	if !filepath.IsAbs(file) {
		return "", nil
	}
	if _, err := os.Stat(file); err != nil {
		return "", nil
	}
	key := auditKey{bin: bin, dir: filepath.Dir(file), tests: strings.HasSuffix(file, "_test.go")}
	audits.Lock()
	defer audits.Unlock()
	findings, ok := audits.m[key]
	var err error
	if !ok {
		// A failed run is not run again (its error is said once), unless
		// it failed because ctx ended.
		if findings, err = runLint(ctx, key); err == nil || ctx.Err() == nil {
			if audits.m == nil {
				audits.m = map[auditKey]map[string]string{}
			}
			audits.m[key] = findings
		}
	}
	return findings[filepath.Clean(file)+site[i:]], err
}

// runLint runs statuspatch-lint -audit -json on the package in key.dir
// (with -tests for a test file's write).
func runLint(ctx context.Context, key auditKey) (map[string]string, error) {
	args := []string{"-audit", "-json"}
	if key.tests {
		args = append(args, "-tests")
	}
	cmd := exec.CommandContext(ctx, key.bin, append(args, ".")...)
	cmd.Dir = key.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	findings := parseAudit(out)
	if err != nil && len(findings) == 0 {
		return nil, fmt.Errorf("%s %s . in %s: %w: %s", key.bin, strings.Join(args, " "), key.dir, err, strings.TrimSpace(stderr.String()))
	}
	return findings, nil
}

// auditVerdicts start an -audit finding's message.
var auditVerdicts = []string{"optimistic: ", "blind: ", "unresolved: "}

// parseAudit reads the linter's -json output, {package: {analyzer:
// [diagnostic...] or {"error": ...}}}, into each finding's "file:line"
// and message. A line with two different findings has none: which write
// was sent is not known.
func parseAudit(out []byte) map[string]string {
	var tree map[string]map[string]json.RawMessage
	if json.Unmarshal(out, &tree) != nil {
		return nil
	}
	findings := map[string]string{}
	for _, byAnalyzer := range tree {
		for _, raw := range byAnalyzer {
			var ds []struct{ Posn, Message string }
			if json.Unmarshal(raw, &ds) != nil {
				continue
			}
			for _, d := range ds {
				if !isAuditFinding(d.Message) {
					continue
				}
				line := d.Posn[:max(strings.LastIndex(d.Posn, ":"), 0)] // without the column
				if j := strings.LastIndex(line, ":"); j > 0 {
					line = filepath.Clean(line[:j]) + line[j:]
				}
				if old, ok := findings[line]; ok && old != d.Message {
					d.Message = ""
				}
				findings[line] = d.Message
			}
		}
	}
	return findings
}

func isAuditFinding(msg string) bool {
	for _, v := range auditVerdicts {
		if strings.HasPrefix(msg, v) {
			return true
		}
	}
	return false
}
