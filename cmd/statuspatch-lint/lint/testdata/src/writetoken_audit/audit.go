// Package writetoken_audit: -audit says of a kind with a write token what
// it says of any generated patcher (patcher.WithWriteToken sets no write
// mode), and still reports a handwritten write of the token.
package writetoken_audit

import (
	"context"

	tokenv1 "example.com/api/token/v1"
	"github.com/statuspatch/statuspatch/patcher"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Through a client whose defaults are seen, as in patchermode's locked.
func take(ctx context.Context, mgr patcher.Manager, l *tokenv1.Ledger) error {
	p := tokenv1.NewLedgerStatusPatcher(patcher.ForManager(mgr), l)
	l.Status.Count++
	if err := p.Flush(ctx); err != nil { // want `^optimistic: LedgerStatusPatcher.Flush of Ledger: generated patcher$`
		return err
	}
	l.Status.WriteToken = "" // want `^LedgerStatus.WriteToken is the write token \(\+statuspatch:writeToken\): the patcher sets it on every write; remove this assignment$`
	return nil
}

func retry(ctx context.Context, mgr patcher.Manager, key client.ObjectKey) error {
	p, err := tokenv1.FetchLedgerStatusPatcher(ctx, patcher.ForManager(mgr), key)
	if err != nil {
		return err
	}
	return p.Retry(ctx, func(l *tokenv1.Ledger) error { // want `^optimistic: LedgerStatusPatcher.Retry of Ledger: generated patcher$`
		l.Status.Count++
		return nil
	})
}
