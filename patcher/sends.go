package patcher

import (
	"context"
	"net/http/httptrace"
	"sync/atomic"
)

// A status write's answer settles it alone when the request went on the
// wire once: the server answered that one request, so a 409 is a refusal
// of this write, and no history can hide a stored first attempt. Only a
// request sent more than once (client-go sends the same request again
// after a 429 or a 5xx with Retry-After; net/http again on a connection
// that died before it was used) or whose answer was lost needs settling
// (landed.go).
//
// The sends are counted where they happen: net/http's transport reports
// each connection it takes and each request it writes to the
// httptrace.ClientTrace in the request's context, and client-go and
// controller-runtime pass the write's context down to every request
// they make for it. So the count covers any client built on client-go's
// REST client (a manager's, a cached one, one with wrapped transports),
// with no change to the client. A client that does not send through
// net/http (a fake client) or drops the context reports no send: its
// writes are settled as before, by reads and the object's history.

// sendCount counts the times one status write went on the wire.
type sendCount struct {
	conns  atomic.Int32 // connections taken for it (httptrace GetConn)
	writes atomic.Int32 // requests written (httptrace WroteRequest)
	trace  httptrace.ClientTrace
}

// countSends returns ctx carrying a trace that counts the requests made
// with it, and the count. A trace already in ctx is still called. The
// trace lives in the count: one allocation fewer on every write.
func countSends(ctx context.Context) (context.Context, *sendCount) {
	c := &sendCount{}
	c.trace.GetConn = func(string) { c.conns.Add(1) }
	c.trace.WroteRequest = func(httptrace.WroteRequestInfo) { c.writes.Add(1) }
	return httptrace.WithClientTrace(ctx, &c.trace), c
}

// sends is the number of times the request went on the wire, or 0 when
// the transport reported none (it cannot be seen).
func (c *sendCount) sends() int {
	if c == nil {
		return 0
	}
	return int(max(c.conns.Load(), c.writes.Load()))
}
