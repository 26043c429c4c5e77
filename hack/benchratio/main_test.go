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
