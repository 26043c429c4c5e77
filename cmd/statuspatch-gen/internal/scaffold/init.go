package scaffold

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// initUsage is statuspatch-gen init's synopsis.
const initUsage = `usage: statuspatch-gen init [-dry-run] [-version vX.Y.Z] [-tidy=false] [-api DIRS] [-controllers DIRS] [-output DIR] [DIR]

Adopts statuspatch in the kubebuilder v4 or v3 project in DIR (default .),
or in a project without a PROJECT file (its API packages under api/, apis/
or pkg/apis/, its reconcilers <Kind>Reconciler under internal/controller/,
controllers/ or pkg/controller/, or where -api and -controllers say): the
Makefile's statuspatch block (generate-patchers before generate and
manifests), testenv-assets in place of setup-envtest, the golangci-lint
plugin when .golangci.yml (or .golangci.yaml) exists (else lint-status in
make lint), a starter test on testenv for the first kind's reconciler,
patcher.ForManager in each reconciler's SetupWithManager,
kubebuilder's controller suite on testenv and no envtest binaries in make
test (without webhooks), then go get and go mod tidy. A second run changes nothing. See
docs/kubebuilder.md.

Flags:`

// The statuspatch modules init pins in the project.
const (
	runtimeModule = "github.com/statuspatch/statuspatch"
	testenvModule = runtimeModule + "/testenv"
)

// fileEdit is one file init writes (or, with del, removes).
type fileEdit struct {
	path     string // relative to the project, slash-separated
	old, new string
	del      bool
}

// RunInit runs statuspatch-gen init with its arguments (after "init").
func RunInit(args []string, stdout, stderr io.Writer) error {
	fset := flag.NewFlagSet("statuspatch-gen init", flag.ContinueOnError)
	fset.SetOutput(stderr)
	dryRun := fset.Bool("dry-run", false, "print the changes as a unified diff and write nothing")
	version := fset.String("version", "", "the statuspatch version the Makefile and go.mod pin (default: this binary's module version)")
	tidy := fset.Bool("tidy", true, "run go get for missing statuspatch modules and go mod tidy after writing")
	api := fset.String("api", "", "the folders of the API packages, comma-separated, relative to DIR (default: PROJECT's layout, else the first of api, apis, pkg/apis, pkg/api there)")
	controllers := fset.String("controllers", "", "the folders of the reconcilers (<Kind>Reconciler types), comma-separated, relative to DIR (default: PROJECT's layout, else those of internal/controller, internal/controllers, controllers, pkg/controller, pkg/controllers there)")
	output := fset.String("output", "", "the folder of the generated patchers' package, relative to DIR (default internal/patchers)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, initUsage)
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("statuspatch-gen init: %w", err)
	}
	if fset.NArg() > 1 {
		return fmt.Errorf("statuspatch-gen init: one directory, not %q", fset.Args())
	}
	dir := "."
	if fset.NArg() == 1 {
		dir = fset.Arg(0)
	}
	fl := layoutFlags{api: splitList(*api), controllers: splitList(*controllers)}
	if o := splitList(*output); len(o) > 1 {
		return fmt.Errorf("statuspatch-gen init: -output is one folder, not %q", *output)
	} else if len(o) == 1 {
		fl.output = o[0]
	}
	_, err := doInit(initOptions{dir: dir, version: *version, dryRun: *dryRun, tidy: *tidy, layout: fl}, stdout, stderr)
	return err
}

// initOptions are init's flags and directory, however they were given
// (statuspatch-gen init's command line, or a kubebuilder plugin request).
type initOptions struct {
	dir     string
	version string // "" for this binary's module version
	// versionFlag is the option that sets version, for messages ("" for -version)
	versionFlag string
	dryRun      bool
	tidy        bool
	layout      layoutFlags // -api, -controllers, -output
}

