package main

import (
	"io"
	"net/http"
	"sync/atomic"
	"time"
)

// lagTransport makes an informer cache lag by a fixed delay: every chunk
// the server sends on a watch connection reaches the client lag after it
// arrived, so each event lands in the cache lag late, in order. Lists and
// all other requests pass as they are. It also counts the 409 Conflict
// responses of every request through it.
type lagTransport struct {
	lag       time.Duration
	conflicts atomic.Int64
}

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
		if l.lag > 0 && req.URL.Query().Get("watch") == "true" {
			resp.Body = newDelayedBody(resp.Body, l.lag)
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
// of its own, and hands each chunk to the client lag after it arrived.
type delayedBody struct {
	src    io.ReadCloser
	lag    time.Duration
	chunks chan chunk
	rest   []byte // the part of the current chunk not read yet
	err    error  // the error that ended the body
}

func newDelayedBody(src io.ReadCloser, lag time.Duration) *delayedBody {
	b := &delayedBody{src: src, lag: lag, chunks: make(chan chunk, 1024)}
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
		if wait := time.Until(c.arrived.Add(b.lag)); wait > 0 {
			time.Sleep(wait)
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
	go func() {
		for range b.chunks { // unblock the reading goroutine on a full channel
		}
	}()
	return err
}
