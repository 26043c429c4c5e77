// Command benchratio reads `go test -bench` output (several -count runs) on
// stdin and prints, for each pair of benchmarks that differ only in their
// last name element, the ratio of their medians: ours / theirs.
//
//	go test ./patcher -run '^$' -bench . -benchmem -count 6 | go run ./hack/benchratio -ours patcher
//
// The ratio lines come first, so the verdict precedes the details; then a
// Markdown table of the medians.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// line matches "BenchmarkX/a/b-2   100   123 ns/op   45 B/op   6 allocs/op".
var line = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+(.*)$`)

type samples map[string][]float64 // unit -> values

func main() {
	ours := flag.String("ours", "patcher", "last name element of our variant")
	flag.Parse()
	results, order, err := parse(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	report(os.Stdout, results, order, *ours)
}

func parse(r io.Reader) (map[string]samples, []string, error) {
	results := map[string]samples{}
	var order []string
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		m := line.FindStringSubmatch(strings.TrimSpace(sc.Text()))
		if m == nil {
			continue
		}
		name := m[1]
		if _, ok := results[name]; !ok {
			results[name] = samples{}
			order = append(order, name)
		}
		f := strings.Fields(m[2])
		for i := 0; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				continue
			}
			results[name][f[i+1]] = append(results[name][f[i+1]], v)
		}
	}
	return results, order, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func split(name string) (group, variant string) {
	i := strings.LastIndex(name, "/")
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

func report(w io.Writer, results map[string]samples, order []string, ours string) {
	for _, name := range order {
		group, variant := split(name)
		if variant != ours {
			continue
		}
		for _, other := range order {
			og, ov := split(other)
			if og != group || ov == ours {
				continue
			}
			a, b := results[name], results[other]
			fmt.Fprintf(w, "ratio %-40s %s / %s:  time %.2f  bytes %.2f  allocs %.2f%s  (n=%d)\n",
				strings.TrimPrefix(group, "Benchmark"), ours, ov,
				ratio(a, b, "ns/op"), ratio(a, b, "B/op"), ratio(a, b, "allocs/op"), extra(a, b), len(a["ns/op"]))
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| benchmark | time/op (median) | bytes/op | allocs/op |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, name := range order {
		s := results[name]
		fmt.Fprintf(w, "| %s | %s | %.0f | %.0f |\n", strings.TrimPrefix(name, "Benchmark"),
			duration(median(s["ns/op"])), median(s["B/op"]), median(s["allocs/op"]))
	}
}

// standard are the units go test prints itself; the others are a
// benchmark's own metrics (b.ReportMetric).
var standard = map[string]bool{"ns/op": true, "B/op": true, "allocs/op": true, "MB/s": true}

// extra is the ratios of a benchmark's own metrics, such as
// "  client-ns/op 0.93", in name order.
func extra(a, b samples) string {
	var units []string
	for u := range a {
		if !standard[u] && len(b[u]) > 0 {
			units = append(units, u)
		}
	}
	sort.Strings(units)
	var s strings.Builder
	for _, u := range units {
		fmt.Fprintf(&s, "  %s %.2f", u, ratio(a, b, u))
	}
	return s.String()
}

func ratio(a, b samples, unit string) float64 {
	d := median(b[unit])
	if d == 0 {
		return 0
	}
	return median(a[unit]) / d
}

func duration(ns float64) string {
	switch {
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	default:
		return fmt.Sprintf("%.0f ns", ns)
	}
}
