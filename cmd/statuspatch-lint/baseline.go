package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Baselines are the command's, not the analyzer's (which reads and writes
// no file): -baseline=FILE and -write-baseline=FILE are taken out of the
// arguments, the checker runs once with -json, and the findings are
// filtered (or recorded) here, after analysis, as golangci-lint filters
// its issues. Under go vet and in golangci-lint there is no baseline flag
// (docs/lint.md says what to use there).

// baselineFlags returns args without -baseline and -write-baseline (as
// -name=FILE or -name FILE) and their values.
func baselineFlags(args []string) (rest []string, read, write string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || (name != "baseline" && name != "write-baseline") {
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil, "", "", fmt.Errorf("flag -%s needs a file name", name)
			}
			i++
			val = args[i]
		}
		if val == "" {
			return nil, "", "", fmt.Errorf("flag -%s needs a file name", name)
		}
		if name == "baseline" {
			read = val
		} else {
			write = val
		}
	}
	return rest, read, write, nil
}

// runBaseline runs the checker with args (without the baseline flags) and
// either records its findings in write, or reports those not recorded in
// read and the entries of read that match no call any more. It returns
// the exit status: 0 clean, 3 with findings, 1 on errors, 2 on bad usage.
func runBaseline(self string, args []string, read, write string, stderr io.Writer) int {
	for _, a := range args {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && (name == "fix" || name == "json" || name == "diff") {
			fmt.Fprintf(stderr, "statuspatch-lint: -%s does not combine with -baseline or -write-baseline: run it without them\n", name)
			return 2
		}
	}
	if read != "" && write != "" {
		fmt.Fprintln(stderr, "statuspatch-lint: give -baseline or -write-baseline, not both")
		return 2
	}
	var baseline map[baselineKey]bool
	if read != "" {
		b, err := readBaseline(read)
		if err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1
		}
		baseline = b
	}
	var out, failed bytes.Buffer
	if code := runChild(self, append([]string{"-json"}, args...), &out, &failed); code != 0 {
		stderr.Write(failed.Bytes())
		return code
	}
	diags, err := jsonFindings(out.Bytes())
	if err != nil {
		fmt.Fprintf(stderr, "statuspatch-lint: reading the findings: %v\n", err)
		return 1
	}
	parsed := map[string]*fileCalls{}
	calls := func(filename, pkgFile string) (*fileCalls, error) {
		if fc, ok := parsed[filename]; ok {
			return fc, nil
		}
		fc, err := parseCalls(filename, pkgFile)
		parsed[filename] = fc
		return fc, err
	}
	var left []string
	var record []string
	matched := map[baselineKey]bool{}
	for _, d := range diags {
		fc, err := calls(d.file, d.pkgFile)
		if err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1
		}
		k, ok := fc.at(d.line, d.col)
		switch {
		case !ok: // not at a call (a directive): always reported
			left = append(left, d.text)
		case write != "":
			record = append(record, k.String())
		case baseline[k]:
			matched[k] = true
		default:
			left = append(left, d.text)
		}
	}
	if write != "" {
		if err := writeBaseline(write, record); err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "statuspatch-lint: recorded %d findings in %s\n", len(record), write)
	} else {
		stale, err := staleEntries(self, args, baseline, matched, read, calls)
		if err != nil {
			fmt.Fprintf(stderr, "statuspatch-lint: %v\n", err)
			return 1
		}
		left = append(left, stale...)
	}
	for _, l := range left {
		fmt.Fprintln(stderr, l)
	}
	if len(left) > 0 {
		return 3
	}
	return 0
}

// finding is one diagnostic of the checker's -json output.
type finding struct {
	pkgFile, file string // "<package path>/<file name>", the file
	line, col     int
	text          string // posn: message, as the checker prints it
}

// jsonFindings reads the checker's -json output (package -> analyzer ->
// diagnostics), in file and position order, each diagnostic once (a
// package and its test variant report the same ones).
func jsonFindings(out []byte) ([]finding, error) {
	var byPkg map[string]map[string]json.RawMessage
	if err := json.Unmarshal(out, &byPkg); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var all []finding
	for id, analyzers := range byPkg {
		raw, ok := analyzers["statuspatch"]
		if !ok {
			continue
		}
		var diags []jsonDiagnostic
		if err := json.Unmarshal(raw, &diags); err != nil {
			return nil, fmt.Errorf("package %s: %s", id, raw)
		}
		pkgPath := strings.Fields(id)[0]
		for _, d := range diags {
			text := d.Posn + ": " + d.Message
			if seen[text] {
				continue
			}
			seen[text] = true
			f := finding{text: text}
			rest, col, err1 := cutInt(d.Posn)
			file, line, err2 := cutInt(rest)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("package %s: position %q is not file:line:column", id, d.Posn)
			}
			f.file, f.line, f.col = file, line, col
			f.pkgFile = path.Join(pkgPath, filepath.Base(file))
			all = append(all, f)
		}
	}
	slices.SortFunc(all, func(a, b finding) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if a.line != b.line {
			return a.line - b.line
		}
		if a.col != b.col {
			return a.col - b.col
		}
		return strings.Compare(a.text, b.text) // two at one place: not byPkg's map order
	})
	return all, nil
}

