package migrate

import (
	"fmt"
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// An ownBase in a method of a generic reconciler type (issue 80, U2's
// project D: type Rec[T client.Object] struct{ C client.Client; New
// func() T; Hook func(T) }), its object of the type's parameter T, read
// in the method (obj := r.New(); r.C.Get(ctx, key, obj)) or a parameter
// of it. Its kind is the instantiation's: where every instantiation in
// the package (&Rec[*Widget]{...}, a result typed *Rec[*Widget]) is of a
// kind whose generated patcher is in one package with ForType, the base
// becomes patchers.ForType(r.C, obj) and the write its Flush, as a
// generic function's does (migrategenericbase.go). An instantiation by
// another generic's type parameter, a kind with no generated patcher,
// an exported type (its instantiations in other packages are not seen)
// or a hook that decides from the status keep the write, naming the line.

// recvTypeParam reports whether the method fd's object obj is of a type
// parameter of its receiver's generic type, declared in fd or a
// parameter of it; it returns the type's origin.
func (o *ownBase) recvTypeParam() *types.Named {
	fn, _ := o.pass.TypesInfo.Defs[o.fd.Name].(*types.Func)
	tp, ok := types.Unalias(o.obj.Type()).(*types.TypeParam)
	if fn == nil || !ok || o.obj.Pos() < o.fd.Pos() || o.obj.Pos() >= o.fd.End() {
		return nil
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.RecvTypeParams() == nil {
		return nil
	}
	for t := range sig.RecvTypeParams().TypeParams() {
		if t == tp {
			rt := sig.Recv().Type()
			if p, ok := rt.(*types.Pointer); ok {
				rt = p.Elem()
			}
			if n, ok := types.Unalias(rt).(*types.Named); ok {
				return n.Origin()
			}
		}
	}
	return nil
}

// checkType says why the method's write stays, or "" with o.pkg the
// patchers' package: the type's instantiations, and its hook.
func (o *ownBase) checkType(opts Options, call *ast.CallExpr) string {
	named := o.recvTypeParam()
	name := named.Obj().Name()
	if why := o.zeroResults(); why != "" {
		return why
	}
	exported := named.Obj().Exported()
	switch {
	case exported && !opts.Module:
		return fmt.Sprintf("%s is exported, and only this package is analyzed: its instantiations in other packages are not seen (statuspatch-lint -fix on the whole module moves it when every one is of a kind with a generated patcher); by hand: %s", name, o.typeAdvice())
	case exported && named.TypeParams().Len() != 1:
		return fmt.Sprintf("%s is exported and has %d type parameters: -fix follows its instantiations in other packages only for one; by hand: %s", name, named.TypeParams().Len(), o.typeAdvice())
	}
	if why := o.testsMayCall(name, opts); why != "" {
		return why
	}
	idx := o.obj.Type().(*types.TypeParam).Index()
	for _, f := range o.pass.Files {
		for cur := range o.usesOf(f, named.Obj(), f.FileStart, f.FileEnd) {
			id := cur.Node().(*ast.Ident)
			if _, ok := cur.Parent().Node().(*ast.FieldList); ok {
				continue
			}
			inst, ok := o.pass.TypesInfo.Instances[id]
			line := o.pass.Fset.Position(id.Pos()).Line
			if !ok || idx >= inst.TypeArgs.Len() {
				return fmt.Sprintf("%s is used at line %d other than instantiated with a kind", name, line)
			}
			t := inst.TypeArgs.At(idx)
			if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
				if o.ownTypeParam(tp, named) {
					continue // the type's own methods' receivers
				}
				return fmt.Sprintf("its instantiation at %s is by %s, a type parameter of another generic: which kinds it holds is not seen", o.where(id.Pos()), tp.Obj().Name())
			}
			if why := o.patcherOfKind(t, fmt.Sprintf("its instantiation %s at %s", types.ExprString(cur.Parent().Node().(ast.Expr)), o.where(id.Pos())), opts); why != "" {
				return why
			}
		}
	}
	if o.pkg == "" {
		return name + " is not instantiated in its package"
	}
	if why := o.hookWhy(call); why != "" {
		return why
	}
	if exported {
		o.typeGroup(named, call, opts)
	}
	return ""
}

// typeAdvice is how the write moves by hand.
func (o *ownBase) typeAdvice() string {
	pkg := "patchers"
	if o.pkg != "" {
		pkg = o.pkg[strings.LastIndex(o.pkg, "/")+1:]
	}
	return fmt.Sprintf("make the base %s.ForType(%s, %s) and the write its Flush", pkg, o.text().source(o.client), o.obj.Name())
}

// typeGroup records the exported type's write as a fix group's helper
// (lint.ResolveGroups): it moves unless an instantiation in another
// package of the module cannot (GenericTypeMembers), or one is outside.
func (o *ownBase) typeGroup(named *types.Named, call *ast.CallExpr, opts Options) {
	if opts.Members == nil || askAssumed(o.pass) {
		return
	}
	key := named.Obj().Pkg().Path() + "." + named.Obj().Name()
	if slices.ContainsFunc(*opts.Members, func(g GroupMember) bool { return g.Helper && g.Key == key && g.Pos == call.Pos() }) {
		return
	}
	name := named.Obj().Name()
	*opts.Members = append(*opts.Members,
		GroupMember{Key: key, Helper: true, Pos: call.Pos(), audit: opts.Audit, param: name, advice: "by hand: " + o.typeAdvice(),
			alone: name + " is exported and no package of the module instantiates it: -fix does not change an API only other modules may use; by hand: " + o.typeAdvice()},
		GroupMember{Key: key, Pos: call.Pos()}) // instantiated in its own package
}

// GenericTypeMembers adds to opts.Members this package's part in the
// move of each exported generic type of another package of the module it
// instantiates (typeGroup): why an instantiation keeps the type's write,
// or nothing to edit. A type whose write is no group's is not looked up.
func GenericTypeMembers(pass *analysis.Pass, opts Options) {
	if !opts.Module || opts.Members == nil || opts.PatcherOf == nil || pass.Module == nil {
		return
	}
	mod := pass.Module.Path
	o := &ownBase{site: &site{place: place{calls: calls{pass: pass}}}}
	members := map[string]*GroupMember{}
	var keys []string
	for _, f := range pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			inst, ok := pass.TypesInfo.Instances[id]
			tn, _ := pass.TypesInfo.Uses[id].(*types.TypeName)
			if !ok || tn == nil || tn.Pkg() == nil || tn.Pkg() == pass.Pkg || !tn.Exported() || inst.TypeArgs.Len() != 1 ||
				tn.Pkg().Path() != mod && !strings.HasPrefix(tn.Pkg().Path(), mod+"/") {
				return true
			}
			key := tn.Pkg().Path() + "." + tn.Name()
			m := members[key]
			if m == nil {
				m = &GroupMember{Key: key, Pos: id.Pos()}
				members[key] = m
				keys = append(keys, key)
			}
			if m.Why != "" {
				return true
			}
			what := fmt.Sprintf("its instantiation %s at %s", types.TypeString(inst.Type, func(p *types.Package) string { return p.Name() }), o.where(id.Pos()))
			t := inst.TypeArgs.At(0)
			if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
				m.Why = fmt.Sprintf("in package %s, %s is by %s, a type parameter of another generic: which kinds it holds is not seen", pass.Pkg.Path(), what, tp.Obj().Name())
			} else if why := o.patcherOfKind(t, what, opts); why != "" {
				m.Why = "in package " + pass.Pkg.Path() + ", " + why
			}
			return true
		})
	}
	for _, k := range keys {
		*opts.Members = append(*opts.Members, *members[k])
	}
}

