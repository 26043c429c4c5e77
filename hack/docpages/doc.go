// Package docpages holds tests that read pages of docs/ and the files they
// show as text, so the check runs in make test without building what the
// files build (examples/realops compiles two real operators for minutes).
package docpages
