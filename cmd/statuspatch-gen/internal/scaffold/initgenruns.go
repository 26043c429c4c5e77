package scaffold

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A kind of one name in two groups (kubebuilder's multigroup sample: Bar
// in api/fiz/v1 and api/foo/v1) gets two <Kind>StatusPatcher types, which
// one output package cannot hold: statuspatch-gen refuses ("collides with
// the one for ...; generate the two packages into separate output
// dirs"), and make generate failed after init until the user split the
// run by hand. genRuns makes that split: the groups whose kinds collide
// with an earlier group's each get a run of their own, into
// <output>/<group>patchers; the others keep one run into the output.

// genRun is one statuspatch-gen run of generate-patchers.
type genRun struct{ paths, output string }

// genRuns are generate-patchers' runs for p, and a note saying why there
// is more than one ("" for one).
func (p *kbProject) genRuns(dir string) ([]genRun, string) {
	one := []genRun{{paths: p.layout.generatePaths(), output: "./" + p.layout.output}}
	moved := p.collidingGroups()
	if len(moved) == 0 || len(p.layout.apiDirs) != 1 {
		return one, ""
	}
	// the API folder's group folders, each its own path
	api := p.layout.apiDirs[0]
	entries, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(api)))
	if err != nil {
		return one, ""
	}
	var rest []string
	var runs []genRun
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		folder := path.Join(api, e.Name())
		if g, ok := moved[folder]; ok {
			runs = append(runs, genRun{paths: "./" + folder + "/...", output: "./" + path.Join(p.layout.output, g)})
			continue
		}
		rest = append(rest, "./"+folder+"/...")
	}
	if len(runs) == 0 {
		return one, ""
	}
	main := genRun{output: "./" + p.layout.output}
	switch len(rest) {
	case 0:
		return runs, ""
	case 1:
		main.paths = rest[0]
	default:
		main.paths = "{" + strings.Join(rest, ",") + "}"
	}
	var outs []string
	for _, r := range runs {
		outs = append(outs, strings.TrimPrefix(r.output, "./")+" ("+strings.TrimSuffix(strings.TrimPrefix(r.paths, "./"), "/...")+")")
	}
	return append([]genRun{main}, runs...), fmt.Sprintf("statuspatch-gen init: Makefile: generate-patchers generates into %s too, as those groups declare kinds of the same name as another group's (one package cannot hold two <Kind>StatusPatcher types of one name)", strings.Join(outs, ", "))
}

// collidingGroups maps the API group folder (api/foo) of each group that
// declares a kind an earlier group in PROJECT declares too to the name
// of its own output package (foopatchers).
func (p *kbProject) collidingGroups() map[string]string {
	first := map[string]string{} // kind → the group folder that keeps it
	out := map[string]string{}
	for _, r := range p.Resources {
		rel, ok := strings.CutPrefix(r.Path, strings.TrimSuffix(p.Repo, "/")+"/")
		if r.API == nil || r.External || r.Core || r.Kind == "" || !ok || p.Repo == "" {
			continue
		}
		folder := path.Dir(rel) // api/foo, of api/foo/v1
		if path.Dir(folder) == "." {
			continue // api/v1: no group folder
		}
		if f, ok := first[r.Kind]; !ok {
			first[r.Kind] = folder
		} else if f != folder {
			out[folder] = packageName(path.Base(folder)) + "patchers"
		}
	}
	// (a group moved out takes all its kinds: each output package then
	// holds one kind of a name, whichever groups declare it)
	return out
}

// packageName is s with letters and digits only, lowered (foo.policy:
// foopolicy, sea-creatures: seacreatures).
func packageName(s string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}
