// Package xhelper reads its objects with the helpers of another package
// of the module (getutil): a helper whose Get runs first and hands the
// object back unchanged is the read; else the write stays, naming the
// helper's line.
package xhelper

import (
	"context"

	v1 "example.com/op/api/v1"
	"example.com/op/getutil"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

type R struct {
	client.Client
}

func (r *R) returned(ctx context.Context, req ctrl.Request) error {
	w, err := getutil.GetWidget(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) given(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := getutil.Load(ctx, r.Client, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) givenValue(ctx context.Context, req ctrl.Request) error {
	var w v1.Widget
	if err := getutil.Load(ctx, r.Client, req.NamespacedName, &w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, &w) // want `^handwritten status write to Widget: use WidgetStatusPatcher \(example\.com/op/internal/patchers\)$`
}

func (r *R) unnamed(ctx context.Context, req ctrl.Request) error {
	w := &v1.Widget{}
	if err := getutil.LoadUnnamed(ctx, r.Client, req.NamespacedName, w); err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is read with Get in getutil\.LoadUnnamed \(getutil\.go:33\), called at line 49, but getutil\.LoadUnnamed may return at getutil\.go:31, before its Get: the object the call hands back may not be the Get's, and -fix makes no patcher there; make NewWidgetStatusPatcher where its status changes start and call its Flush\(ctx\) here\)$`
}

func (r *R) defaulted(ctx context.Context, req ctrl.Request) error {
	w, err := getutil.GetDefaulted(ctx, r.Client, req.NamespacedName)
	if err != nil {
		return err
	}
	w.Status.Ready = true
	return r.Status().Update(ctx, w) // want `not moved to the patcher: w is read with Get in getutil\.GetDefaulted \(getutil\.go:39\), called at line 57, but getutil\.GetDefaulted changes w\.Status\.Size at getutil\.go:43: the object the call hands back may not be the Get's, and -fix makes no patcher there; make NewWidgetStatusPatcher where its status changes start and call its Flush\(ctx\) here\)$`
}
