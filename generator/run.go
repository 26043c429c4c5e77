package generator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/genall/help"
	prettyhelp "sigs.k8s.io/controller-tools/pkg/genall/help/pretty"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Name is the generator's name on the command line and in a controller-gen
// registry.
const Name = "statuspatch"

// Usage is the command's synopsis.
const Usage = `usage: statuspatch-gen paths=./api/... [headerFile=hack/boilerplate.go.txt] [year=2026] [output:dir=./internal/patchers]
       statuspatch-gen -w     list the markers statuspatch reads (-ww, -www for more detail)
       statuspatch-gen -h     this help and the options (-hh, -hhh for more detail)

Arguments use controller-gen syntax: headerFile= and year= are shorthands for
statuspatch:headerFile=...,year=...; output:statuspatch:dir=DIR is the same as
output:dir=DIR.`

// outputRules are the genall output rules the command accepts, as in
// controller-gen.
var outputRules = map[string]genall.OutputRule{
	"dir":       genall.OutputToDirectory(""),
	"none":      genall.OutputToNothing,
	"stdout":    genall.OutputToStdout,
	"artifacts": genall.OutputArtifacts{},
}

// OptionsRegistry returns the registry of command-line options, built the
// way controller-gen builds its own: the generator marker, per-generator and
// default output rules, and paths.
func OptionsRegistry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	gen := Generator{}
	defn, err := markers.MakeDefinition(Name, markers.DescribesPackage, gen)
	if err != nil {
		return nil, fmt.Errorf("define %s option: %w", Name, err)
	}
	if err := reg.Register(defn); err != nil {
		return nil, fmt.Errorf("register %s option: %w", Name, err)
	}
	reg.AddHelp(defn, gen.Help())
	for ruleName, rule := range outputRules {
		for _, optName := range []string{"output:" + Name + ":" + ruleName, "output:" + ruleName} {
			def, err := markers.MakeDefinition(optName, markers.DescribesPackage, rule)
			if err != nil {
				return nil, fmt.Errorf("define %s option: %w", optName, err)
			}
			if err := reg.Register(def); err != nil {
				return nil, fmt.Errorf("register %s option: %w", optName, err)
			}
			if h, ok := rule.(genall.HasHelp); ok {
				reg.AddHelp(def, h.Help())
			}
		}
	}
	if err := genall.RegisterOptionsMarkers(reg); err != nil {
		return nil, fmt.Errorf("register paths option: %w", err)
	}
	return reg, nil
}

// normalizeArgs turns the command's shorthands into controller-gen options:
// headerFile=X and year=Y become statuspatch:headerFile=X,year=Y, and the
// statuspatch generator is added when no argument names it.
func normalizeArgs(args []string) []string {
	var out, genArgs []string
	named := false
	for _, a := range args {
		a = strings.TrimPrefix(a, "+")
		switch {
		case strings.HasPrefix(a, "headerFile=") || strings.HasPrefix(a, "year="):
			genArgs = append(genArgs, a)
		case a == Name || strings.HasPrefix(a, Name+":"):
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
				if a == Name {
					out[i] = Name + ":" + strings.Join(genArgs, ",")
				} else if strings.HasPrefix(a, Name+":") {
					out[i] = a + "," + strings.Join(genArgs, ",")
				}
			}
			return out
		}
		return append([]string{Name + ":" + strings.Join(genArgs, ",")}, out...)
	}
	if !named {
		out = append([]string{Name}, out...)
	}
	return out
}

// Run runs statuspatch-gen with the given arguments (without the program
// name). Help goes to stdout. Generation errors come back as one error whose
// lines are "file:line: message".
func Run(args []string, stdout io.Writer) error {
	helpLevel, whichLevel := 0, 0
	var opts []string
	for _, a := range args {
		switch {
		case a == "--help" || a == "-help":
			helpLevel = max(helpLevel, 1)
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "h") == "" && len(a) > 1:
			helpLevel = max(helpLevel, len(a)-1)
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "w") == "" && len(a) > 1:
			whichLevel = max(whichLevel, len(a)-1)
		case strings.HasPrefix(a, "-"):
			return fmt.Errorf("unknown flag %s\n%s", a, Usage)
		default:
			opts = append(opts, a)
		}
	}
	optsReg, err := OptionsRegistry()
	if err != nil {
		return err
	}
	opts = normalizeArgs(opts)
	switch {
	case helpLevel > 0:
		fmt.Fprintf(stdout, "%s\n\nOptions\n\n", Usage)
		return printHelp(stdout, max(helpLevel, 1), optsReg, help.SortByOption)
	case whichLevel > 0:
		reg, err := genall.RegistryFromOptions(optsReg, opts)
		if err != nil {
			return err
		}
		return printHelp(stdout, whichLevel, reg, help.SortByCategory)
	}

	start := time.Now()
	rt, err := genall.FromOptions(optsReg, opts)
	if err != nil {
		return fmt.Errorf("statuspatch-gen: %w", err)
	}
	loaded := time.Now()
	err = runGenerators(rt)
	if os.Getenv("STATUSPATCH_GEN_TIMING") != "" {
		// for hack/bench-gen.sh: where the time goes
		fmt.Fprintf(os.Stderr, "statuspatch-gen timing: load %v, generate %v\n",
			loaded.Sub(start).Round(time.Millisecond), time.Since(loaded).Round(time.Millisecond))
	}
	return err
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

const (
	summaryHelp = 1
	detailHelp  = 2
	fullHelp    = 3
	jsonHelp    = 4
)

// printHelp prints marker or option help like controller-gen's -w and -h.
func printHelp(out io.Writer, level int, reg *markers.Registry, sorter help.SortGroup) error {
	info := help.ByCategory(reg, sorter)
	if level >= jsonHelp {
		return json.NewEncoder(out).Encode(info)
	}
	for _, cat := range info {
		if cat.Category == "" && sorter == help.SortByCategory {
			continue
		}
		var contents prettyhelp.Span
		if level == summaryHelp {
			contents = prettyhelp.MarkersSummary(cat.Category, cat.Markers)
		} else {
			contents = prettyhelp.MarkersDetails(level == fullHelp, cat.Category, cat.Markers)
		}
		if err := contents.Write(out); err != nil {
			return err
		}
	}
	return nil
}
