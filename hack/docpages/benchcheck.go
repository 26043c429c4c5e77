package docpages

import (
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// goValueFlags are the go test and go build flags that take a value.
var goValueFlags = map[string]bool{"o": true, "run": true, "bench": true, "benchtime": true, "count": true,
	"timeout": true, "cpu": true, "ldflags": true, "tags": true, "trace": true, "cpuprofile": true, "memprofile": true,
	"modfile": true, "vet": true, "skip": true, "p": true}

// flagWords splits words into flags (name without dashes -> value, "" for
// a bool) and the other arguments, with valued (by name) taking the next
// word when not given with = and the next is not a flag (-test.benchmem
// -test.bench X: the pattern is -test.bench's, not benchmem's value).
func flagWords(words []string, valued func(name string) bool) (flags map[string]string, args []string) {
	flags = map[string]string{}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !strings.HasPrefix(w, "-") || w == "-" {
			args = append(args, w)
			continue
		}
		name, value, eq := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if !eq && valued(name) && i+1 < len(words) && !strings.HasPrefix(words[i+1], "-") {
			i++
			value = words[i]
		}
		flags[name] = value
	}
	return flags, args
}

// goCommand checks go test or go build run in s.dir with args: its
// package, and go test's -run and -bench patterns; go test -c -o and go
// build -o record what they build.
func (s *shell) goCommand(l docLine, verb string, words, env []string) {
	flags, pkgs := flagWords(words, func(n string) bool { return goValueFlags[n] })
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	for _, p := range pkgs {
		dir := path.Join(s.dir, p)
		if !s.isDir(dir) || len(s.goFiles(dir, false))+len(s.goFiles(dir, true)) == 0 {
			s.problem(l, "go %s %s: no Go package in %s", verb, p, dir)
			return
		}
		s.checkEnv(l, dir, env)
		if verb == "test" {
			s.checkPatterns(l, dir, flags["run"], flags["bench"])
		}
		if out, ok := flags["o"]; ok && (verb == "build" || hasFlag(flags, "c")) {
			s.built[path.Join(s.dir, out)] = dir
		}
	}
}

func hasFlag(flags map[string]string, name string) bool { _, ok := flags[name]; return ok }

// runBinary checks a run of bin, which a line above must have built: a
// test binary's -test.run and -test.bench patterns and flags, another's
// flags (defined in its package) and their word values (a string of it).
func (s *shell) runBinary(l docLine, bin string, words, env []string) {
	at := path.Join(s.dir, bin)
	pkg, ok := s.built[at]
	if !ok {
		s.problem(l, "runs %s (%s), which no line above builds", bin, at)
		return
	}
	s.checkEnv(l, pkg, env)
	if strings.HasSuffix(at, ".test") {
		flags, _ := flagWords(words, func(n string) bool { return n != "test.v" && n != "test.short" })
		for name := range flags {
			if !strings.HasPrefix(name, "test.") {
				s.problem(l, "-%s: a test binary's flags are -test.*", name)
			}
		}
		s.checkPatterns(l, pkg, flags["test.run"], flags["test.bench"])
		return
	}
	src := strings.Join(s.goFiles(pkg, false), "\n")
	flags, _ := flagWords(words, func(string) bool { return true })
	for name, value := range flags {
		if !regexp.MustCompile(`\.\w+\((?:&?\w+,\s*)?"` + regexp.QuoteMeta(name) + `"`).MatchString(src) {
			s.problem(l, "-%s: %s defines no such flag", name, pkg)
		}
		if regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(value) && !strings.Contains(src, `"`+value+`"`) {
			s.problem(l, "-%s %s: %s has no %q", name, value, pkg, value)
		}
	}
}

