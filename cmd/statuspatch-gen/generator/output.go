package generator

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/controller-tools/pkg/genall"
)

type outputMode int

const (
	// modeBeside writes zz_generated.statuspatch.go beside the types
	// (genall's default per-package output).
	modeBeside outputMode = iota
	// modeDir writes one package into a directory (output:dir=DIR).
	modeDir
	// modeDiscard renders and checks, writes nothing (output:none).
	modeDiscard
	// modeRule writes same-package files through an unknown output rule.
	modeRule
)

// output is where generated files go, decided from the genall output rule.
type output struct {
	mode outputMode
	dir  string
	rule genall.OutputRule
}

// outputFor maps genall's output rules to output modes. The known rules are
// not written through: genall's Open truncates files one by one, while the
// generator writes all of them or none, and needs to know the target
// directory to pick the package name.
func outputFor(rule genall.OutputRule) *output {
	switch r := rule.(type) {
	case nil:
		return &output{mode: modeBeside}
	case genall.OutputArtifacts:
		if r.Code != "" {
			return &output{mode: modeDir, dir: string(r.Code)}
		}
		return &output{mode: modeBeside}
	case *genall.OutputArtifacts:
		if r.Code != "" {
			return &output{mode: modeDir, dir: string(r.Code)}
		}
		return &output{mode: modeBeside}
	case genall.OutputToDirectory:
		return &output{mode: modeDir, dir: string(r)}
	}
	if rule == genall.OutputToNothing {
		return &output{mode: modeDiscard}
	}
	return &output{mode: modeRule, rule: rule}
}

// write applies the rendered files. In the beside and dir modes every file
// goes to a temporary file first and is renamed into place only when all of
// them were written, so a failure changes nothing. Unchanged files are not
// touched.
func (o *output) write(ops []fileOp) error {
	switch o.mode {
	case modeDiscard:
		return nil
	case modeRule:
		return o.writeThroughRule(ops)
	}

	type pending struct{ tmp, path string }
	var done []pending
	cleanup := func() {
		for _, p := range done {
			_ = os.Remove(p.tmp)
		}
	}
	for _, op := range ops {
		if op.remove {
			continue
		}
		if fi, err := os.Lstat(op.path); err == nil && !fi.Mode().IsRegular() {
			cleanup()
			return fileError(op.path, errors.New("cannot write: not a regular file"))
		}
		if old, err := os.ReadFile(op.path); err == nil && bytes.Equal(old, op.content) {
			continue
		}
		tmp, err := writeTemp(op.path, op.content)
		if err != nil {
			cleanup()
			return fileError(op.path, fmt.Errorf("cannot write: %w", err))
		}
		done = append(done, pending{tmp: tmp, path: op.path})
	}
	for i, p := range done {
		if err := os.Rename(p.tmp, p.path); err != nil {
			for _, rest := range done[i:] {
				_ = os.Remove(rest.tmp)
			}
			return fileError(p.path, fmt.Errorf("cannot write: %w", err))
		}
	}
	var errs errorList
	for _, op := range ops {
		if op.remove {
			if err := os.Remove(op.path); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs.add(fileError(op.path, fmt.Errorf("cannot remove stale file: %w", err)))
			}
		}
	}
	return errs.err()
}

// writeTemp writes content to a temporary file beside path.
func writeTemp(path string, content []byte) (string, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return "", err
	}
	_, werr := f.Write(content)
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(f.Name(), 0o644)); err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// writeThroughRule writes same-package files through a custom output rule,
// after everything rendered. Stale files are left alone: the rule decides
// where files go, so the generator cannot know which one is stale.
func (o *output) writeThroughRule(ops []fileOp) error {
	for _, op := range ops {
		if op.remove {
			continue
		}
		w, err := o.rule.Open(op.pkg, fileName)
		if err != nil {
			return fileError(op.path, fmt.Errorf("open output: %w", err))
		}
		_, werr := w.Write(op.content)
		if err := errors.Join(werr, w.Close()); err != nil {
			return fileError(op.path, fmt.Errorf("write output: %w", err))
		}
	}
	return nil
}

// isOurs reports whether path exists and starts with the generated-code line
// of statuspatch-gen.
func isOurs(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadString('\n')
	if err != nil {
		return false
	}
	return line == generatedLine+"\n"
}
