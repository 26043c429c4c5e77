package lint

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/printer"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
)

// A baseline lists findings that are known and tolerated, one per line:
//
//	<package path>/<file name> <TAB> <verb> <TAB> <kind> <TAB> <fingerprint>
//
// The fingerprint names the function holding the write and hashes the
// call's source text, with a #n suffix for the n-th identical call in the
// file: it survives edits elsewhere in the file, unlike a line number.
type baselineKey struct {
	file, verb, kind, fingerprint string
}

func (k baselineKey) String() string {
	return k.file + "\t" + k.verb + "\t" + k.kind + "\t" + k.fingerprint
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
		if len(parts) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 tab-separated fields (file, verb, kind, fingerprint), got %d", name, n, len(parts))
		}
		keys[baselineKey{parts[0], parts[1], parts[2], parts[3]}] = true
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("statuspatch baseline %s: %w", name, err)
	}
	return keys, nil
}

// baselineKeys computes the key of each write, by position of its call.
func baselineKeys(pass *analysis.Pass, files *fileSet, ws []*write) map[*write]baselineKey {
	keys := map[*write]baselineKey{}
	seen := map[baselineKey]int{}
	for _, w := range ws {
		call, ok := files.calls[w.pos]
		if !ok {
			continue
		}
		var text strings.Builder
		if err := printer.Fprint(&text, pass.Fset, call); err != nil {
			continue
		}
		sum := sha256.Sum256([]byte(strings.Join(strings.Fields(text.String()), " ")))
		k := baselineKey{
			file:        path.Join(pass.Pkg.Path(), filepath.Base(pass.Fset.Position(call.Pos()).Filename)),
			verb:        w.label(),
			kind:        w.kind.name,
			fingerprint: w.instr.Parent().RelString(pass.Pkg) + ":" + hex.EncodeToString(sum[:6]),
		}
		seen[k]++
		if n := seen[k]; n > 1 {
			k.fingerprint += fmt.Sprintf("#%d", n)
		}
		keys[w] = k
	}
	return keys
}

// staleEntries reports the baseline entries of the package's checked
// files that match no write any more, at the file's package clause.
func staleEntries(pass *analysis.Pass, files *fileSet, baseline map[baselineKey]bool, found map[baselineKey]bool, name string, report func(analysis.Diagnostic)) {
	byFile := map[string]*ast.File{}
	for _, f := range pass.Files {
		if files.checked(f.Package) {
			byFile[path.Join(pass.Pkg.Path(), filepath.Base(pass.Fset.Position(f.Package).Filename))] = f
		}
	}
	for k := range baseline {
		if f, ok := byFile[k.file]; ok && !found[k] {
			report(analysis.Diagnostic{Pos: f.Package, Category: categoryBaseline,
				Message: fmt.Sprintf("stale baseline entry: %s of %s (%s) is gone: remove it from %s", k.verb, k.kind, k.fingerprint, name)})
		}
	}
}

// baselineWriter accumulates the findings of every package analyzed by
// this process and rewrites the file, sorted, after each one.
type baselineWriter struct {
	mu      sync.Mutex
	name    string
	entries map[string]bool
}

var (
	baselineWritersMu sync.Mutex
	baselineWriters   = map[string]*baselineWriter{}
)

func writerFor(name string) *baselineWriter {
	baselineWritersMu.Lock()
	defer baselineWritersMu.Unlock()
	bw, ok := baselineWriters[name]
	if !ok {
		bw = &baselineWriter{name: name, entries: map[string]bool{}}
		baselineWriters[name] = bw
	}
	return bw
}

// add records keys and rewrites the file (also when keys is empty, so a
// run without findings leaves an empty baseline, not an old one).
func (bw *baselineWriter) add(keys []baselineKey) error {
	bw.mu.Lock()
	defer bw.mu.Unlock()
	for _, k := range keys {
		bw.entries[k.String()] = true
	}
	lines := make([]string, 0, len(bw.entries))
	for l := range bw.entries {
		lines = append(lines, l)
	}
	slices.Sort(lines)
	data := "# statuspatch-lint baseline: file, verb, kind, fingerprint (see docs/lint.md)\n"
	if len(lines) > 0 {
		data += strings.Join(lines, "\n") + "\n"
	}
	tmp := bw.name + ".tmp"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		return fmt.Errorf("write statuspatch baseline %s: %w", bw.name, err)
	}
	if err := os.Rename(tmp, bw.name); err != nil {
		return fmt.Errorf("write statuspatch baseline %s: %w", bw.name, err)
	}
	return nil
}
