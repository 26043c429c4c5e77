package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"time"
)

// A Cmd is one command a benchmark runs: the package's one exec helper.
// It runs in Dir with the caller's environment and Env over it; an empty
// value unsets a go variable (GOWORK= searches for go.work again).
type Cmd struct {
	Dir   string
	Env   []string // KEY=VALUE
	Args  []string
	Stdin io.Reader
}

// Usage is what one run cost: wall time, CPU (user + system) and the
// peak resident set of the largest process in it, as GNU time's %e, %U+%S
// and %M report them.
type Usage struct {
	Wall, CPU time.Duration
	PeakKiB   int64
}

// String is the command as a shell line, for errors and logs.
func (c Cmd) String() string {
	return fmt.Sprintf("(cd %s && %s)", c.Dir, strings.Join(append(slices.Clone(c.Env), c.Args...), " "))
}

// Run runs the command to stdout and stderr and says what it cost; an
// error names the command.
func (c Cmd) Run(stdout, stderr io.Writer) (Usage, error) {
	x := exec.Command(c.Args[0], c.Args[1:]...)
	x.Dir, x.Stdin, x.Stdout, x.Stderr = c.Dir, c.Stdin, stdout, stderr
	x.Env = append(os.Environ(), c.Env...)
	start := time.Now()
	err := x.Run()
	u := Usage{Wall: time.Since(start)}
	if x.ProcessState != nil {
		u.CPU = x.ProcessState.UserTime() + x.ProcessState.SystemTime()
		if ru, ok := x.ProcessState.SysUsage().(*syscall.Rusage); ok {
			u.PeakKiB = ru.Maxrss // KiB on Linux
		}
	}
	if err != nil {
		return u, fmt.Errorf("%s: %w", c, err)
	}
	return u, nil
}

// Output runs the command and returns its standard output; standard
// error goes to stderr, and into the error when it fails.
func (c Cmd) Output(stderr io.Writer) (string, error) {
	var out, errb bytes.Buffer
	_, err := c.Run(&out, io.MultiWriter(stderr, &errb))
	if err != nil {
		return out.String(), fmt.Errorf("%w\n%s", err, errb.String())
	}
	return out.String(), nil
}

// Quiet runs the command with its output kept, returned in the error only.
func (c Cmd) Quiet() (Usage, error) {
	var out bytes.Buffer
	u, err := c.Run(&out, &out)
	if err != nil {
		return u, fmt.Errorf("%w\n%s", err, out.String())
	}
	return u, nil
}

// Median is the middle of v (the mean of the two middle values of an even
// count); 0 for none.
func Median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(v))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Ratio is a/b as "%.2f", "inf" for b == 0.
func Ratio(a, b float64) string {
	if b == 0 {
		return "inf"
	}
	return fmt.Sprintf("%.2f", a/b)
}
