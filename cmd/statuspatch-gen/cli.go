package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/generator"

	"github.com/statuspatch/statuspatch/cmd/statuspatch-gen/internal/scaffold"
)

// generatorName is the generator's name on the command line and in
// controller-gen's syntax (statuspatch:headerFile=...).
const generatorName = "statuspatch"

// usage is the command's synopsis.
const usage = `usage: statuspatch-gen paths=./api/... [headerFile=hack/boilerplate.go.txt] [year=2026] [output:dir=./internal/patchers]
       statuspatch-gen init [-dry-run] [DIR]   adopt statuspatch in a kubebuilder v4 or v3 project, or one without PROJECT (init -h)
       statuspatch-gen kubebuilder-plugin      answer a kubebuilder external plugin request on stdin (docs/kubebuilder.md)
       statuspatch-gen -w     the markers statuspatch reads (-ww: with details)
       statuspatch-gen -h     this help (-hh: with details)
       statuspatch-gen -version  the module version this binary was built at`

// shorthands are the generator's options, accepted bare on the command line:
// headerFile=X stands for statuspatch:headerFile=X.
var shorthands = []string{"headerFile", "year", "allowNoKinds", "kinds"}

// outputRule is an output rule the command accepts, with what statuspatch
// does with it (genall's own help describes controller-gen's artifacts).
type outputRule struct {
	name string
	rule genall.OutputRule
	help string
}

var outputRules = []outputRule{
	{"dir", genall.OutputToDirectory(""), "write one package, named after the directory, into this directory: the API packages stay free of controller-runtime"},
	{"none", genall.OutputToNothing, "render and check, write nothing"},
	{"stdout", genall.OutputToStdout, "print the files that would be written beside the types"},
	{"artifacts", genall.OutputArtifacts{}, "with code=DIR the same as output:dir=DIR, without it beside the types; config is not used"},
}

// optionsRegistry returns the registry of command-line options, built the
// way controller-gen builds its own: the generator, its output rules (as
// output:RULE and output:statuspatch:RULE), and paths.
func optionsRegistry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	gen := generator.Generator{}
	defn, err := markers.MakeDefinition(generatorName, markers.DescribesPackage, gen)
	if err != nil {
		return nil, fmt.Errorf("define %s option: %w", generatorName, err)
	}
	if err := reg.Register(defn); err != nil {
		return nil, fmt.Errorf("register %s option: %w", generatorName, err)
	}
	reg.AddHelp(defn, gen.Help())
	for _, r := range outputRules {
		for _, optName := range []string{"output:" + r.name, "output:" + generatorName + ":" + r.name} {
			def, err := markers.MakeDefinition(optName, markers.DescribesPackage, r.rule)
			if err != nil {
				return nil, fmt.Errorf("define %s option: %w", optName, err)
			}
			if err := reg.Register(def); err != nil {
				return nil, fmt.Errorf("register %s option: %w", optName, err)
			}
			h := markers.SimpleHelp("output rules", r.help)
			if rh, ok := r.rule.(genall.HasHelp); ok {
				h.FieldHelp = rh.Help().FieldHelp
			}
			reg.AddHelp(def, h)
		}
	}
	if err := genall.RegisterOptionsMarkers(reg); err != nil {
		return nil, fmt.Errorf("register paths option: %w", err)
	}
	reg.AddHelp(genall.InputPathsMarker, markers.SimpleHelp("input",
		"the API packages to read, as for go list: ./api/..., a module path; several as {a,b} or a;b"))
	return reg, nil
}

