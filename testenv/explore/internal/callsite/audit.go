package callsite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// EnvLint names the statuspatch-lint binary when the explorer's
// Options.Lint does not.
const EnvLint = "STATUSPATCH_LINT"

// audits caches the linter's findings per binary and folder for the
// process, each "file:line" to its message; a run at a time.
var audits struct {
	sync.Mutex
	m map[auditKey]map[string]string
}

type auditKey struct {
	bin, pkg string
	tests    bool
}

// Lint is the statuspatch-lint binary name names (the explorer's
// Options.Lint), else $STATUSPATCH_LINT, else the module's
// bin/statuspatch-lint, else statuspatch-lint on $PATH: "" for none,
// or for "off".
func Lint(name string) string {
	if name == "" {
		name = os.Getenv(EnvLint)
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

// Audit is the finding of the linter bin for the call site at, as Of or
// Remember named it ("dir/x.go:42", or "dir/x.go:42 through
// wrap/c.go:9": the first line), "" when the source is not on disk or the
// line has no finding. The linter runs in the working folder (the
// operator's module) on the site's package by its import path, once per
// package for the process; a failed run is said once.
func Audit(ctx context.Context, bin, at string) (string, error) {
	site, _, _ := strings.Cut(at, " through ")
	i := strings.LastIndex(site, ":")
	if i < 0 {
		return "", nil
	}
	v, _ := sourceFiles.Load(site[:i])
	sf, _ := v.(sourceFile)
	file := sf.file
	if !filepath.IsAbs(file) || sf.pkg == "" {
		return "", nil
	}
	if _, err := os.Stat(file); err != nil {
		return "", nil
	}
	key := auditKey{bin: bin, pkg: sf.pkg, tests: strings.HasSuffix(file, "_test.go")}
	if key.tests {
		key.pkg = strings.TrimSuffix(key.pkg, "_test") // an external test package: -tests loads it
	}
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

// runLint runs statuspatch-lint -audit -json on the package key.pkg
// (with -tests for a test file's write) in the working folder: the
// operator's module, whose build the package is part of.
func runLint(ctx context.Context, key auditKey) (map[string]string, error) {
	args := []string{"-audit", "-json"}
	if key.tests {
		args = append(args, "-tests")
	}
	args = append(args, key.pkg)
	cmd := exec.CommandContext(ctx, key.bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	findings := parseAudit(out)
	if err != nil && len(findings) == 0 {
		wd, _ := os.Getwd()
		return nil, fmt.Errorf("%s %s in %s: %w: %s", key.bin, strings.Join(args, " "), wd, err, strings.TrimSpace(stderr.String()))
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

// A violation a write caused names that write's kind and line; where the
// operator's source is on disk and statuspatch-lint is at hand, it also
// names the line's -audit finding: "blind: Status().Patch of Widget:
// client.MergeFrom without optimistic lock" (issue 73). The explorer
// runs the linter as a program: importing it would add golang.org/x/tools
// to the operator's module graph (hack/explorepins). Audit runs it once
// per package per process, and takes a finding only from the line the
// write was sent from. A write that is not a status write (a create, a
// delete, a spec patch, another subresource's) is not the linter's to
// class: its request says so, and the finding is NotStatusWrite, linter
// or not.
//
// The linter runs in the folder go test runs in, the operator's module,
// on the write's package by its import path: a write in a dependency's
// package (a status helper library, in the module cache or replaced to a
// folder) is audited through the operator's build, never in the
// dependency's own folder, whose go.mod (its replace lines, a missing
// go.sum) may not build (issue 82).

// Auditor audits the writes a report's violations name: it finds the
// linter (Lint) at the first write it has to ask, and says when there is
// none, so that the report asks no more.
type Auditor struct {
	// Lint names the linter (the explorer's Options.Lint); Progress is
	// where an error of the linter is said (nil: nowhere).
	Lint     string
	Progress io.Writer
	bin      string
}

// Write audits a write of verb sent from at ("" when unknown): the
// finding, and the note the violation's message ends with ("" for none);
// more is false when no linter is at hand, so nothing more can be
// audited. An error of the linter goes to Progress, and the write then
// has no finding.
func (a *Auditor) Write(ctx context.Context, verb, at string) (finding, note string, more bool) {
	if !StatusWrite(verb) {
		return NotStatusWrite, " (audit: " + NotStatusWrite + ")", true
	}
	if at == "" {
		return "", "", true
	}
	if a.bin == "" {
		if a.bin = Lint(a.Lint); a.bin == "" {
			return "", "", false
		}
	}
	finding, err := Audit(ctx, a.bin, at)
	if err != nil && a.Progress != nil {
		fmt.Fprintf(a.Progress, "explore: no audit of the write at %s: %v\n", at, err)
	}
	if finding == "" {
		return "", "", true
	}
	return finding, " (statuspatch-lint -audit: " + finding + ")", true
}
