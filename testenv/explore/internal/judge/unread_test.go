package judge

import (
	"context"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/testenv/explore/internal/book"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
)

// Where the kind's schema cannot be read (no CustomResourceDefinition
// for it here), a lost write of a list says that whether the list is a
// map list is Unknown, and why, before the note naming the write; a
// lost write of a scalar says nothing of it.
func TestLostWriteOfAListSaysSchemaUnread(t *testing.T) {
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(widgetKey.GVK, meta.RESTScopeNamespace)
	server := fake.NewClientBuilder().WithScheme(runtime.NewScheme()).WithRESTMapper(mapper).Build()
	t0, t1 := "2026-11-29T08:00:00Z", "2026-11-29T08:00:05Z"
	for _, tc := range []struct {
		name   string
		writes []write
		says   bool
	}{
		{"a list", []write{
			{0, "", -1, widget("u1", conds(cond("Launched", "True", t0)))},
			{1, "disruption", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Drifted", "True", t1)))},
			{2, "lifecycle", 0, widget("u1", conds(cond("Launched", "True", t0), cond("Registered", "True", t1)))},
		}, true},
		{"a scalar", []write{
			{0, "", -1, widget("u1", nil)},
			{1, "acker", 0, widget("u1", map[string]any{"phase": "ready"})},
			{2, "stale", 0, widget("u1", map[string]any{"phase": "pending"})},
		}, false},
	} {
		tr := &stepping{}
		var c Checks
		b := book.New(server, func(h *book.History, prev map[string]any) {
			h.By[h.Newest()] = tr.step
			c.CheckWrite(h, prev)
		})
		c = NewChecks(b, tr)
		for i, w := range tc.writes {
			tr.step, tr.by, tr.seen = w.step, w.by, w.seen
			b.Record(widgetKey, w.v, string(rune('a'+i)))
		}
		tr.step = 0
		c.CheckSteady(context.Background(), Steady{Steps: make([]Step, len(tc.writes)), Fresh: func() client.Reader { return nil }})
		if len(tr.failed) != 1 {
			t.Fatalf("%s: violations %+v, want one lost write", tc.name, tr.failed)
		}
		msg := tr.failed[0].Message
		const unknown = "(Unknown whether status.conditions is a map list, its order no decision: explore: reading the CustomResourceDefinition widgets.test.statuspatch.io"
		if says := strings.Contains(msg, unknown); says != tc.says {
			t.Errorf("%s: %q; want saying %q: %t", tc.name, msg, unknown, tc.says)
		}
	}
}
