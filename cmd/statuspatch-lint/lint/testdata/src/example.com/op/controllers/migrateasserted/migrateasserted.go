// Package migrateasserted: test code reads the object with a Get whose
// error a test assertion checks, g.Expect(c.Get(...)).To(Succeed()) in a
// function given to Eventually (kueue's test/util) or require.NoError:
// a failed assertion ends the function, so -fix makes the patcher after
// it, as after if err := c.Get(...); err != nil { return err }. An
// assertion that goes on, or a matcher that passes on an error, stays.
package migrateasserted

import (
	"context"

	v1 "example.com/op/api/v1"
	"github.com/onsi/gomega"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SetReady is kueue's test/util shape: the body of an Eventually.
func SetReady(ctx context.Context, c client.Client, key client.ObjectKey) func(g gomega.Gomega) {
	return func(g gomega.Gomega) {
		var w v1.Widget
		g.Expect(c.Get(ctx, key, &w)).To(gomega.Succeed())
		w.Status.Ready = true
		g.Expect(c.Status().Update(ctx, &w)).To(gomega.Succeed()) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
	}
}

// Global is Ginkgo's global Expect and the negated matcher.
func Global(ctx context.Context, c client.Client, key client.ObjectKey) {
	w := &v1.Widget{}
	gomega.Expect(c.Get(ctx, key, w)).NotTo(gomega.HaveOccurred())
	w.Status.Ready = true
	gomega.Expect(c.Status().Update(ctx, w)).Should(gomega.Succeed()) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// Require is testify's require.NoError, which stops the test.
func Require(ctx context.Context, t require.TestingT, c client.Client, key client.ObjectKey) {
	w := &v1.Widget{}
	require.NoError(t, c.Get(ctx, key, w))
	w.Status.Ready = true
	require.NoError(t, c.Status().Update(ctx, w)) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example.com/op/internal/patchers\)$`
}

// WrongMatcher passes when the Get fails: the object may be unread, and it
// stays, named as before.
func WrongMatcher(ctx context.Context, c client.Client, key client.ObjectKey) {
	w := &v1.Widget{}
	gomega.Expect(c.Get(ctx, key, w)).To(gomega.HaveOccurred())
	w.Status.Ready = true
	gomega.Expect(c.Status().Update(ctx, w)).To(gomega.Succeed()) // want `as an argument of gomega.Expect, not in a statement of its own`
}

// GoesOn is require.Error: it passes on a failed Get.
func GoesOn(ctx context.Context, t require.TestingT, c client.Client, key client.ObjectKey) {
	w := &v1.Widget{}
	require.Error(t, c.Get(ctx, key, w))
	w.Status.Ready = true
	require.NoError(t, c.Status().Update(ctx, w)) // want `as an argument of require.Error, not in a statement of its own`
}
