// Package kube is what the linter knows of controller-runtime's and the
// statuspatch runtime's packages, shared by the audit, -fix's migration
// and the command:
//
//   - kube.go: the package paths, NamedOf, ApplyConfigKind and MaxDepth.
//   - fetched.go: Fetched, the objects a function read with client Get
//     (FetchedObjects) and the one an apply configuration names (NamedBy).
package kube
