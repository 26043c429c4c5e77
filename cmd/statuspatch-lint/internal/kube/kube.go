package kube

import (
	"go/types"
	"strings"
)

// Package paths the linter recognises calls and types of.
const (
	ClientPkgPath  = "sigs.k8s.io/controller-runtime/pkg/client"
	PatcherPkgPath = "github.com/statuspatch/statuspatch/patcher"
	// MetaPkgPath declares ObjectMeta and metav1.Object: a function can
	// take an object (ParamsFact) only in a package that reaches it.
	MetaPkgPath = "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// MaxDepth bounds the linter's walks: value tracing, chains of
// selectors and of definitions. Deeper paths end in an unknown leaf.
const MaxDepth = 24

// NamedOf returns the named type of t or *t, or nil.
func NamedOf(t types.Type) *types.Named {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// ApplyConfigKind returns Widget for *WidgetApplyConfiguration.
func ApplyConfigKind(typ types.Type) (string, bool) {
	n := NamedOf(typ)
	if n == nil {
		return "", false
	}
	k, ok := strings.CutSuffix(n.Obj().Name(), "ApplyConfiguration")
	return k, ok && k != ""
}

// HoldsObjectHelpers reports whether a package that does not reach the
// client may still hold functions that take an operator's objects, so
// that the analyzer exports their facts (ParamsFact): any but the
// standard library's (no dot in the first path element), Kubernetes'
// (k8s.io) and controller-runtime's. Both drivers load such a package from
// source, so that the facts, and -fix's moves, do not depend on the
// driver: the full checker analyses every package, the export-data
// driver every dependency this selects that also reaches MetaPkgPath
// (the analyzer takes a parameter for an object only where its type comes
// from there: migrate's mayBeObject), or that reaches the client.
func HoldsObjectHelpers(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".") && first != "k8s.io" && !strings.HasPrefix(path, "sigs.k8s.io/controller-runtime")
}