// pinVersion is the statuspatch version init pins: v, or this binary's
// module version when v is "". flag is the option that sets it.
func pinVersion(v, flag string) (string, error) {
	if v == "" {
		v = binaryVersion()
	}
	// a build from a checkout is "(devel)", or with Go 1.24's VCS stamping
	// a pseudo-version no proxy serves (+dirty)
	if !strings.HasPrefix(v, "v") || strings.ContainsAny(v, " \t\n$()+") {
		return "", fmt.Errorf("statuspatch-gen init: cannot tell which statuspatch version to pin (this binary's module version is %q): pass %s vX.Y.Z", v, flag)
	}
	return v, nil
}

// doInit plans init's edits in opts.dir and, unless opts.dryRun, applies
// them (and go mod tidy with opts.tidy). It returns the edits it planned;
// what it did goes to stdout, go's own output to stderr.
func doInit(opts initOptions, stdout, stderr io.Writer) ([]fileEdit, error) {
	dir := opts.dir
	flag := opts.versionFlag
	if flag == "" {
		flag = "-version"
	}
	v, err := pinVersion(opts.version, flag)
	if err != nil {
		return nil, err
	}
	edits, notes, err := planLayout(dir, v, opts.layout)
	if err != nil {
		return nil, err
	}
	if opts.dryRun {
		// the notes first, then the diff they explain
		for _, n := range notes {
			fmt.Fprintf(stdout, "%s\n", n)
		}
		for _, e := range edits {
			if _, err := io.WriteString(stdout, unifiedDiff(e.path, e.old, e.new, e.del)); err != nil {
				return nil, fmt.Errorf("statuspatch-gen init: writing the diff: %w", err)
			}
		}
		if opts.tidy {
			missing, err := missingModules(dir, v)
			if err != nil {
				return nil, err
			}
			if len(missing) > 0 {
				fmt.Fprintf(stdout, "statuspatch-gen init: would run go get %s\n", strings.Join(missing, " "))
			}
			fmt.Fprintf(stdout, "statuspatch-gen init: would run go mod tidy (then go get %s/patcher at the version go.mod requires, if go.sum lacks its checksum)\n", runtimeModule)
		}
		return edits, nil
	}
	// go get and go mod tidy change go.mod and go.sum: a failure there puts
	// them back with every edit, so init leaves all or nothing
	var modFiles []fileEdit
	if opts.tidy {
		for _, name := range []string{"go.mod", "go.sum"} {
			text, err := readText(dir, name)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			modFiles = append(modFiles, fileEdit{path: name, old: text})
		}
	}
	if err := applyEdits(dir, edits); err != nil {
		return nil, err
	}
	for _, e := range edits {
		verb := "wrote"
		if e.del {
			verb = "removed"
		}
		fmt.Fprintf(stdout, "statuspatch-gen init: %s %s\n", verb, e.path)
	}
	if len(edits) == 0 {
		fmt.Fprintf(stdout, "statuspatch-gen init: %s is set up already; nothing to change\n", dir)
	}
	if opts.tidy {
		if err := tidyModule(dir, v, stdout, stderr); err != nil {
			if rerr := restoreEdits(dir, append(modFiles, edits...)); rerr != nil {
				return nil, fmt.Errorf("%w; putting the files back: %w", err, rerr)
			}
			fmt.Fprintf(stdout, "statuspatch-gen init: put back every file above, and go.mod and go.sum: nothing is changed\n")
			return nil, err
		}
	}
	// What it did leads, then the one next command, then the notes, each
	// a line whose detail is in docs/kubebuilder.md: a newcomer read the
	// notes first, long, and had to look for what to run.
	if len(edits) > 0 {
		fmt.Fprintf(stdout, "statuspatch-gen init: next: make generate (then %s)\n", stepsDoc)
	}
	if len(notes) > 0 {
		fmt.Fprintf(stdout, "statuspatch-gen init: notes (in detail: %s):\n", changesDoc)
	}
	for _, n := range notes {
		fmt.Fprintf(stdout, "%s\n", n)
	}
	return edits, nil
}

