package generator

import (
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// posError is an error located at a source position. Its text is
// "file:line: message", with file relative to the working directory when it
// lies below it.
type posError struct {
	file string
	line int
	err  error
}

func (e *posError) Error() string {
	if e.line > 0 {
		return fmt.Sprintf("%s:%d: %v", relPath(e.file), e.line, e.err)
	}
	return fmt.Sprintf("%s: %v", relPath(e.file), e.err)
}

func (e *posError) Unwrap() error { return e.err }

// errorAt returns an error located at pos.
func errorAt(fset *token.FileSet, pos token.Pos, format string, args ...any) error {
	p := fset.Position(pos)
	return &posError{file: p.Filename, line: p.Line, err: fmt.Errorf(format, args...)}
}

// errorAtPosString locates err at a "file:line[:col]" position as go/packages
// reports them.
func errorAtPosString(pos string, err error) error {
	file, line := splitPos(pos)
	return &posError{file: file, line: line, err: err}
}

// fileError is an error about a whole file (no line), such as an I/O error.
func fileError(path string, err error) error {
	return &posError{file: path, err: err}
}

// splitPos splits "file:line:col" or "file:line" into file and line.
func splitPos(pos string) (string, int) {
	parts := strings.Split(pos, ":")
	nums := 0
	for i := len(parts) - 1; i > 0 && nums < 2; i-- {
		if _, err := strconv.Atoi(parts[i]); err != nil {
			break
		}
		nums++
	}
	if nums == 0 {
		return pos, 0
	}
	lineIdx := len(parts) - nums
	line, _ := strconv.Atoi(parts[lineIdx])
	return strings.Join(parts[:lineIdx], ":"), line
}

// relPath makes path relative to the working directory if it lies below it.
func relPath(path string) string {
	if !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(wd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}

// errorList collects errors in order.
type errorList []error

func (l *errorList) add(err error) {
	if err != nil {
		*l = append(*l, err)
	}
}

// err joins the errors, dropping repeated messages (the go command and the
// parser both report a syntax error).
func (l errorList) err() error {
	seen := make(map[string]bool)
	var out []error
	for _, e := range l {
		if msg := e.Error(); !seen[msg] {
			seen[msg] = true
			out = append(out, e)
		}
	}
	return errors.Join(out...)
}