// ownTypeParam reports whether tp is a receiver type parameter of one of
// named's methods (func (r *Rec[T]) ...: Rec[T] is no instantiation).
func (o *ownBase) ownTypeParam(tp *types.TypeParam, named *types.Named) bool {
	for m := range named.Methods() {
		if rtps := m.Signature().RecvTypeParams(); rtps != nil {
			for t := range rtps.TypeParams() {
				if t == tp {
					return true
				}
			}
		}
	}
	return false
}

// patcherOfKind says why the kind t, which what passes, has no patcher
// ForType makes with the others', or "" with o.pkg set.
func (o *ownBase) patcherOfKind(t types.Type, what string, opts Options) string {
	kind := types.TypeString(t, types.RelativeTo(o.pass.Pkg))
	n, _ := types.Unalias(t).(*types.Pointer)
	var nk *types.Named
	if n != nil {
		nk, _ = types.Unalias(n.Elem()).(*types.Named)
	}
	if nk != nil {
		kind = nk.Obj().Name()
	}
	p := opts.PatcherOf(t)
	switch {
	case types.IsInterface(t):
		return fmt.Sprintf("%s is of %s, an interface: ForType's patcher would be a Patcher of that interface, which no generated patcher is", what, kind)
	case p == nil:
		return fmt.Sprintf("%s is of %s, whose kind has no generated patcher", what, kind)
	case o.pkg != "" && p.Pkg != o.pkg:
		return fmt.Sprintf("%s is of %s, whose patcher is in %s, not %s with the other instantiations' kinds': one ForType makes the patchers of its package's kinds", what, kind, p.Pkg, o.pkg)
	case !dispatches(o.pass, p.Pkg, nk):
		return fmt.Sprintf("%s is of %s, whose patcher's package %s has no ForType (generated beside the API types, not with output:dir)", what, kind, p.Pkg)
	}
	o.pkg = p.Pkg
	return ""
}

