// Command explore-merge merges the reports of a sharded explore search
// (explore.Options.Report, one file per shard 0 to N-1 of the same seed
// and schedules) into one report that names every violation once, with
// its replay, as the unsharded search's report does:
//
//	go run github.com/statuspatch/statuspatch/testenv/cmd/explore-merge -o merged.json shard-*.json
//
// It prints the merged violations and exits 0 when there are none, 1 when
// there are some, and 2 when the reports do not merge (a shard missing
// or twice, another seed) or a shard's search failed.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/statuspatch/statuspatch/testenv/explore/report"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("explore-merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the merged report to this file (JSON)")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: explore-merge [-o merged.json] report.json...")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	var reports []report.Report
	for _, path := range fs.Args() {
		r, err := report.Read(path)
		if err != nil {
			fmt.Fprintf(stderr, "explore-merge: %v\n", err)
			return 2
		}
		reports = append(reports, r)
	}
	merged, err := report.Merge(reports)
	if err != nil {
		fmt.Fprintf(stderr, "explore-merge: %v\n", err)
		return 2
	}
	if *out != "" {
		if err := report.Write(*out, merged); err != nil {
			fmt.Fprintf(stderr, "explore-merge: %v\n", err)
			return 2
		}
	}
	fmt.Fprint(stdout, merged.String())
	switch {
	case merged.Error != "":
		return 2
	case len(merged.Violations) > 0:
		return 1
	}
	return 0
}
