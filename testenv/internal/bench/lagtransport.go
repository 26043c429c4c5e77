package main

import (
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// lagTransport makes an informer cache lag by a delay: every chunk the
// server sends on a watch connection reaches the client the lag after it
// arrived (the lag as set when the chunk is handed on), so each event lands
// in the cache that late, in order. Watches include the initial list where
// client-go streams it (WatchList). Other requests pass as they are. It
// also counts the 409 Conflict responses of every request through it.
type lagTransport struct {
	lag       atomic.Int64 // time.Duration
	conflicts atomic.Int64
}

func (l *lagTransport) setLag(d time.Duration) { l.lag.Store(int64(d)) }

// wrap is a rest.Config WrapTransport.
func (l *lagTransport) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if err != nil {
			return resp, err
		}
		if resp.StatusCode == http.StatusConflict {
			l.conflicts.Add(1)
		}
		if req.URL.Query().Get("watch") == "true" {
			resp.Body = newDelayedBody(resp.Body, &l.lag)
		}
		return resp, nil
	})
}

// chunk is what one Read of the server's body returned, and when.
type chunk struct {
	data    []byte
	err     error
	arrived time.Time
}

// delayedBody reads the server's body as fast as it comes, in a goroutine
// of its own, and hands each chunk on the lag after it arrived.
type delayedBody struct {
	src    io.ReadCloser
	lag    *atomic.Int64 // time.Duration
	chunks chan chunk
	rest   []byte // the part of the current chunk not read yet
	err    error  // the error that ended the body
	closed chan struct{}
	once   sync.Once
}

func newDelayedBody(src io.ReadCloser, lag *atomic.Int64) *delayedBody {
	b := &delayedBody{src: src, lag: lag, chunks: make(chan chunk, 1024), closed: make(chan struct{})}
	go func() {
		defer close(b.chunks)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			b.chunks <- chunk{data: buf[:n], err: err, arrived: time.Now()}
			if err != nil {
				return
			}
		}
	}()
	return b
}

func (b *delayedBody) Read(p []byte) (int, error) {
	for len(b.rest) == 0 {
		if b.err != nil {
			return 0, b.err
		}
		c, ok := <-b.chunks
		if !ok {
			return 0, io.EOF
		}
		if wait := time.Until(c.arrived.Add(time.Duration(b.lag.Load()))); wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-b.closed:
				t.Stop()
				return 0, io.ErrClosedPipe
			}
		}
		b.rest, b.err = c.data, c.err
	}
	n := copy(p, b.rest)
	b.rest = b.rest[n:]
	return n, nil
}

// Close closes the server's body, which ends the reading goroutine; what
// it still had buffered is dropped.
func (b *delayedBody) Close() error {
	err := b.src.Close()
	b.once.Do(func() {
		close(b.closed)
		go func() {
			for range b.chunks { // unblock the reading goroutine on a full channel
			}
		}()
	})
	return err
}
