package history_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/statuspatch/statuspatch/patcher/internal/history"
)

var key = client.ObjectKey{Namespace: "ns", Name: "cm"}

// compare orders decimal resourceVersions (the patcher's
// compareResourceVersions, reduced to what these tests use).
func compare(a, b string) (int, error) {
	x, err := strconv.ParseUint(a, 10, 64)
	if err != nil || a[0] == '0' {
		return 0, strconv.ErrSyntax
	}
	y, err := strconv.ParseUint(b, 10, 64)
	if err != nil || b[0] == '0' {
		return 0, strconv.ErrSyntax
	}
	switch {
	case x < y:
		return -1, nil
	case x > y:
		return 1, nil
	}
	return 0, nil
}

func TestNext(t *testing.T) {
	for _, c := range []struct {
		base, read string
		want       bool
	}{
		{"5", "6", true},
		{"5", "7", false},
		{"5", "5", false},
		{"9", "10", true},
		{"007", "8", false},
		{"x", "1", false},
		{"", "1", false},
		{"18446744073709551615", "18446744073709551616", false},
	} {
		if got := history.Next(c.base, c.read, compare); got != c.want {
			t.Errorf("Next(%q, %q) = %v, want %v", c.base, c.read, got, c.want)
		}
	}
}

// cm is the object at resourceVersion rv, with data v.
func cm(rv uint64, uid types.UID, v string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Namespace: key.Namespace, Name: key.Name, UID: uid, ResourceVersion: strconv.FormatUint(rv, 10)},
		Data:       map[string]string{"v": v},
	}
}

// past is a reader that serves the object's past versions as the API
// server does: a list at resourceVersion n holds the latest version at or
// before n (none when the object did not exist then), and says it is at n.
type past struct {
	client.Reader
	versions []*corev1.ConfigMap // by resourceVersion; nil: deleted
	at       []uint64            // the resourceVersion of each version
	lists    int
	listRV   func(rv string) string // the resourceVersion the list reports; nil: rv
}

func (p *past) List(_ context.Context, list client.ObjectList, opts ...client.ListOption) error {
	p.lists++
	o := &client.ListOptions{}
	o.ApplyOptions(opts)
	rv := o.Raw.ResourceVersion
	n, err := strconv.ParseUint(rv, 10, 64)
	if err != nil || o.Raw.ResourceVersionMatch != metav1.ResourceVersionMatchExact {
		return strconv.ErrSyntax
	}
	var cur *corev1.ConfigMap
	for i, a := range p.at {
		if a <= n {
			cur = p.versions[i]
		}
	}
	listRV := rv
	if p.listRV != nil {
		listRV = p.listRV(rv)
	}
	var items []runtime.Object
	if cur != nil {
		items = append(items, cur.DeepCopy())
	}
	if u, ok := list.(*unstructured.UnstructuredList); ok {
		for _, it := range items {
			m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(it)
			if err != nil {
				return err
			}
			u.Items = append(u.Items, unstructured.Unstructured{Object: m})
		}
		u.SetResourceVersion(listRV)
		return nil
	}
	l := list.(*corev1.ConfigMapList)
	for _, it := range items {
		l.Items = append(l.Items, *it.(*corev1.ConfigMap))
	}
	l.ResourceVersion = listRV
	return nil
}

func source(r client.Reader) history.Source {
	return history.Source{Reader: r, ReaderName: "the API reader", GVK: corev1.SchemeGroupVersion.WithKind("ConfigMap"),
		Key: key, ID: "ConfigMap ns/cm", Compare: compare}
}

// data is the "v" of a Doc's JSON.
func data(t *testing.T, d history.Doc) string {
	t.Helper()
	var o corev1.ConfigMap
	if err := json.Unmarshal(d.JSON, &o); err != nil {
		t.Fatalf("decode %s: %v", d.JSON, err)
	}
	return o.Data["v"]
}

// The lists halve the range between the base and the read and find the
// first version after the base, not the read's, in few lists.
func TestFirstByLists(t *testing.T) {
	r := &past{versions: []*corev1.ConfigMap{cm(100, "u", "base"), cm(137, "u", "other"), cm(300, "u", "read")}, at: []uint64{100, 137, 300}}
	d, err := history.First(context.Background(), source(r), "100", "u", "300")
	if err != nil {
		t.Fatal(err)
	}
	if d.ResourceVersion != "137" || d.Gone || d.IsRead || data(t, d) != "other" {
		t.Fatalf("first = %+v (%s), want the version at 137", d, d.JSON)
	}
	if r.lists > 8 {
		t.Errorf("%d lists for 200 revisions, want at most 8", r.lists)
	}
}

// A version where the object did not exist is a deletion; a range that
// stays at the base up to the read ends at the read itself.
func TestFirstByListsGoneAndRead(t *testing.T) {
	r := &past{versions: []*corev1.ConfigMap{cm(10, "u", "base"), nil, cm(20, "u2", "again")}, at: []uint64{10, 13, 20}}
	d, err := history.First(context.Background(), source(r), "10", "u", "20")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Gone || d.JSON != nil {
		t.Fatalf("first = %+v, want gone", d)
	}
	r = &past{versions: []*corev1.ConfigMap{cm(10, "u", "base"), cm(20, "u", "read")}, at: []uint64{10, 20}}
	d, err = history.First(context.Background(), source(r), "10", "u", "20")
	if err != nil {
		t.Fatal(err)
	}
	if !d.IsRead || d.JSON != nil || d.ResourceVersion != "20" {
		t.Fatalf("first = %+v, want the read itself", d)
	}
}

