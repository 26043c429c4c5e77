package scaffold

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestKBPluginJSON: the request and response types marshal as kubebuilder's
// own do. testdata/kbplugin/*.json is what kubebuilder's
// external.PluginRequest and external.PluginResponse marshal to (with
// json.MarshalIndent, at the commit kbplugin.go names), filled in and zero:
// each decodes into this package's types and encodes back byte for byte.
func TestKBPluginJSON(t *testing.T) {
	for _, c := range []struct {
		file string
		v    any
	}{
		{"request.json", &kbRequest{}},
		{"request-zero.json", &kbRequest{}},
		{"response.json", &kbResponse{}},
		{"response-zero.json", &kbResponse{}},
	} {
		t.Run(c.file, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", "kbplugin", c.file))
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(bytes.NewReader(want))
			dec.DisallowUnknownFields() // every field kubebuilder writes is declared here
			if err := dec.Decode(c.v); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(c.file, "zero") && !reflect.ValueOf(c.v).Elem().IsZero() {
				t.Errorf("%s decodes to %+v, not the zero value", c.file, c.v)
			}
			got, err := json.MarshalIndent(c.v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if string(got)+"\n" != string(want) {
				t.Errorf("round trip of %s:\n%s", c.file, unifiedDiff(c.file, string(want), string(got)+"\n", false))
			}
		})
	}
}

// kbRun sends req to the plugin in dir as kubebuilder does (the universe is
// every file of the project) and returns the response and the plugin's
// stderr.
func kbRun(t *testing.T, dir string, req kbRequest) (kbResponse, string) {
	t.Helper()
	if req.Universe == nil {
		req.Universe = readTree(t, dir)
	}
	in, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := RunKBPlugin(dir, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	var res kbResponse
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("response %q: %v", out.String(), err)
	}
	return res, errOut.String()
}

// kbWrite writes a response's universe into dir, as kubebuilder's
// handlePluginResponse does.
func kbWrite(t *testing.T, dir string, res kbResponse) {
	t.Helper()
	for name, content := range res.Universe {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
}

var kbArgs = []string{"--statuspatch-version", "v0.1.0", "--tidy=false"}

// TestKBPluginEditIsInit: kubebuilder edit (and init, in a project whose
// PROJECT exists) with the plugin on testdata/init/v4.15/before makes
// init's tree, after/; the
// response's universe is the files init wrote (kubebuilder writes them
// again, unchanged) and .custom-gcl.yml is removed; --dry-run prints init's
// dry-run.diff on stderr and changes nothing; a second run answers an empty
// universe.
func TestKBPluginEditIsInit(t *testing.T) {
	golden := filepath.Join("testdata", "init", "v4.15")
	wantAfter := readTree(t, filepath.Join(golden, "after"))
	for _, command := range []string{"edit", "init"} {
		t.Run(command, func(t *testing.T) {
			dir := t.TempDir()
			copyTree(t, filepath.Join(golden, "before"), dir, nil)
			before := readTree(t, dir)

			res, stderr := kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: command,
				Args: append(slices.Clone(kbArgs), "--dry-run", "--other-plugins-flag", "x")})
			if res.Error || len(res.Universe) != 0 {
				t.Fatalf("--dry-run: %+v", res)
			}
			compareText(t, filepath.Join(golden, "dry-run.diff"), stderr)
			compareTrees(t, "after --dry-run", readTree(t, dir), before)

			res, stderr = kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: command, Args: kbArgs})
			if res.Error || res.APIVersion != kbAPIVersion || res.Command != command {
				t.Fatalf("%+v\n%s", res, stderr)
			}
			var changed []string
			for name, content := range res.Universe {
				changed = append(changed, name)
				if content != wantAfter[name] {
					t.Errorf("universe[%s] is not after/%s", name, name)
				}
			}
			slices.Sort(changed)
			if want := []string{".golangci.yml", "Makefile", "internal/controller/captain_controller.go", "internal/controller/captain_testenv_test.go"}; !slices.Equal(changed, want) {
				t.Errorf("universe has %q, want %q", changed, want)
			}
			kbWrite(t, dir, res)
			compareTrees(t, "after "+command, readTree(t, dir), wantAfter)

			res, stderr = kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: command, Args: kbArgs})
			if res.Error || len(res.Universe) != 0 || !strings.Contains(stderr, "nothing to change") {
				t.Errorf("second run: %+v\n%s", res, stderr)
			}
			compareTrees(t, "after a second "+command, readTree(t, dir), wantAfter)
		})
	}
}

// TestKBPluginFlagsAndMetadata: flags and metadata for init and edit.
func TestKBPluginFlagsAndMetadata(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{"--init", "--edit"} {
		res, _ := kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: "flags", Args: []string{sub}})
		var names []string
		for _, f := range res.Flags {
			names = append(names, f.Name+":"+f.Type+"="+f.Default)
		}
		if res.Error || !slices.Equal(names, []string{"statuspatch-version:string=", "dry-run:bool=false", "tidy:bool=true"}) {
			t.Errorf("flags %s: %+v", sub, res)
		}
		res, _ = kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: "metadata", Args: []string{sub}})
		if res.Error || !strings.Contains(res.Metadata.Description, "statuspatch-gen init") ||
			!strings.Contains(res.Metadata.Examples, "--plugins="+PluginName+"/"+kbPluginVersion) {
			t.Errorf("metadata %s: %+v", sub, res)
		}
	}
}