// checkEnv: each STATUSPATCH_ variable a command sets is named in dir's
// Go files; one whose value is a path names a binary a line above built.
func (s *shell) checkEnv(l docLine, dir string, env []string) {
	all := strings.Join(append(s.goFiles(dir, false), s.goFiles(dir, true)...), "\n")
	for _, e := range env {
		name, value, _ := strings.Cut(e, "=")
		if !strings.HasPrefix(name, "STATUSPATCH_") {
			continue
		}
		if !strings.Contains(all, `"`+name+`"`) {
			s.problem(l, "%s: nothing in %s reads it", name, dir)
		}
		if strings.Contains(value, "/") && !strings.Contains(value, "$") {
			if _, ok := s.built[path.Join(s.dir, value)]; !ok {
				s.problem(l, "%s=%s: no line above builds it", name, value)
			}
		}
	}
}

// checkPatterns checks a -run and a -bench pattern against dir's tests:
// each level (split at /) a regular expression, each of its alternatives
// (a|b, or (a|b) with anchors) matching a name: at the first level a Test
// or Benchmark function's, below a string in the test files (a
// sub-benchmark's name). "^$" runs nothing and is not checked.
func (s *shell) checkPatterns(l docLine, dir, run, bench string) {
	src := strings.Join(s.goFiles(dir, true), "\n")
	var literals []string
	for _, m := range regexp.MustCompile(`"([^"\\\n]*)"`).FindAllStringSubmatch(src, -1) {
		literals = append(literals, m[1])
	}
	for _, c := range []struct{ flag, pattern, prefix string }{{"run", run, "Test"}, {"bench", bench, "Benchmark"}} {
		if c.pattern == "" || c.pattern == "^$" {
			continue
		}
		var funcs []string
		for _, m := range regexp.MustCompile(`(?m)^func `+c.prefix+`(\w*)\(`).FindAllStringSubmatch(src, -1) {
			funcs = append(funcs, m[1])
		}
		for i, level := range strings.Split(c.pattern, "/") {
			names := literals
			if i == 0 {
				// go test matches the whole name, BenchmarkX as TestX:
				// -bench '^X$' runs nothing.
				names = prefixed(funcs, c.prefix)
			}
			for _, alt := range alternatives(level) {
				re, err := regexp.Compile(alt)
				if err != nil {
					s.problem(l, "-%s %s: %v", c.flag, c.pattern, err)
					continue
				}
				if !matchesAny(re, names) {
					s.problem(l, "-%s %s: %s matches no %s in %s", c.flag, c.pattern, alt, kind(i, c.prefix), dir)
				}
			}
		}
	}
}

func kind(level int, prefix string) string {
	if level == 0 {
		return prefix + " function"
	}
	return "sub-test or sub-benchmark name"
}

func prefixed(names []string, prefix string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}

func matchesAny(re *regexp.Regexp, names []string) bool {
	for _, n := range names {
		if re.MatchString(n) {
			return true
		}
	}
	return false
}

// alternatives splits a level of a pattern at its |, inside one group
// with its anchors kept ("(a|b)$": "(a)$", "(b)$").
func alternatives(level string) []string {
	if m := regexp.MustCompile(`^(\^?)\(([^()]*)\)(\$?)$`).FindStringSubmatch(level); m != nil {
		var out []string
		for _, a := range strings.Split(m[2], "|") {
			out = append(out, m[1]+"("+a+")"+m[3])
		}
		return out
	}
	if strings.ContainsAny(level, "()") {
		return []string{level}
	}
	return strings.Split(level, "|")
}

func (s *shell) isDir(dir string) bool {
	fi, err := fs.Stat(s.root, dir)
	return err == nil && fi.IsDir()
}

// goFiles are the contents of dir's test files (tests) or its other Go
// files.
func (s *shell) goFiles(dir string, tests bool) []string {
	entries, _ := fs.ReadDir(s.root, dir)
	var out []string
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") != tests {
			continue
		}
		if b, err := fs.ReadFile(s.root, path.Join(dir, n)); err == nil {
			out = append(out, string(b))
		}
	}
	return out
}
