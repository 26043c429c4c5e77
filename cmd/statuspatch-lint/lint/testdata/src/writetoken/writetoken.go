// Package writetoken: a handwritten write of a status field marked
// +statuspatch:writeToken (declared in another package, found through
// its fact) is reported, through the patcher or not; reads, comparisons,
// the generated patcher's own code and unmarked fields are not.
package writetoken

import (
	"context"

	tokenv1 "example.com/api/token/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Through the generated patcher: the patcher sets the token on every
// write, so setting or clearing it by hand is a bug.
func take(ctx context.Context, c client.Client, l *tokenv1.Ledger) error {
	p := tokenv1.NewLedgerStatusPatcher(c, l)
	l.Status.Taken = append(l.Status.Taken, "job-1")
	l.Status.Count++
	l.Status.WriteToken = "mine"      // want `^LedgerStatus.WriteToken is the write token \(\+statuspatch:writeToken\): the patcher sets it on every write; remove this assignment$`
	p.Object().Status.WriteToken = "" // want `^LedgerStatus.WriteToken is the write token`
	return p.Flush(ctx)
}

func retry(ctx context.Context, c client.Client, key client.ObjectKey) error {
	p, err := tokenv1.FetchLedgerStatusPatcher(ctx, c, key)
	if err != nil {
		return err
	}
	return p.Retry(ctx, func(l *tokenv1.Ledger) error {
		l.Status.Count++
		l.Status.WriteToken += "-again" // want `^LedgerStatus.WriteToken is the write token`
		return nil
	})
}

// A pointer status, a token under another name, a literal.
func queue(q *tokenv1.Queue, st *tokenv1.LedgerStatus) { // want queue:`^statusOnly\[0\]$`
	q.Status.Token = "t"                                  // want `^QueueStatus.Token is the write token \(\+statuspatch:writeToken\): the patcher sets it on every write; remove this assignment$`
	q.Status = &tokenv1.QueueStatus{Token: "t"}           // want `^QueueStatus.Token is the write token \(\+statuspatch:writeToken\): the patcher sets it on every write; remove Token from this literal$`
	*st = tokenv1.LedgerStatus{Count: 1, WriteToken: "t"} // want `^LedgerStatus.WriteToken is the write token`
	st.WriteToken, st.Count = "t", 2                      // want `^LedgerStatus.WriteToken is the write token`
}

// A handwritten status write that sets the token: both are reported.
func handwritten(ctx context.Context, c client.Client, l *tokenv1.Ledger, token string) error {
	l.Status.WriteToken = token      // want `^LedgerStatus.WriteToken is the write token`
	return c.Status().Update(ctx, l) // want `handwritten status write to Ledger: use LedgerStatusPatcher \(example.com/api/token/v1\)`
}

// Reading, comparing, copying out and taking the address are no writes;
// LastWriteToken and Journal's WriteToken carry no marker.
func reads(l *tokenv1.Ledger, j *tokenv1.Journal) (string, bool, *string) { // want reads:`^statusOnly\[0 1\]$`
	tok := l.Status.WriteToken
	same := l.Status.WriteToken == tok && l.Status.WriteToken != ""
	l.Status.LastWriteToken = l.Status.WriteToken
	j.Status.WriteToken = "j"
	_ = tokenv1.JournalStatus{WriteToken: "j"}
	return tok, same, &l.Status.WriteToken
}

// A token marked in this package: the marker is read from this package's
// own comments.
type localStatus struct {
	// +statuspatch:writeToken
	Stamp string // want Stamp:`^writeToken$`
	Other string
}

func local(s *localStatus) {
	s.Stamp = "x" // want `^localStatus.Stamp is the write token`
	s.Other = "y"
}
