package explore

import "github.com/statuspatch/statuspatch/testenv/explore/internal/informers"

// The served API (internal/served) reads the run's book through
// informers.ServedBook; what its second cache held at a step's start the
// cache model records (informers.Cache.MarkSeen).

// servedBook is r's book as the served API reads it.
func servedBook(r *run) informers.ServedBook {
	return informers.ServedBook{Book: r.book, Server: r.server, Crash: errCrashed}
}
