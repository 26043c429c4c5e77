package kube

import "go/types"

// A Kubernetes List type, known by its type: the struct embeds
// metav1.ListMeta, or its pointer implements controller-runtime's
// client.ObjectList as the package under analysis sees it (through its
// imports). Its items are its slice field named Items: apimachinery
// finds a List's items by that name alone (meta.GetItemsPtr, "if 'list'
// doesn't have an Items member, it's not really a list type"), and
// controller-runtime's cache fills a List through it (apimeta.SetList),
// so a List whose slice has another name is one no cache fills. A
// struct of the user's with an Items field and no List's type is no
// List: its elements are whatever the user put there.

// ListItems reports whether field i of the struct t (or of *t) is a
// List's items: t is a List type, seen from pkg, and the field is its
// Items slice.
func ListItems(pkg *types.Package, t types.Type, i int) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i < 0 || i >= st.NumFields() || st.Field(i).Name() != "Items" {
		return false
	}
	if _, ok := st.Field(i).Type().Underlying().(*types.Slice); !ok {
		return false
	}
	for f := range st.Fields() {
		if n := NamedOf(f.Type()); f.Embedded() && n != nil && n.Obj().Name() == "ListMeta" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == MetaPkgPath {
			return true
		}
	}
	client := ImportedPkg(pkg, ClientPkgPath)
	if client == nil {
		return false
	}
	list, _ := client.Scope().Lookup("ObjectList").(*types.TypeName)
	if list == nil {
		return false
	}
	iface, _ := list.Type().Underlying().(*types.Interface)
	return iface != nil && (types.Implements(t, iface) || types.Implements(types.NewPointer(t), iface))
}

// ImportedPkg finds the package of path among pkg's imports, directly or
// not; nil when pkg does not reach it.
func ImportedPkg(pkg *types.Package, path string) *types.Package {
	seen := map[*types.Package]bool{}
	var find func(*types.Package) *types.Package
	find = func(q *types.Package) *types.Package {
		if q.Path() == path {
			return q
		}
		if seen[q] {
			return nil
		}
		seen[q] = true
		for _, i := range q.Imports() {
			if r := find(i); r != nil {
				return r
			}
		}
		return nil
	}
	if pkg == nil {
		return nil
	}
	return find(pkg)
}