// TestKBPluginErrors: a request the plugin cannot serve is answered with
// error and errorMsgs (kubebuilder shows errorMsgs), and nothing is written.
func TestKBPluginErrors(t *testing.T) {
	kb := filepath.Join("testdata", "init", "v4.15", "before")
	cases := []struct {
		name  string
		in    string // the request on stdin
		files bool   // the project is testdata/init/v4.15/before, else empty
		want  string
	}{
		{"malformed JSON", `{"command": "edit"`, true, "not a kubebuilder plugin request: unexpected end of JSON input"},
		{"unknown command", `{"apiVersion":"v1alpha1","command":"create api","args":["--group","web"],"universe":{}}`, true, `not "create api"`},
		{"flags of create webhook", `{"apiVersion":"v1alpha1","command":"flags","args":["--create webhook"],"universe":{}}`, true, "init and edit only"},
		{"not a kubebuilder project", `{"apiVersion":"v1alpha1","command":"edit","args":["--statuspatch-version","v0.1.0","--tidy=false"],"universe":{}}`, false,
			"PROJECT: no such file: kubebuilder's plugin runs in a kubebuilder project"},
		{"no version", `{"apiVersion":"v1alpha1","command":"edit","args":["--tidy=false"],"universe":{}}`, true, "--statuspatch-version vX.Y.Z"},
		{"init before PROJECT", `{"apiVersion":"v1alpha1","command":"init","args":["--domain","example.com","--statuspatch-version","v0.1.0","--tidy=false"],"universe":{}}`, true,
			"kubebuilder init writes PROJECT only after its plugins have run: run kubebuilder init without statuspatch.statuspatch.dev, then kubebuilder edit --plugins=statuspatch.statuspatch.dev/v1-alpha"},
		{"bad bool", `{"apiVersion":"v1alpha1","command":"edit","args":["--statuspatch-version","v0.1.0","--tidy=maybe"],"universe":{}}`, true, "--tidy"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.files {
				copyTree(t, kb, dir, nil)
			}
			if c.name == "init before PROJECT" {
				// kubebuilder init --plugins=go/v4,statuspatch...: go/v4's
				// files are written, PROJECT is not yet
				if err := os.Remove(filepath.Join(dir, "PROJECT")); err != nil {
					t.Fatal(err)
				}
			}
			before := readTree(t, dir)
			var out, errOut bytes.Buffer
			if err := RunKBPlugin(dir, strings.NewReader(c.in), &out, &errOut); err != nil {
				t.Fatal(err)
			}
			var res kbResponse
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("response %q: %v", out.String(), err)
			}
			if !res.Error || len(res.ErrorMsgs) != 1 || !strings.Contains(res.ErrorMsgs[0], c.want) || len(res.Universe) != 0 {
				t.Errorf("response %s, want an error with %q", out.String(), c.want)
			}
			compareTrees(t, "after the error", readTree(t, dir), before)
		})
	}
}

// TestParseKBArgs: init's options from kubebuilder's arguments, other
// plugins' flags skipped with their values.
func TestParseKBArgs(t *testing.T) {
	got, err := parseKBArgs([]string{"--domain", "example.com", "--statuspatch-version", "v0.2.0", "--dry-run", "--tidy=false", "--multigroup"})
	want := initOptions{version: "v0.2.0", dryRun: true, tidy: false, layout: layoutFlags{project: true}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
	if got, err := parseKBArgs(nil); err != nil || !reflect.DeepEqual(got, initOptions{tidy: true, layout: layoutFlags{project: true}}) {
		t.Errorf("no arguments: %+v, %v", got, err)
	}
	for _, bad := range [][]string{{"--statuspatch-version"}, {"stray"}, {"--dry-run=yes please"}} {
		if _, err := parseKBArgs(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestKBPluginTidyInUniverse: with --tidy (the default), go.mod and go.sum
// as go get and go mod tidy leave them are in the universe too, since
// kubebuilder writes the universe after the plugin has run. The go command
// here is a stand-in that appends its arguments to go.mod.
func TestKBPluginTidyInUniverse(t *testing.T) {
	bin := t.TempDir()
	writeFile(t, filepath.Join(bin, "go"), "#!/bin/sh\necho \"// go $*\" >> go.mod\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	copyTree(t, filepath.Join("testdata", "init", "v4.15", "before"), dir, nil)
	writeFile(t, filepath.Join(dir, "go.mod"), "module example.com/op\n")
	writeFile(t, filepath.Join(dir, "go.sum"), "")
	res, stderr := kbRun(t, dir, kbRequest{APIVersion: kbAPIVersion, Command: "edit", Args: []string{"--statuspatch-version", "v0.1.0"}})
	if res.Error {
		t.Fatalf("%+v\n%s", res, stderr)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gomod), "// go mod tidy\n") || res.Universe["go.mod"] != string(gomod) {
		t.Errorf("universe[go.mod] = %q, go.mod on disk %q", res.Universe["go.mod"], gomod)
	}
	if _, ok := res.Universe["go.sum"]; ok {
		t.Errorf("go.sum is in the universe, and go did not write it")
	}
}