// binaryVersion is the module version this binary was installed at
// ("(devel)" when built from a checkout).
func binaryVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		return bi.Main.Version
	}
	return ""
}

// golangciConfig returns the name of the project's golangci-lint YAML
// configuration, in golangci-lint's order: .golangci.yml, then
// .golangci.yaml; "" when there is neither.
func golangciConfig(dir string) string {
	for _, name := range []string{".golangci.yml", ".golangci.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return name
		}
	}
	return ""
}

// planInit reads the project and computes every edit, writing nothing.
func planInit(dir, version string) ([]fileEdit, []string, error) {
	return planLayout(dir, version, layoutFlags{})
}

// planLayout is planInit with the layout flags.
func planLayout(dir, version string, fl layoutFlags) ([]fileEdit, []string, error) {
	proj, err := loadProject(dir, fl)
	if err != nil {
		return nil, nil, err
	}
	var edits []fileEdit
	var notes []string
	golangci := false
	cfgName := golangciConfig(dir)
	if yml, err := readText(dir, cfgName); cfgName != "" && err == nil {
		// statuspatch's golangci-plugin build is golangci-lint v2: it reads
		// version "2" configurations only.
		var cfg struct {
			Version string `json:"version"`
		}
		golangci = yaml.Unmarshal([]byte(yml), &cfg) == nil && cfg.Version == "2"
		if !golangci {
			notes = append(notes, "statuspatch-gen init: "+cfgName+" is not a golangci-lint v2 configuration (version: \"2\"): make lint runs lint-status, and golangci-lint stays as it is")
		}
	}
	add := func(path, old, new string) {
		if old != new {
			edits = append(edits, fileEdit{path: path, old: old, new: new})
		}
	}

	makefile, err := readText(dir, "Makefile")
	if err != nil {
		return nil, nil, err
	}
	runs, runNote := proj.genRuns(dir)
	if runNote != "" {
		notes = append(notes, runNote)
	}
	block := blockOptions{golangci: golangci, runs: runs,
		header: proj.layout.ctrlRoot != "" || fileExists(filepath.Join(dir, "hack", "boilerplate.go.txt"))}
	newMakefile, makeNotes, err := editMakefile(filepath.Join(dir, "Makefile"), makefile, version, block)
	var wiring *golangciWiringError
	if golangci && errors.As(err, &wiring) {
		// golangci-lint is installed or run otherwise than kubebuilder's
		// scaffold does: no plugin, lint-status in make lint.
		golangci, block.golangci = false, false
		notes = append(notes, "statuspatch-gen init: "+wiring.Error()+": make lint runs lint-status, and golangci-lint and "+cfgName+" stay as they are (docs/kubebuilder.md)")
		newMakefile, makeNotes, err = editMakefile(filepath.Join(dir, "Makefile"), makefile, version, block)
	}
	if err != nil {
		return nil, nil, err
	}
	notes = append(notes, makeNotes...)
	// The reconcilers' wiring first: the notes name lines as init leaves
	// the files (proj.wired), the calls on built-in kinds' too.
	mgrEdits, mgrNotes, err := managerEdits(dir, proj)
	if err != nil {
		return nil, nil, err
	}
	proj.wired = map[string]string{}
	for _, e := range mgrEdits {
		proj.wired[e.path] = e.new
	}
	suiteEdits, suiteNotes, newMakefile, err := planTestServer(dir, proj, newMakefile)
	if err != nil {
		return nil, nil, err
	}
	edits, notes = append(edits, suiteEdits...), append(notes, suiteNotes...)
	add("Makefile", makefile, newMakefile)

	if golangci {
		yml, err := readText(dir, cfgName)
		if err != nil {
			return nil, nil, err
		}
		newYml, err := editGolangci(filepath.Join(dir, cfgName), yml)
		if err != nil {
			return nil, nil, err
		}
		add(cfgName, yml, newYml)
		if custom, err := readText(dir, ".custom-gcl.yml"); err == nil {
			// The Makefile no longer builds golangci-lint with it.
			edits = append(edits, fileEdit{path: ".custom-gcl.yml", old: custom, del: true})
		}
	}

	edits, notes = append(edits, mgrEdits...), append(notes, mgrNotes...)

	path, content, note, err := starterTest(dir, proj)
	if err != nil {
		return nil, nil, err
	}
	if path == "" && note != "" {
		notes = append(notes, note)
	}
	if path != "" {
		_, err := readText(dir, path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			add(path, "", content)
			if note != "" {
				notes = append(notes, note)
			}
		case err != nil:
			return nil, nil, err
		default:
			// A starter test is written once; after that it is the user's.
		}
	}
	tokenNotes, err := writeTokenNotes(dir, proj)
	if err != nil {
		return nil, nil, err
	}
	slices.SortFunc(edits, func(a, b fileEdit) int { return strings.Compare(a.path, b.path) })
	return edits, append(append(notes, tokenNotes...), changeNotes(edits, cfgName)...), nil
}

