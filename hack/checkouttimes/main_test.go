package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestTimeOf(t *testing.T) {
	a, err := timeOf("0123456789abcdef0123456789abcdef01234567")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := timeOf("0123456789abcdef0123456789abcdef01234567")
	b, _ := timeOf("0123456789abcdee0123456789abcdef01234567")
	if !a.Equal(again) {
		t.Errorf("one id, two times: %v, %v", a, again)
	}
	if a.Equal(b) {
		t.Errorf("ids differing in their 8th byte share a time: %v", a)
	}
	for _, tm := range []time.Time{a, b} {
		if tm.Before(base) || !tm.Before(base.Add(time.Duration(span))) || tm.After(time.Now().Add(-time.Hour)) {
			t.Errorf("time %v outside [%v, %v), or recent", tm, base, base.Add(time.Duration(span)))
		}
	}
	for _, bad := range []string{"", "0123", "zz23456789abcdef"} {
		if _, err := timeOf(bad); err == nil {
			t.Errorf("timeOf(%q): no error", bad)
		}
	}
}

func TestParse(t *testing.T) {
	files := "100644 aaaa0000aaaa0000aaaa0000aaaa0000aaaa0000 0\ta.go\x00" +
		"100755 bbbb0000bbbb0000bbbb0000bbbb0000bbbb0000 0\tbin/x.sh\x00" +
		"120000 cccc0000cccc0000cccc0000cccc0000cccc0000 0\tlink\x00" +
		"160000 dddd0000dddd0000dddd0000dddd0000dddd0000 0\tsub\x00" +
		"100644 eeee0000eeee0000eeee0000eeee0000eeee0000 0\twith space/f\tab\x00"
	trees := "100644 blob aaaa0000aaaa0000aaaa0000aaaa0000aaaa0000\ta.go\x00" +
		"040000 tree ffff0000ffff0000ffff0000ffff0000ffff0000\tbin\x00" +
		"160000 commit dddd0000dddd0000dddd0000dddd0000dddd0000\tsub\x00"
	got, err := parse([]byte(files), []byte(trees))
	if err != nil {
		t.Fatal(err)
	}
	want := []entry{
		{"a.go", "aaaa0000aaaa0000aaaa0000aaaa0000aaaa0000"},
		{"bin/x.sh", "bbbb0000bbbb0000bbbb0000bbbb0000bbbb0000"},
		{"with space/f\tab", "eeee0000eeee0000eeee0000eeee0000eeee0000"},
		{"bin", "ffff0000ffff0000ffff0000ffff0000ffff0000"},
	}
	if len(got) != len(want) {
		t.Fatalf("parse = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %q, want %q", i, got[i], want[i])
		}
	}
	if _, err := parse([]byte("garbage\x00"), nil); err == nil {
		t.Error("parse of a line without a tab: no error")
	}
}

// repo makes a git repository with a module whose test reads a file of
// its testdata, committed; it returns its folder.
func repo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "go.mod", "module example.com/ct\n\ngo 1.24\n")
	write(t, dir, "ct_test.go", `package ct

import (
	"os"
	"testing"
)

func TestReads(t *testing.T) {
	if _, err := os.ReadFile("testdata/in.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadDir("testdata"); err != nil {
		t.Fatal(err)
	}
}
`)
	write(t, dir, "testdata/in.txt", "one\n")
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "one")
	return dir
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func mtime(t *testing.T, p string) time.Time {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime()
}

// clone clones src into dst afresh (dst removed first).
func clone(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.RemoveAll(dst); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "clone", "-q", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("git clone: %v\n%s", err, out)
	}
}

