// Package nokinds has no kinds: a stale generated file here is removed.
package nokinds

// Thing is not a kind.
type Thing struct{}
