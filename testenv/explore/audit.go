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
// write was sent from. A write that is not a status write (a create, a
// delete, a spec patch, another subresource's) is not the linter's to
// class: its request says so, and the report names its class as
// notStatusWrite, linter or not.
//
// The linter runs in the folder go test runs in, the operator's module,
// on the write's package by its import path: a write in a dependency's
// package (a status helper library, in the module cache or replaced to a
// folder) is audited through the operator's build, never in the
// dependency's own folder, whose go.mod (its replace lines, a missing
// go.sum) may not build (issue 82).

// notStatusWrite is the audit class of a write that is not a status
// write.
const notStatusWrite = "not a status write"

// statusWrite reports that the write of verb ("status patch", "status
// update", "status apply", as the explorer's client records it) went to
// the status subresource.
func statusWrite(verb string) bool { return strings.HasPrefix(verb, "status ") }

// envLint names the statuspatch-lint binary when Options.Lint does not.
const envLint = "STATUSPATCH_LINT"

// sourceFiles maps a call site's short file name ("controllers/x.go") to
// the file its frame named, as the binary recorded it (absolute, unless
// built with -trimpath), and its package's import path; the zero
// sourceFile when two files share the short name.
var sourceFiles sync.Map

// sourceFile is a call site's file and the import path of its package.
type sourceFile struct{ file, pkg string }

// rememberFile notes the file and package of the frame whose function is
// fn ("example.com/op/internal/ctl.(*R).Reconcile").
func rememberFile(short, full, fn string) {
	sf := sourceFile{file: full, pkg: funcPackage(fn)}
	if v, loaded := sourceFiles.LoadOrStore(short, sf); loaded && v.(sourceFile) != sf {
		sourceFiles.Store(short, sourceFile{})
	}
}

// funcPackage is the import path of a function's package as the runtime
// names it: "example.com/op/ctl" of "example.com/op/ctl.(*R).Reconcile",
// "gopkg.in/yaml.v3" of "gopkg.in/yaml%2ev3.F" (a dot of the last
// element is escaped), type arguments ("F[...]") aside; "" for none.
func funcPackage(fn string) string {
	if i := strings.IndexByte(fn, '['); i >= 0 {
		fn = fn[:i]
	}
	slash := strings.LastIndexByte(fn, '/')
	dot := strings.IndexByte(fn[slash+1:], '.')
	if dot < 0 {
		return ""
	}
	return strings.ReplaceAll(fn[:slash+1+dot], "%2e", ".")
}

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
// violations: Cause.Audit, and the finding (or notStatusWrite) at the
// end of the Message.
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
		if v.Cause != nil && !statusWrite(v.Cause.Verb) {
			v.Cause.Audit = notStatusWrite
			v.Message += " (audit: " + notStatusWrite + ")"
			continue
		}
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
