package main

import (
	"bytes"
	"strings"
	"testing"
)

const sample = `goos: linux
BenchmarkFlush/small/patcher-2    	  100	      1000 ns/op	   400 B/op	  4 allocs/op
BenchmarkFlush/small/patcher-2    	  100	      3000 ns/op	   400 B/op	  4 allocs/op
BenchmarkFlush/small/patcher-2    	  100	      2000 ns/op	   400 B/op	  4 allocs/op
BenchmarkFlush/small/mergefrom-2  	  100	      4000 ns/op	  1600 B/op	 16 allocs/op
BenchmarkFlush/small/mergefrom-2  	  100	      4000 ns/op	  1600 B/op	 16 allocs/op
PASS
`

func TestRatiosOfMedians(t *testing.T) {
	results, order, err := parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report(&out, results, order, "patcher")
	first := strings.SplitN(out.String(), "\n", 2)[0]
	for _, want := range []string{"Flush/small", "patcher / mergefrom", "time 0.50", "bytes 0.25", "allocs 0.25", "n=3"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
	if !strings.Contains(out.String(), "| Flush/small/patcher | 2.0 µs | 400 | 4 |") {
		t.Errorf("table lacks the patcher's medians:\n%s", out.String())
	}
}

// A benchmark's own metrics (b.ReportMetric) get a ratio of their medians
// too, after the standard three; a metric only one side reports gets none.
func TestRatiosOfOwnMetrics(t *testing.T) {
	const in = `BenchmarkCycle/big/generated-2    10  1000 ns/op  300 client-ns/op  700 server-ns/op  10 B/op  1 allocs/op  5 only-ours/op
BenchmarkCycle/big/generated-2    10  1000 ns/op  100 client-ns/op  900 server-ns/op  10 B/op  1 allocs/op  5 only-ours/op
BenchmarkCycle/big/generated-2    10  1000 ns/op  200 client-ns/op  800 server-ns/op  10 B/op  1 allocs/op  5 only-ours/op
BenchmarkCycle/big/handwritten-2  10  2000 ns/op  800 client-ns/op  800 server-ns/op  20 B/op  2 allocs/op
`
	results, order, err := parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	report(&out, results, order, "generated")
	first := strings.SplitN(out.String(), "\n", 2)[0]
	for _, want := range []string{"time 0.50", "allocs 0.50  client-ns/op 0.25  server-ns/op 1.00  (n=3)"} {
		if !strings.Contains(first, want) {
			t.Errorf("first line %q lacks %q", first, want)
		}
	}
	if strings.Contains(first, "only-ours") {
		t.Errorf("first line %q has a ratio for a metric the other side lacks", first)
	}
}
