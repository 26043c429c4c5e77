// Package advonce2: a package-level sync, in another file than the
// decision's: the file cannot import sync beside it.
package advonce2

// sync is the package's own state, not the standard library's.
var sync = map[string]bool{}

func seen(name string) bool { return sync[name] }