// tidyModule adds the statuspatch modules go.mod does not require yet (at
// version, as README.md's go get lines do) and runs go mod tidy, so that
// the modules the code imports are direct requirements.
func tidyModule(dir, version string, stdout, stderr io.Writer) error {
	missing, err := missingModules(dir, version)
	if err != nil {
		return err
	}
	run := func(args ...string) error {
		fmt.Fprintf(stdout, "statuspatch-gen init: go %s\n", strings.Join(args, " "))
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Stdout, cmd.Stderr = stdout, stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("statuspatch-gen init: go %s in %s: %w (fix the cause, above, and run init again; or adopt by hand: %s)", strings.Join(args, " "), dir, err, byHandDoc)
		}
		return nil
	}
	if len(missing) > 0 {
		if err := run(append([]string{"get"}, missing...)...); err != nil {
			return err
		}
	}
	if err := run("mod", "tidy"); err != nil {
		return err
	}
	// Until a reconciler imports internal/patchers, nothing imports the
	// runtime's packages, and go mod tidy drops the runtime from go.mod
	// (or keeps only its go.mod checksum): make generate's controller-gen,
	// loading the new internal/patchers, would stop at "missing go.sum
	// entry". go get of the patcher package (at the version go.mod
	// requires, else init's) records it, as an indirect requirement until
	// the code imports it.
	gomod, err := readText(dir, "go.mod")
	if err != nil {
		return err
	}
	sum, err := readText(dir, "go.sum")
	if err != nil {
		return err
	}
	v, ok := requiredVersion(gomod, runtimeModule)
	if !ok {
		v = version // tidy drops it while nothing imports it
	} else if strings.Contains(sum, runtimeModule+" "+v+" h1:") {
		return nil
	}
	return run("get", runtimeModule+"/patcher@"+v)
}

// missingModules are the statuspatch modules go.mod does not require, at
// version, as go get takes them.
func missingModules(dir, version string) ([]string, error) {
	gomod, err := readText(dir, "go.mod")
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, m := range []string{runtimeModule, testenvModule} {
		if !requires(gomod, m) {
			missing = append(missing, m+"@"+version)
		}
	}
	return missing, nil
}

// requires reports whether go.mod's text requires module m.
func requires(gomod, m string) bool {
	_, ok := requiredVersion(gomod, m)
	return ok
}

// requiredVersion is the version at which go.mod's text requires module m.
func requiredVersion(gomod, m string) (string, bool) {
	for _, line := range strings.Split(gomod, "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) >= 2 && f[0] == m {
			return f[1], true
		}
	}
	return "", false
}

func readText(dir, rel string) (string, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("statuspatch-gen init: %w", err)
	}
	return string(b), nil
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
