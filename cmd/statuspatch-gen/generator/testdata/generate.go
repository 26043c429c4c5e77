// Package goldens is the golden module of statuspatch-gen's tests. The
// go:generate lines below are the runs the golden test replays, in order;
// see README.md.
package goldens

// Deepcopy (needs controller-gen v0.23.0 in ../../../../bin, see README.md):
//go:generate ../../../../bin/controller-gen object paths=./api/...

// Beside the types, every API package:
//go:generate ../../../../bin/statuspatch-gen paths=./api/... headerFile=hack/boilerplate.go.txt year=2026

// Same-named kinds from two packages, each into its own output dir:
//go:generate ../../../../bin/statuspatch-gen paths=./api/alpha/v1 headerFile=hack/boilerplate.go.txt year=2026 output:dir=./patchers/alpha
//go:generate ../../../../bin/statuspatch-gen paths=./api/beta/v1 headerFile=hack/boilerplate.go.txt year=2026 output:dir=./patchers/beta

// Several API packages into one output dir (import aliases):
//go:generate ../../../../bin/statuspatch-gen paths={./api/plain/v1,./api/conditions/v1,./api/shapes/v1,./api/custom/v1} year=2026 output:dir=./patchers/all-kinds
