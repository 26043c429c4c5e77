// Package docpages holds tests that read pages of docs/ and the files they
// show as text, so the check runs in make test without building what the
// files build (examples/realops compiles two real operators for minutes),
// and the check of the facts the docs repeat from the code (facts.go:
// TestDocsRepeatTheCode, which hack/check-docs.sh runs for make lint).
package docpages
