package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"
)

// run starts each backend n times, each in a child process of its own,
// the backends in a rotating order, and prints the runs and the medians.
func run(out io.Writer, n int, assets string, chosen []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	runs := map[string][]result{}
	for rep := 0; rep < n; rep++ {
		for k := range chosen {
			b := chosen[(rep+k)%len(chosen)]
			r, err := child(self, b, assets)
			if err != nil {
				return err
			}
			runs[b] = append(runs[b], r)
			fmt.Fprintf(out, "run %d %-8s  to first write %7.0f ms (process start %4.0f ms, main to write %7.0f ms)  CPU %7.0f ms\n",
				rep+1, b, ms(r.Init+r.ToWrite()), ms(r.Init), ms(r.ToWrite()), ms(r.CPU))
		}
	}
	fmt.Fprintln(out)
	report(out, runs, chosen)
	return nil
}

// child runs one start in a new process and reads its result.
func child(self, backend, assets string) (result, error) {
	cmd := exec.Command(self, "-one", backend, "-assets", assets)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	began := time.Now()
	if err := cmd.Run(); err != nil {
		return result{}, fmt.Errorf("%s start: %w\n%s", backend, err, tail(stderr.Bytes()))
	}
	var r result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return result{}, fmt.Errorf("%s start: reading its result %q: %w", backend, stdout.Bytes(), err)
	}
	r.Init = time.Unix(0, r.MainUnixNano).Sub(began)
	return r, nil
}

func tail(b []byte) []byte {
	if len(b) > 4000 {
		return b[len(b)-4000:]
	}
	return b
}

// report prints the medians per backend, the phases, and the ratios to
// envtest. The ratios compare main's entry to the write accepted; the
// process start (exec, runtime and package init) is shown apart, because
// this one binary links the embedded API server for every backend, which a
// test binary using envtest alone does not: the second ratio charges the
// backend its process start and envtest none, a bound against testenv.
func report(out io.Writer, runs map[string][]result, chosen []string) {
	toWrite := func(r result) time.Duration { return r.ToWrite() }
	withInit := func(r result) time.Duration { return r.Init + r.ToWrite() }
	cpu := func(r result) time.Duration { return r.CPU }
	base, haveBase := runs["envtest"]
	ratio := func(rs []result, f func(result) time.Duration) string {
		if !haveBase {
			return ""
		}
		return fmt.Sprintf("%.2f×", float64(median(rs, f))/float64(median(base, toWrite)))
	}
	fmt.Fprintf(out, "| backend (median of %d) | main to first write | ratio to envtest | with process start | ratio, start charged | CPU to first write | CPU ratio | phases |\n|---|---|---|---|---|---|---|---|\n", len(runs[chosen[0]]))
	for _, b := range chosen {
		rs := runs[b]
		cpuRatio := ""
		if haveBase {
			cpuRatio = fmt.Sprintf("%.2f×", float64(median(rs, cpu))/float64(median(base, cpu)))
		}
		phases := fmt.Sprintf("process start %.0f ms", ms(median(rs, func(r result) time.Duration { return r.Init })))
		for i, p := range rs[0].Phases {
			phases += fmt.Sprintf("; %s %.0f ms", p.Name, ms(median(rs, func(r result) time.Duration { return r.Phases[i].D })))
		}
		fmt.Fprintf(out, "| %s | %.0f ms | %s | %.0f ms | %s | %.0f ms | %s | %s |\n", b,
			ms(median(rs, toWrite)), ratio(rs, toWrite), ms(median(rs, withInit)), ratio(rs, withInit),
			ms(median(rs, cpu)), cpuRatio, phases)
	}
}

func median(rs []result, f func(result) time.Duration) time.Duration {
	ds := make([]time.Duration, len(rs))
	for i, r := range rs {
		ds[i] = f(r)
	}
	slices.Sort(ds)
	if len(ds)%2 == 1 {
		return ds[len(ds)/2]
	}
	return (ds[len(ds)/2-1] + ds[len(ds)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
