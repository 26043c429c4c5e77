package patcherit_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/statuspatch/statuspatch/patcher"
	"github.com/statuspatch/statuspatch/patchertest"
)

// The no-lock apply's read just before it is sent (docs/apply.md, "What
// the no-lock variant gives up").

var noLock = patcher.WithWriteMode(patcher.WriteApplyWithoutLock)

// An apply without the lock lays its decision over the values the server
// holds now. Read through a client whose Gets lag (a cache, no API
// reader), they were the stale read's: the phase a locked patcher of the
// same field owner stored since was put back. The read goes through the
// status subresource, which no cache serves: one GET and the PATCH.
//
// Before: phase back to Pending, nil error, and only the PATCH on the
// wire (the Get was served by the lagging client).
func TestApplyWithoutLockReadsPastALaggingClient(t *testing.T) {
	e := env(t)
	key := newWidget(t, e.Client)
	first := fetchApply(t, e.Client, key)
	first.Object().Status.Phase = "Pending"
	first.Object().Status.Counters = map[string]int64{"seen": 1}
	if err := first.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	c, rec := countingClient(t, e)
	lagging := patchertest.NewClient(c, patchertest.Faults{StaleReads: 1000})
	stale := fetchApply(t, lagging, key, noLock)
	decider := fetchApply(t, e.Client, key)
	decider.Object().Status.Phase = "Running"
	if err := decider.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if phase := get(t, lagging, key).Status.Phase; phase != "Pending" {
		t.Fatalf("the lagging client reads phase %q: it does not lag", phase)
	}
	before := len(rec.requests())
	stale.Object().Status.Counters["seen"]++
	if err := stale.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	got := get(t, e.Client, key)
	if got.Status.Phase != "Running" || got.Status.Counters["seen"] != 2 {
		t.Fatalf("stored phase %q, counter %d: want Running kept, the counter bumped to 2", got.Status.Phase, got.Status.Counters["seen"])
	}
	wantWire(t, rec.requests()[before:], key.Name, http.MethodGet, http.MethodPatch)
}

// Without lag the apply costs what it did: one GET and one PATCH. Without
// an API reader the GET is the status subresource's (a cached client's
// Get sent nothing; a direct client's sent a GET of the object); with one
// it is the API reader's, as before.
func TestApplyWithoutLockIsOneReadAndOnePatch(t *testing.T) {
	e := env(t)
	for _, withReader := range []bool{false, true} {
		name := "client"
		if withReader {
			name = "api-reader"
		}
		t.Run(name, func(t *testing.T) {
			key := newWidget(t, e.Client)
			c, rec := countingClient(t, e)
			r, readRec := countingClient(t, e)
			opts := []patcher.Option{noLock}
			if withReader {
				opts = append(opts, patcher.WithAPIReader(r))
			}
			p := fetchApply(t, c, key, opts...)
			before, readsBefore := len(rec.requests()), len(readRec.requests())
			p.Object().Status.Phase = "Alive"
			if err := p.Flush(ctx); err != nil {
				t.Fatal(err)
			}
			if !withReader {
				wantWire(t, rec.requests()[before:], key.Name, http.MethodGet, http.MethodPatch)
				return
			}
			wantWire(t, rec.requests()[before:], key.Name, http.MethodPatch)
			reads := readRec.requests()[readsBefore:]
			if len(reads) != 1 || reads[0].Method != http.MethodGet || !strings.HasSuffix(reads[0].Path, "/widgets/"+key.Name) {
				t.Fatalf("API reader's requests = %v, want one GET of the object", lines(reads))
			}
		})
	}
}

// wantWire fails unless reqs are one request to the status subresource of
// widget name per method, in that order.
func wantWire(t *testing.T, reqs []request, name string, methods ...string) {
	t.Helper()
	ok := len(reqs) == len(methods)
	for i := 0; ok && i < len(reqs); i++ {
		ok = reqs[i].Method == methods[i] && strings.HasSuffix(reqs[i].Path, "/widgets/"+name+"/status")
	}
	if !ok {
		t.Fatalf("requests = %v, want %v to the status subresource", lines(reqs), methods)
	}
}

// lines are reqs as "METHOD path".
func lines(reqs []request) []string {
	out := make([]string, len(reqs))
	for i, r := range reqs {
		out[i] = r.Method + " " + r.Path
	}
	return out
}
