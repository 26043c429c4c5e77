// Package scaffold adopts statuspatch in a kubebuilder v4 project:
// `statuspatch-gen init` (RunInit) and the kubebuilder external plugin (RunKBPlugin) plan one set
// of file edits (Makefile block, golangci-lint wiring, starter test, go.mod
// pins), say each change, and write them all or none.
//
// Shape: RunInit and RunKBPlugin are the two doors; planInit reads the
// project (PROJECT, Makefile, .golangci.yml, the reconcilers) and returns
// the edits; applyEdits writes them; everything else is a pure text edit
// with its own test and golden under testdata/.
package scaffold