// zeroResults sets o.zeros, the values the method returns beside the
// error of patchers.ForType, or says why it cannot.
func (o *ownBase) zeroResults() string {
	res := o.fd.Type.Results
	errType := types.Universe.Lookup("error").Type()
	if res == nil || len(res.List) == 0 || !types.Identical(o.pass.TypesInfo.TypeOf(res.List[len(res.List)-1].Type), errType) {
		return o.fd.Name.Name + " does not return an error last: the error of patchers.ForType has no result to go with"
	}
	o.zeros = nil
	for i, f := range res.List {
		n := max(len(f.Names), 1)
		for range n {
			if i == len(res.List)-1 && len(o.zeros) == res.NumFields()-1 {
				break
			}
			z := zeroText(o.pass.TypesInfo.TypeOf(f.Type), o.text().source(f.Type))
			if z == "" {
				return fmt.Sprintf("%s returns a %s, whose zero value -fix does not spell, beside the error of patchers.ForType", o.fd.Name.Name, o.text().source(f.Type))
			}
			o.zeros = append(o.zeros, z)
		}
	}
	return ""
}

// zeroText is the zero value of t, whose type expression is src, or "".
func zeroText(t types.Type, src string) string {
	switch u := t.Underlying().(type) {
	case *types.Struct, *types.Array:
		return src + "{}"
	case *types.Pointer, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Interface:
		return "nil"
	case *types.Basic:
		switch {
		case u.Info()&types.IsBoolean != 0:
			return "false"
		case u.Info()&types.IsString != 0:
			return `""`
		case u.Info()&types.IsNumeric != 0:
			return "0"
		}
	}
	return ""
}

// typeMessage is the fix's message for a method of a generic type.
func (o *ownBase) typeMessage(how string) string {
	where := "package"
	if o.recvTypeParam().Obj().Exported() {
		where = "module"
	}
	return fmt.Sprintf("move the status write onto the generated patchers (%s.%s makes its object's patcher with %s.%s in place of its base, then Flush: every instantiation of %s in the %s is of a kind with a generated patcher)",
		o.recvTypeParam().Obj().Name(), o.fd.Name.Name, o.pkg[strings.LastIndex(o.pkg, "/")+1:], how, o.recvTypeParam().Obj().Name(), where)
}
