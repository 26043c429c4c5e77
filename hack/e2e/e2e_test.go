package e2e

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/statuspatch/statuspatch/hack/installroute"
	"github.com/statuspatch/statuspatch/hack/internal/lines"
	"github.com/statuspatch/statuspatch/hack/internal/machine"
)

// optIn is the variable that runs the routes.
const optIn = "STATUSPATCH_E2E"

var version = flag.String("version", "", "the version the module proxy serves (default: the one testenv/go.mod requires)")

// The run's repository, table of lines, scratch folder and proxy: set by
// TestMain when the routes run.
var (
	root  string
	table lines.Table
	work  string
	proxy *installroute.Proxy
)

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(optIn) != "1" {
		os.Exit(m.Run())
	}
	cleanup, err := setUp()
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %v\n", err)
		os.Exit(1)
	}
	// Interrupted, the proxy's copies are dropped, the lock released and
	// the scratch folder removed all the same.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		cleanup()
		os.Exit(1)
	}()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// setUp reads the table, makes the scratch folder and builds the proxy
// under the lock; cleanup undoes them, once.
func setUp() (cleanup func(), err error) {
	if root, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		return nil, err
	}
	if table, err = lines.ReadFile(filepath.Join(root, "hack", "lines.txt")); err != nil {
		return nil, err
	}
	if work, err = os.MkdirTemp("", "statuspatch-e2e-"); err != nil {
		return nil, err
	}
	cleanup = sync.OnceFunc(func() {
		if proxy != nil {
			if err := proxy.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "e2e: cleaning up: %v\n", err)
			}
		}
		if err := installroute.RemoveAll(work); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: cleaning up: %v\n", err)
		}
	})
	if proxy, err = installroute.OpenProxy(root, *version, work, os.Stdout, os.Stderr); err != nil {
		cleanup()
		return nil, err
	}
	return cleanup, nil
}

// config is a route's configuration in t, its output t's; it skips t
// unless the routes run.
func config(t *testing.T) installroute.Config {
	t.Helper()
	if proxy == nil {
		t.Skipf("hack's routes run with %s=1 (make test-install, make test-newcomer, make test-compat-all)", optIn)
	}
	return installroute.Config{Root: root, Table: table, Proxy: proxy, Work: work, Out: t.Output()}
}

func TestInstall(t *testing.T) {
	if err := installroute.Install(config(t)); err != nil {
		t.Fatalf("install-test: %v", err)
	}
}

// TestAdopt: README's go get lines at each line older than the
// workspace's.
func TestAdopt(t *testing.T) {
	eachLine(t, lines.Older, installroute.Adopt, "hack/adopt-lines.sh %s")
}

// TestNewcomer: docs/kubebuilder.md's steps at every supported line.
func TestNewcomer(t *testing.T) {
	eachLine(t, lines.Supported, installroute.Newcomer, "make test-newcomer NEWCOMER_LINE=%s")
}

// eachLine runs route at each line of the selection, a parallel subtest
// each; a failure says how to run its line alone (rerun, given the line's
// name). A -run that matches none of the lines fails, naming them.
func eachLine(t *testing.T, sel string, route func(installroute.Config, lines.Line) error, rerun string) {
	config(t)
	ls, err := table.Select(sel)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, l := range ls {
		t.Run(l.Name, func(t *testing.T) {
			ran++
			t.Parallel()
			if err := route(config(t), l); err != nil {
				t.Fatalf("line %s: %v\n(this line alone: %s)", l.Name, err, fmt.Sprintf(rerun, l.Name))
			}
			t.Logf("line %s: ok, load %s at its end", l.Name, machine.Load())
		})
	}
	if ran == 0 {
		var names []string
		for _, l := range ls {
			names = append(names, l.Name)
		}
		t.Fatalf("-run %s matches none of the lines: %s", flag.Lookup("test.run").Value, strings.Join(names, " "))
	}
}
