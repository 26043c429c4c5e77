// Package stubmod gives the tests of statuspatch-lint a copy of a module
// whose controller-runtime and k8s.io requirements are the analyzer's
// stubs (lint/testdata/src/<module path>, each a module of its own): a run
// of the command, or of go vet with it, on such a copy type-checks a few
// small packages where one on the real modules type-checks (and, under
// go vet, analyses) controller-runtime, k8s.io and their dependencies.
package stubmod

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/mod/modfile"
)

// GoMod rewrites a go.mod to require, in place of its requirements,
// the stub modules in the stubs directory (one per module path, with a
// go.mod), each replaced by its directory. A direct requirement without a
// stub is an error; indirect ones without are dropped.
func GoMod(data []byte, stubs string) ([]byte, error) {
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return nil, fmt.Errorf("parsing the go.mod to stub: %w", err)
	}
	var reqs []modfile.Require // DropRequire clears the ones in f
	for _, r := range f.Require {
		reqs = append(reqs, *r)
	}
	for _, r := range reqs {
		path := r.Mod.Path
		dir := filepath.Join(stubs, filepath.FromSlash(path))
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
			if !r.Indirect {
				return nil, fmt.Errorf("no stub module of %s, a direct requirement: %w", path, err)
			}
			if err := f.DropRequire(path); err != nil {
				return nil, fmt.Errorf("dropping %s: %w", path, err)
			}
			continue
		}
		if err := f.AddRequire(path, "v0.0.0"); err != nil {
			return nil, fmt.Errorf("requiring the stub of %s: %w", path, err)
		}
		if err := f.AddReplace(path, "", dir, ""); err != nil {
			return nil, fmt.Errorf("replacing %s: %w", path, err)
		}
	}
	f.Cleanup()
	out, err := f.Format()
	if err != nil {
		return nil, fmt.Errorf("formatting the stub go.mod: %w", err)
	}
	return out, nil
}