// normalizeArgs turns the command's shorthands into controller-gen options:
// headerFile=X and year=Y become statuspatch:headerFile=X,year=Y, and the
// statuspatch generator is added when no argument names it.
func normalizeArgs(args []string) []string {
	var out, genArgs []string
	named := false
	for _, a := range args {
		key, _, _ := strings.Cut(a, "=")
		switch {
		case contains(shorthands, key):
			genArgs = append(genArgs, a)
		case a == generatorName || strings.HasPrefix(a, generatorName+":"):
			named = true
			out = append(out, a)
		default:
			out = append(out, a)
		}
	}
	if len(genArgs) > 0 {
		if named {
			// merge into the explicit generator option
			for i, a := range out {
				if a == generatorName {
					out[i] = generatorName + ":" + strings.Join(genArgs, ",")
				} else if strings.HasPrefix(a, generatorName+":") {
					out[i] = a + "," + strings.Join(genArgs, ",")
				}
			}
			return out
		}
		return append([]string{generatorName + ":" + strings.Join(genArgs, ",")}, out...)
	}
	if !named {
		out = append([]string{generatorName}, out...)
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// run runs statuspatch-gen with the given arguments (without the program
// name). Help goes to stdout. Generation errors come back as one error whose
// lines are "file:line: message".
func run(args []string, stdout io.Writer) error {
	if len(args) > 0 && args[0] == "init" {
		return scaffold.RunInit(args[1:], stdout, os.Stderr)
	}
	if len(args) > 0 && args[0] == "kubebuilder-plugin" {
		return scaffold.RunKBPlugin(".", os.Stdin, stdout, os.Stderr)
	}
	helpLevel, whichLevel := 0, 0
	var opts []string
	for _, a := range args {
		switch {
		case a == "-version" || a == "--version":
			_, err := fmt.Fprintf(stdout, "statuspatch-gen %s\n", moduleVersion(debug.ReadBuildInfo()))
			return err
		case a == "--help" || a == "-help":
			helpLevel = max(helpLevel, 1)
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "h") == "" && len(a) > 1:
			helpLevel = max(helpLevel, len(a)-1)
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "w") == "" && len(a) > 1:
			whichLevel = max(whichLevel, len(a)-1)
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("unknown flag %s\n%s", a, usage)
		default:
			// controller-gen's help shows options as +paths=...; accept that too
			opts = append(opts, strings.TrimPrefix(a, "+"))
		}
	}
	optsReg, err := optionsRegistry()
	if err != nil {
		return err
	}
	opts = normalizeArgs(opts)
	switch {
	case helpLevel > 0:
		return printOptions(stdout, helpLevel > 1, optsReg)
	case whichLevel > 0:
		reg, err := genall.RegistryFromOptions(optsReg, opts)
		if err != nil {
			return fmt.Errorf("statuspatch-gen: %w", err)
		}
		return printMarkers(stdout, whichLevel > 1, reg)
	}

	start := time.Now()
	rt, err := genall.FromOptionsWithConfig(loadConfig(), optsReg, opts)
	if err != nil {
		return fmt.Errorf("statuspatch-gen: %w", err)
	}
	loaded := time.Now()
	err = runGenerators(rt)
	if os.Getenv("STATUSPATCH_GEN_TIMING") != "" {
		// for make bench (hack/bench.Gen): where the time goes
		fmt.Fprintf(os.Stderr, "statuspatch-gen timing: load %v, generate %v\n",
			loaded.Sub(start).Round(time.Millisecond), time.Since(loaded).Round(time.Millisecond))
	}
	return err
}

// loadConfig is the go/packages configuration of the package loader.
// controller-tools' loader asks for compiled Go files, so go list runs with
// -compiled, which costs it about three quarters of its time (0.9 s against
// 0.25 s on cluster-api's core/v1beta2 and its 279 dependencies): it
// prepares every dependency's build actions. The generator parses only API
// packages and the few they reference, none with cgo, whose compiled files
// are their Go files; a later -compiled=false wins over the loader's flag,
// and go/packages then takes GoFiles as CompiledGoFiles.
func loadConfig() *packages.Config {
	return &packages.Config{BuildFlags: []string{"-compiled=false"}}
}

// runGenerators is genall's Runtime.Run, returning the generators' errors
// instead of printing them. Package errors are reported by the generator
// itself, for the packages and lines it reads (the partial type-checker
// leaves expected type errors elsewhere).
func runGenerators(rt *genall.Runtime) error {
	var errs []error
	for _, gen := range rt.Generators {
		ctx := rt.GenerationContext
		ctx.OutputRule = rt.OutputRules.ForGenerator(gen)
		if _, ok := (*gen).(genall.NeedsTypeChecking); !ok {
			ctx.Checker = nil
		}
		if err := (*gen).Generate(&ctx); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// moduleVersion is the module version in a binary's build information
// (debug.ReadBuildInfo's results): a release's vX.Y.Z as go install
// stamps it, "(devel)" for a build from a checkout or when unknown.
func moduleVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil || bi.Main.Version == "" {
		return "(devel)"
	}
	return bi.Main.Version
}
