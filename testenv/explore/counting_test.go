package explore_test

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// countingServer counts the requests the explorer sends env's server, by
// verb and kind ("get Gizmo"): where a schedule's time goes.
type countingServer struct {
	env *testServer
	mu  sync.Mutex
	by  map[string]int
}

func (s *countingServer) ServerClient() client.Client {
	return countingClient{Client: s.env.Client, s: s}
}

func (s *countingServer) add(verb string, obj runtime.Object) {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	if kind == "" {
		kind = reflect.TypeOf(obj).Elem().Name()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.by == nil {
		s.by = map[string]int{}
	}
	s.by[verb+" "+kind]++
}

// count is the requests of verb and kind so far.
func (s *countingServer) count(verbKind string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.by[verbKind]
}

// total is every request so far.
func (s *countingServer) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.by {
		n += c
	}
	return n
}

// perSchedule is every count so far divided by schedules, by verb and
// kind, most first ("create Gizmo 5.00, ..."): where a schedule's
// requests go.
func (s *countingServer) perSchedule(schedules int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := slices.Collect(maps.Keys(s.by))
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(s.by[b], s.by[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %.2f", k, float64(s.by[k])/float64(max(schedules, 1)))
	}
	return strings.Join(parts, ", ")
}

// countingClient counts each request of its Client.
type countingClient struct {
	client.Client
	s *countingServer
}

func (c countingClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	c.s.add("get", obj)
	return c.Client.Get(ctx, key, obj, opts...)
}

func (c countingClient) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	c.s.add("list", list)
	return c.Client.List(ctx, list, opts...)
}

func (c countingClient) Create(ctx context.Context, obj client.Object, opts ...client.CreateOption) error {
	c.s.add("create", obj)
	return c.Client.Create(ctx, obj, opts...)
}

func (c countingClient) Delete(ctx context.Context, obj client.Object, opts ...client.DeleteOption) error {
	c.s.add("delete", obj)
	return c.Client.Delete(ctx, obj, opts...)
}

func (c countingClient) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	c.s.add("update", obj)
	return c.Client.Update(ctx, obj, opts...)
}

func (c countingClient) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	c.s.add("patch", obj)
	return c.Client.Patch(ctx, obj, patch, opts...)
}

func (c countingClient) DeleteAllOf(ctx context.Context, obj client.Object, opts ...client.DeleteAllOfOption) error {
	c.s.add("deleteallof", obj)
	return c.Client.DeleteAllOf(ctx, obj, opts...)
}

func (c countingClient) Status() client.SubResourceWriter { return c.SubResource("status") }

func (c countingClient) SubResource(sub string) client.SubResourceClient {
	return countingSub{SubResourceClient: c.Client.SubResource(sub), s: c.s, sub: sub}
}

// countingSub counts each request of its SubResourceClient.
type countingSub struct {
	client.SubResourceClient
	s   *countingServer
	sub string
}

func (c countingSub) Get(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceGetOption) error {
	c.s.add("get "+c.sub, obj)
	return c.SubResourceClient.Get(ctx, obj, sub, opts...)
}

func (c countingSub) Create(ctx context.Context, obj, sub client.Object, opts ...client.SubResourceCreateOption) error {
	c.s.add("create "+c.sub, obj)
	return c.SubResourceClient.Create(ctx, obj, sub, opts...)
}

func (c countingSub) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	c.s.add("update "+c.sub, obj)
	return c.SubResourceClient.Update(ctx, obj, opts...)
}

func (c countingSub) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	c.s.add("patch "+c.sub, obj)
	return c.SubResourceClient.Patch(ctx, obj, patch, opts...)
}
