package lint

import (
	"go/token"
	"go/types"
	"strings"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-lint/internal/kube"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// applyFixes returns the suggested fix of a blind status apply whose
// configuration is made by a generated constructor (kubebuilder's --ssa
// shape, appsv1apply.Application(name, ns).WithStatus(...)): it locks the
// configuration where it is made,
//
//	appsv1apply.Application(req.Name, req.Namespace).WithResourceVersion(application.ResourceVersion).WithStatus(...)
//
// with the object of the configuration's kind that the function fetched
// with Get before building it, the status being computed from it, or, in
// a helper that fetches none, the parameter of that kind the
// configuration names, when every caller passes one it fetched with Get
// (kube.ParamObject). obj
// names that object for the finding's advice. Without exactly one such
// object in scope, or for a configuration not made by a constructor call,
// there is no fix, and noFix says why. One fix covers every blind path.
func applyFixes(pass *analysis.Pass, cl *classifier, files *fileSet, w *write, r result) (fixes []analysis.SuggestedFix, obj, noFix string) {
	if r.verdict != blind || w.generated || w.verb != "Apply" {
		return nil, "", ""
	}
	var edits []analysis.TextEdit
	done := map[token.Pos]bool{}
	objs := map[string]bool{}
	for _, ch := range cl.applyChains(w.args[1]) {
		if cl.classifyChain(w, ch, w.kind.name).verdict != blind {
			continue
		}
		root, ok := ch.root.(*ssa.Call)
		if ok {
			if _, u := fromUnstructured(root.Common()); u {
				return nil, "", "" // the object's resourceVersion is the lock (unstructuredApply)
			}
		}
		if ch.rv != nil {
			return nil, "", "the apply configuration clears its resourceVersion"
		}
		made := cl.applyConstructor(ch.root)
		if !ok || made == "" {
			if made == "" {
				made = describeApplyRoot(ch.root)
			}
			return nil, "", "the apply configuration is not built by a constructor call (" + strings.TrimSuffix(made, "(...)") + ")"
		}
		expr, ok := files.calls[root.Pos()]
		if !ok || !files.checked(expr.Pos()) {
			return nil, "", "the apply configuration is built outside the checked files"
		}
		if done[expr.Pos()] {
			continue
		}
		done[expr.Pos()] = true
		kind, _ := kube.ApplyConfigKind(root.Type())
		if !hasRVBuilder(root.Type()) {
			return nil, "", kind + "ApplyConfiguration has no WithResourceVersion builder"
		}
		fetched := kube.FetchedObjects(pass, expr, kind)
		if len(fetched) == 0 {
			param, found, why := kube.ParamObject(pass, expr, kind)
			switch {
			case !found:
				return nil, "", "no " + kind + " fetched with Get before the apply configuration is built"
			case why != "":
				return nil, "", "no " + kind + " fetched with Get before the apply configuration is built, and " + why
			}
			fetched = []kube.Fetched{{Name: param.Name(), Obj: param}}
		}
		named := kube.NamedBy(pass, expr, fetched)
		switch len(named) {
		case 0:
			return nil, "", "the apply configuration's name is not the fetched " + kind + "'s (" + kube.FetchedNames(fetched) + ")"
		case 1:
		default:
			return nil, "", "several " + kind + " objects fetched with Get (" + kube.FetchedNames(named) +
				"): which one the status was computed from is not clear"
		}
		objs[named[0].Name] = true
		edits = append(edits, analysis.TextEdit{Pos: expr.End(), End: expr.End(),
			NewText: []byte(".WithResourceVersion(" + named[0].Name + ".ResourceVersion)")})
	}
	if len(edits) == 0 {
		return nil, "", ""
	}
	msg := "add .WithResourceVersion(<fetched object>.ResourceVersion) to the status apply configuration"
	if len(objs) == 1 {
		for o := range objs {
			obj = o
		}
		msg = "add .WithResourceVersion(" + obj + ".ResourceVersion) to the status apply configuration"
	}
	return []analysis.SuggestedFix{{Message: msg, TextEdits: edits}}, obj, ""
}

// hasRVBuilder reports whether the configuration type has a
// WithResourceVersion method returning its own type, so the fix's call
// chains on.
func hasRVBuilder(typ types.Type) bool {
	m, _, _ := types.LookupFieldOrMethod(typ, true, nil, "WithResourceVersion")
	fn, ok := m.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	return sig.Params().Len() == 1 && sig.Results().Len() == 1 && types.Identical(sig.Results().At(0).Type(), typ)
}
