package installroute

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"golang.org/x/mod/modfile"
)

// pins is what adopting statuspatch may not change in the operator's
// go.mod: every requirement's version (new requirements may appear), the
// go and toolchain lines, and the replace directives.
type pins struct {
	req      map[string]string // path -> version
	goLines  []string          // the go line, then the toolchain line if any
	replaces []string          // "old [v] => new [v]", sorted
}

// readPins reads the pins of the go.mod at path.
func readPins(path string) (pins, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return pins{}, err
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return pins{}, err
	}
	p := pins{req: map[string]string{}}
	for _, r := range f.Require {
		p.req[r.Mod.Path] = r.Mod.Version
	}
	if f.Go != nil {
		p.goLines = append(p.goLines, "go "+f.Go.Version)
	}
	if f.Toolchain != nil {
		p.goLines = append(p.goLines, "toolchain "+f.Toolchain.Name)
	}
	for _, r := range f.Replace {
		p.replaces = append(p.replaces, strings.TrimSpace(fmt.Sprintf("%s %s => %s %s", r.Old.Path, r.Old.Version, r.New.Path, r.New.Version)))
	}
	slices.Sort(p.replaces)
	return p, nil
}

// moved says what changed from before to now, one line each: a
// requirement of before gone or at another version, the go/toolchain lines
// or the replace directives changed. None: nothing moved.
func moved(before, now pins) []string {
	var out []string
	paths := make([]string, 0, len(before.req))
	for p := range before.req {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		if v := now.req[p]; v != before.req[p] {
			if v == "" {
				v = "(nothing)"
			}
			out = append(out, fmt.Sprintf("go.mod requires %s %s, it required %s before", p, v, before.req[p]))
		}
	}
	if !slices.Equal(before.goLines, now.goLines) {
		out = append(out, fmt.Sprintf("go.mod's go/toolchain lines changed: %q, they were %q", now.goLines, before.goLines))
	}
	if !slices.Equal(before.replaces, now.replaces) {
		out = append(out, fmt.Sprintf("go.mod's replace directives changed: %q, they were %q", now.replaces, before.replaces))
	}
	return out
}

// summary is check_pins' line for a step after which nothing moved.
func (p pins) summary(now pins, step string) string {
	return fmt.Sprintf("ok: after %s: %d requirements, %d replace directives and '%s' unchanged; %d requirements added",
		step, len(p.req), len(p.replaces), strings.Join(p.goLines, " "), len(now.req)-len(p.req))
}
