package migrate

import (
	"fmt"
	"go/ast"
	"go/types"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
)

// conflictsHandled says, for a List item written in place (&list[i]),
// when the write's error is checked with apimachinery's IsConflict in the
// if around it: the code takes the conflict as its own signal to decide
// again (karpenter's updateOverlayStatuses returns (nil, true), and its
// caller validates the overlays anew from a new List), which Retry would
// take over, its mutate replaying the status decided before the re-read
// from what was listed, and a Fetch would write that status over a
// newer object without a conflict: the lock on the listed
// resourceVersion is what the write asks. "" when the error is not so
// checked.
func (m reads) conflictsHandled(obj string) string {
	is, ok := m.enclosingStmt().(*ast.IfStmt)
	if !ok || is.Init == nil || !containsNode(is.Init, m.call) {
		return ""
	}
	why := ""
	ast.Inspect(is.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if why != "" || !ok {
			return why == ""
		}
		if fn := kube.CalledFunc(m.pass, call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "k8s.io/apimachinery/pkg/api/errors" && fn.Name() == "IsConflict" {
			why = fmt.Sprintf("the object %s is an item of a list, a cached copy, and its error is checked with IsConflict at %s, where the code handles a conflict itself: its lock on the listed resourceVersion is what it asks (Retry would retry the conflict with the status decided before the re-read, and a Fetch would write that status over a newer object)", obj, m.where(call.Pos()))
		}
		return true
	})
	return why
}

// containsNode reports whether n is in root.
func containsNode(root, n ast.Node) bool {
	return root.Pos() <= n.Pos() && n.End() <= root.End()
}

// itemClient is the client a reason's advice makes a patcher with: the
// write's, or its embedded client.Client where it is none (kubebuilder's
// reconciler, whose Scheme field hides the client's Scheme method), as
// finish makes the patcher's own (migrateshapes.go).
func itemClient(m *migration) string {
	if m.client == nil {
		return m.clientText // a helper's caller's (helperCallers)
	}
	text := types.ExprString(m.client)
	if m.isClient(m.client) {
		return text
	}
	if embedsClient(&m.calls, m.pass.TypesInfo.TypeOf(m.client)) {
		return text + ".Client"
	}
	return text
}
