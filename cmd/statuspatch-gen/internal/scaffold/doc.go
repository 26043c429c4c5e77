// Package scaffold adopts statuspatch in a kubebuilder v4 or v3 project, or
// one without a PROJECT file (initlayout.go: its layout from the tree and
// the -api, -controllers and -output flags):
// `statuspatch-gen init` (RunInit) and the kubebuilder external plugin (RunKBPlugin) plan one set
// of file edits (Makefile block, golangci-lint wiring, starter test,
// kubebuilder's controller suite moved from envtest to testenv where it
// needs only CRDs, with make test then building no envtest binaries, go.mod
// pins), say each change and what they leave and why, and write them all
// or none.
//
// Shape: RunInit and RunKBPlugin are the two doors; planInit reads the
// project (PROJECT or the tree, Makefile, .golangci.yml, the reconcilers, the suites)
// and returns the edits; applyEdits writes them; everything else is a pure
// text edit with its own test and golden under testdata/.
package scaffold
