// Command lines prints what scripts need of the supported lines in
// hack/lines.txt, the one place a controller-runtime / k8s.io / Go line is
// named. hack/lines.sh runs it; its tests also check that the docs, CI, the
// Makefile, the scripts and the go.mod files agree with the table.
//
//	lines rows [SELECTOR...]   one line a row: name controller-runtime k8s.io
//	                           toolchain go-line envtest roles (no selector:
//	                           supported)
//	lines names [SELECTOR...]  the lines' names, one a line
//	lines assets               the envtest release make test-assets builds
//	                           (the install line's, 1.N.x)
//	lines gomod SELECTOR MODULE
//	                           the go.mod of an operator MODULE pinned at the
//	                           line as kubebuilder projects pin (require and
//	                           replace)
//	lines markdown             docs/compatibility.md's table of the lines
//	lines compat update|test|build [SELECTOR...]
//	                           what hack/compat.sh runs, a step a line: "line
//	                           NAME CR K8S TOOLCHAIN" or "below NAME CR
//	                           TOOLCHAIN" (Table.Compat)
//	lines pins SELECTOR MODULE the go mod edit flags of MODULE's alternate
//	                           go.mod (root, testenv, goldens) at the line
//
// SELECTOR: a line (v0.23), a role (floor, install, workspace, below),
// supported (every supported line) or older (the supported lines before the
// workspace's). -f FILE reads another table (default: hack/lines.txt, or
// lines.txt in hack/).
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/statuspatch/statuspatch/hack/internal/lines"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "lines:", err)
		os.Exit(1)
	}
}

const usage = "usage: lines [-f FILE] rows|names [SELECTOR...] | assets | gomod SELECTOR MODULE | markdown | compat update|test|build [SELECTOR...] | pins SELECTOR MODULE"

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("lines", flag.ContinueOnError)
	file := fs.String("f", defaultFile(), "the table")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w; %s", err, usage)
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%s", usage)
	}
	t, err := lines.ReadFile(*file)
	if err != nil {
		return err
	}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	switch cmd {
	case "rows", "names":
		ls, err := t.Select(rest...)
		if err != nil {
			return err
		}
		for _, l := range ls {
			if cmd == "rows" {
				fmt.Fprintln(w, l.Row())
			} else {
				fmt.Fprintln(w, l.Name)
			}
		}
	case "assets":
		fmt.Fprintln(w, t.Assets())
	case "gomod", "pins":
		if len(rest) != 2 {
			return fmt.Errorf("%s takes a SELECTOR of one line and a MODULE; %s", cmd, usage)
		}
		ls, err := t.Select(rest[0])
		if err != nil {
			return err
		}
		if len(ls) != 1 || ls[0].Has(lines.Below) {
			return fmt.Errorf("%s: %s is not one supported line", cmd, rest[0])
		}
		if cmd == "gomod" {
			fmt.Fprint(w, ls[0].GoMod(rest[1]))
			return nil
		}
		flags, err := ls[0].Pins(rest[1])
		if err != nil {
			return err
		}
		fmt.Fprintln(w, strings.Join(flags, "\n"))
	case "compat":
		if len(rest) == 0 {
			return fmt.Errorf("compat takes a command (update, test, build); %s", usage)
		}
		steps, err := t.Compat(rest[0], rest[1:]...)
		if err != nil {
			return err
		}
		for _, s := range steps {
			fmt.Fprintln(w, s)
		}
	case "markdown":
		fmt.Fprint(w, t.Markdown())
	default:
		return fmt.Errorf("unknown command %q; %s", cmd, usage)
	}
	return nil
}

// defaultFile is hack/lines.txt from the repository's root, else
// lines.txt (from hack/).
func defaultFile() string {
	if _, err := os.Stat(filepath.Join("hack", "lines.txt")); err == nil {
		return filepath.Join("hack", "lines.txt")
	}
	return "lines.txt"
}
