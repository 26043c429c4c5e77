// Package callsite names the operator's line that sent a request the
// explorer's client intercepted, and what statuspatch-lint -audit says of
// that line.
//
// Of is the call site, read from the calling goroutine's stack: the first
// frame outside the client libraries, statuspatch's patcher and the
// explorer ("controllers/x.go:42", or "jobset/c.go:42 through
// realops/client.go:98" for a client wrapper). Kind names the write from
// its request ("blind merge patch of status", "locked patch"). Lint finds
// the linter, and Audit its finding for a call site Of returned (or one
// Remember noted), running `statuspatch-lint -audit -json` once per
// package per process in the operator's module.
//
// The package knows nothing of steps, runs or the search: it imports no
// package of the explorer's module (imports_test.go in the explorer's
// folder checks it).
package callsite