func TestStampsFromContent(t *testing.T) {
	src := repo(t)
	var out, errw bytes.Buffer
	if code := run([]string{"-root", src}, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "take their times from their content") {
		t.Errorf("output %q", out.String())
	}
	for p, id := range map[string]string{
		"testdata/in.txt": gitIn(t, src, "rev-parse", "HEAD:testdata/in.txt"),
		"testdata":        gitIn(t, src, "rev-parse", "HEAD:testdata"),
		"":                gitIn(t, src, "rev-parse", "HEAD^{tree}"),
	} {
		want, err := timeOf(id)
		if err != nil {
			t.Fatal(err)
		}
		if got := mtime(t, filepath.Join(src, p)); !got.Equal(want) {
			t.Errorf("%q: time %v, want %v (from %s)", p, got, want, id)
		}
	}
	// Another clone, elsewhere: the same times.
	other := filepath.Join(t.TempDir(), "other")
	clone(t, src, other)
	if code := run([]string{"-root", other}, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	for _, p := range []string{"go.mod", "testdata/in.txt", "testdata"} {
		if a, b := mtime(t, filepath.Join(src, p)), mtime(t, filepath.Join(other, p)); !a.Equal(b) {
			t.Errorf("%s: %v in one clone, %v in the other", p, a, b)
		}
	}
}

func TestLeavesAnEditedCheckout(t *testing.T) {
	src := repo(t)
	write(t, src, "testdata/in.txt", "edited\n")
	before := mtime(t, filepath.Join(src, "testdata/in.txt"))
	var out, errw bytes.Buffer
	if code := run([]string{"-root", src}, &out, &errw); code != 0 {
		t.Fatalf("exit %d: %s", code, errw.String())
	}
	if !strings.Contains(out.String(), "has changes to tracked files") {
		t.Errorf("output %q: want the reason it changed nothing", out.String())
	}
	if after := mtime(t, filepath.Join(src, "testdata/in.txt")); !after.Equal(before) {
		t.Errorf("an edited checkout's file went from %v to %v", before, after)
	}
	// Outside a work tree: nothing to do, said.
	out.Reset()
	if code := run([]string{"-root", t.TempDir()}, &out, &errw); code != 0 || !strings.Contains(out.String(), "not in a git work tree") {
		t.Errorf("outside a work tree: exit %d, output %q", code, out.String())
	}
	if code := run([]string{"extra"}, &out, &errw); code != 2 {
		t.Errorf("an argument: exit %d, want 2", code)
	}
}

// TestGoTestCachedAcrossFreshClones is the point: a fresh clone at the
// same folder (CI's clean checkout) gets its test from go's test cache
// once stamped, and not without the stamp; a changed file runs it again.
func TestGoTestCachedAcrossFreshClones(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	src := repo(t)
	dst := filepath.Join(t.TempDir(), "checkout")
	goTest := func() string {
		c := exec.Command("go", "test", "-vet=off", "./...")
		c.Dir = dst
		c.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "GO111MODULE=on")
		out, err := c.CombinedOutput()
		if err != nil {
			t.Fatalf("go test: %v\n%s", err, out)
		}
		return string(out)
	}
	stampIn := func() {
		var out, errw bytes.Buffer
		if code := run([]string{"-root", dst}, &out, &errw); code != 0 {
			t.Fatalf("exit %d: %s", code, errw.String())
		}
	}
	// A first run fills the cache (-count=1 elsewhere cannot have: the
	// test's source is new).
	clone(t, src, dst)
	stampIn()
	if out := goTest(); strings.Contains(out, "(cached)") {
		t.Fatalf("the first run came from the cache: %s", out)
	}
	clone(t, src, dst)
	if out := goTest(); strings.Contains(out, "(cached)") {
		t.Errorf("a fresh clone, not stamped, came from the cache (its files' times are the clone's): %s", out)
	}
	clone(t, src, dst)
	stampIn()
	if out := goTest(); !strings.Contains(out, "(cached)") {
		t.Errorf("a fresh clone, stamped, ran again: %s", out)
	}
	// A changed testdata file, committed: runs again.
	write(t, src, "testdata/in.txt", "two\n")
	gitIn(t, src, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "two")
	clone(t, src, dst)
	stampIn()
	if out := goTest(); strings.Contains(out, "(cached)") {
		t.Errorf("a changed file it reads, and the result came from the cache: %s", out)
	}
}