// cutInt splits "s:N" into s and N.
func cutInt(s string) (string, int, error) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return "", 0, fmt.Errorf("no colon in %q", s)
	}
	n, err := strconv.Atoi(s[i+1:])
	return s[:i], n, err
}

// staleEntries returns, at each file's package clause, the entries of the
// baseline whose file is one of the analyzed packages' files and whose
// call is gone from it (a call still there but not reported in this mode
// is not stale: a baseline serves every mode).
func staleEntries(self string, args []string, baseline, matched map[baselineKey]bool, name string, calls func(filename, pkgFile string) (*fileCalls, error)) ([]string, error) {
	files, err := analyzedFiles(self, args)
	if err != nil {
		return nil, err
	}
	var stale []string
	for k := range baseline {
		filename, ok := files[k.file]
		if !ok || matched[k] {
			continue
		}
		fc, err := calls(filename, k.file)
		if err != nil {
			return nil, err
		}
		if !fc.has(k) {
			stale = append(stale, fmt.Sprintf("%s: stale baseline entry: a call in %s (%s) is gone: remove it from %s", fc.packageClause(), k.function, k.fingerprint, name))
		}
	}
	slices.Sort(stale)
	return stale, nil
}

// analyzedFiles maps "<package path>/<file name>" to the file, for the
// packages the arguments name (with their tests when -test is true, the
// checker's default).
func analyzedFiles(self string, args []string) (map[string]string, error) {
	defs, err := checkerFlags(self)
	if err != nil {
		return nil, err
	}
	patterns, tests, err := listArgs(defs, args)
	if err != nil {
		return nil, fmt.Errorf("listing the packages for the baseline: %w", err)
	}
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles, Tests: tests}, patterns...)
	if err != nil {
		return nil, fmt.Errorf("listing the packages for the baseline: %w", err)
	}
	files := map[string]string{}
	for _, p := range pkgs {
		for _, f := range p.GoFiles {
			files[path.Join(p.PkgPath, filepath.Base(f))] = f
		}
	}
	return files, nil
}

// checkerFlag is one flag as the checker's -flags lists it (go vet's
// protocol).
type checkerFlag struct {
	Name string
	Bool bool
}

// checkerFlags asks the checker for its flags (-flags, go vet's list).
func checkerFlags(self string) ([]checkerFlag, error) {
	var out, failed bytes.Buffer
	if code := runChild(self, []string{"-flags"}, &out, &failed); code != 0 {
		return nil, fmt.Errorf("listing the checker's flags (-flags): exit status %d: %s", code, bytes.TrimSpace(failed.Bytes()))
	}
	var defs []checkerFlag
	if err := json.Unmarshal(out.Bytes(), &defs); err != nil {
		return nil, fmt.Errorf("listing the checker's flags (-flags): %w", err)
	}
	return defs, nil
}

// standaloneFlags are the checker's flags that -flags leaves out (x/tools'
// analysisflags.printFlags: go vet does not pass them).
var standaloneFlags = []checkerFlag{{Name: "fix", Bool: true}, {Name: "debug"}, {Name: "cpuprofile"}, {Name: "memprofile"}, {Name: "trace"}}

// listArgs parses args as the checker does, with the flag package and the
// checker's flags (defs and standaloneFlags): it returns the package patterns and the checker's -test
// (default true). A flag the list lacks is an error.
func listArgs(defs []checkerFlag, args []string) (patterns []string, tests bool, err error) {
	fs := flag.NewFlagSet("statuspatch-lint", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	test := new(bool)
	*test = true
	for _, d := range append(slices.Clip(defs), standaloneFlags...) {
		switch {
		case fs.Lookup(d.Name) != nil:
		case d.Name == "test":
			fs.BoolVar(test, "test", true, "")
		case d.Bool:
			fs.Bool(d.Name, false, "")
		default:
			fs.String(d.Name, "", "")
		}
	}
	if err := fs.Parse(args); err != nil {
		return nil, false, err
	}
	return fs.Args(), *test, nil
}

// readBaseline reads a baseline file. A missing file is an error: a typo
// in the path must not silently suppress nothing.
func readBaseline(name string) (map[baselineKey]bool, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("statuspatch baseline: %w", err)
	}
	defer f.Close()
	keys := map[baselineKey]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want 3 tab-separated fields (file, function, fingerprint), got %d (a baseline of an older statuspatch-lint: write it again with -write-baseline)", name, n, len(parts))
		}
		keys[baselineKey{parts[0], parts[1], parts[2]}] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("statuspatch baseline %s: %w", name, err)
	}
	return keys, nil
}

// writeBaseline writes the entries, sorted, through a temporary file
// renamed over name (an empty baseline when there are none).
func writeBaseline(name string, entries []string) error {
	slices.Sort(entries)
	entries = slices.Compact(entries)
	data := "# statuspatch-lint baseline: file, function, fingerprint (see docs/lint.md)\n"
	if len(entries) > 0 {
		data += strings.Join(entries, "\n") + "\n"
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return fmt.Errorf("write statuspatch baseline %s: %w", name, err)
	}
	if err := os.Rename(tmp, name); err != nil {
		return fmt.Errorf("write statuspatch baseline %s: %w", name, err)
	}
	return nil
}