// A list is at the resourceVersion asked for when it says so, or when the
// object it holds carries it; else the reader does not serve past versions.
func TestAt(t *testing.T) {
	versions := []*corev1.ConfigMap{cm(10, "u", "base"), cm(15, "u", "next")}
	at := []uint64{10, 15}
	for _, c := range []struct {
		name     string
		listRV   func(string) string
		rv       string
		found    bool
		docRV    string
		errMatch string
	}{
		{name: "exact list, older object", rv: "12", found: true, docRV: "10"},
		{name: "exact list, before the object", rv: "9"},
		{name: "no list resourceVersion, the object at rv", listRV: func(string) string { return "" }, rv: "15", found: true, docRV: "15"},
		{name: "no list resourceVersion, an older object", listRV: func(string) string { return "" }, rv: "12", errMatch: "does not serve"},
		{name: "another list resourceVersion, no object", listRV: func(string) string { return "99" }, rv: "9", errMatch: "does not serve"},
	} {
		for _, list := range []client.ObjectList{&corev1.ConfigMapList{}, &unstructured.UnstructuredList{}} {
			r := &past{versions: versions, at: at, listRV: c.listRV}
			d, found, err := history.At(context.Background(), source(r), list, c.rv)
			if c.errMatch != "" {
				if err == nil || !strings.Contains(err.Error(), c.errMatch) {
					t.Errorf("%s (%T): err = %v, want %q", c.name, list, err, c.errMatch)
				}
				continue
			}
			if err != nil || found != c.found || d.ResourceVersion != c.docRV {
				t.Errorf("%s (%T): At = %+v, %v, %v; want found %v at %q", c.name, list, d, found, err, c.found, c.docRV)
			}
			if found && d.UID != "u" {
				t.Errorf("%s (%T): UID %q, want u", c.name, list, d.UID)
			}
		}
	}
}

// watcher is a client whose watch sends events.
func watcher(t *testing.T, events ...watch.Event) client.WithWatch {
	t.Helper()
	return fake.NewClientBuilder().WithInterceptorFuncs(interceptor.Funcs{
		Watch: func(_ context.Context, _ client.WithWatch, _ client.ObjectList, opts ...client.ListOption) (watch.Interface, error) {
			o := &client.ListOptions{}
			o.ApplyOptions(opts)
			if o.Raw.ResourceVersion != "10" || o.FieldSelector.String() != "metadata.name=cm" || o.Namespace != "ns" {
				t.Errorf("watch options %+v %+v, want from 10 for ns/cm", o, o.Raw)
			}
			w := watch.NewFakeWithChanSize(len(events), false)
			for _, ev := range events {
				w.Action(ev.Type, ev.Object)
			}
			return w, nil
		},
	}).Build()
}

func unstr(t *testing.T, o *corev1.ConfigMap) *unstructured.Unstructured {
	t.Helper()
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

// The watch skips bookmarks, other objects and versions not after the
// base, and returns the first version after it; a deletion is Gone.
func TestFirstByWatch(t *testing.T) {
	other := cm(11, "o", "other object")
	other.Name = "another"
	for _, typ := range []watch.EventType{watch.Modified, watch.Deleted} {
		w := watcher(t,
			watch.Event{Type: watch.Bookmark, Object: unstr(t, cm(11, "", ""))},
			watch.Event{Type: watch.Added, Object: unstr(t, cm(10, "u", "base"))},
			watch.Event{Type: watch.Modified, Object: unstr(t, other)},
			watch.Event{Type: typ, Object: unstr(t, cm(12, "u", "first"))},
			watch.Event{Type: watch.Modified, Object: unstr(t, cm(13, "u", "later"))})
		s := source(nil)
		s.Watcher = w
		d, err := history.First(context.Background(), s, "10", "u", "13")
		if err != nil {
			t.Fatal(err)
		}
		if d.ResourceVersion != "12" || data(t, d) != "first" || d.Gone != (typ == watch.Deleted) || d.UID != "u" {
			t.Errorf("%s: first = %+v, want the version at 12", typ, d)
		}
	}
}

// A watch whose first event comes after the read does not replay the
// history (a fake client's watch starts now): it cannot tell.
func TestFirstByWatchAfterTheRead(t *testing.T) {
	s := source(nil)
	s.Watcher = watcher(t, watch.Event{Type: watch.Modified, Object: unstr(t, cm(14, "u", "after"))})
	_, err := history.First(context.Background(), s, "10", "u", "13")
	if err == nil || !strings.Contains(err.Error(), "does not replay") {
		t.Fatalf("err = %v, want the watch does not replay the history", err)
	}
}

// Without a configured watcher a client's own watch that cannot tell
// falls back to the lists.
func TestFirstImplicitThenLists(t *testing.T) {
	r := &past{versions: []*corev1.ConfigMap{cm(10, "u", "base"), cm(12, "u", "other"), cm(14, "u", "read")}, at: []uint64{10, 12, 14}}
	s := source(r)
	s.Implicit = watcher(t, watch.Event{Type: watch.Modified, Object: unstr(t, cm(15, "u", "now"))})
	d, err := history.First(context.Background(), s, "10", "u", "14")
	if err != nil {
		t.Fatal(err)
	}
	if d.ResourceVersion != "12" || data(t, d) != "other" {
		t.Fatalf("first = %+v, want the version at 12", d)
	}
}
