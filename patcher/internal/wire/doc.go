// Package wire is the bottom of the patcher's runtime: the rules of the
// API server's wire format that every other package shares, such as how
// two resourceVersions compare. It imports no other package of this
// repository.
package wire
