package kube

import (
	"go/types"
	"strings"
)

// Package paths the linter recognises calls and types of.
const (
	ClientPkgPath  = "sigs.k8s.io/controller-runtime/pkg/client"
	PatcherPkgPath = "github.com/statuspatch/statuspatch/patcher"
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
