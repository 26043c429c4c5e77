package scaffold

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// statuspatch-gen as a kubebuilder v4 external plugin (docs/kubebuilder.md,
// "As a kubebuilder plugin"). kubebuilder finds the executable at
// $EXTERNAL_PLUGINS_PATH, $XDG_CONFIG_HOME/kubebuilder/plugins or
// ~/.config/kubebuilder/plugins, as <name>/<version>/<name>, runs it without
// arguments in the project directory, writes one PluginRequest as JSON on
// its stdin and reads one PluginResponse from its stdout
// (kubebuilder pkg/cli/options.go DiscoverExternalPlugins,
// pkg/plugins/external/helpers.go makePluginRequest).
// PluginName is the plugin's key and the executable name kubebuilder runs
// it under (a DNS-1123 subdomain, as kubebuilder's plugin.ValidateKey
// wants).
const PluginName = "statuspatch.statuspatch.dev"

const (
	kbPluginVersion = "v1-alpha"
	kbAPIVersion    = "v1alpha1" // pkg/plugins/external/api.go defaultAPIVersion
)

// The JSON kubebuilder and its external plugins exchange. kubebuilder's
// module is not on the module proxy's path this module can take, so these
// mirror, field for field and tag for tag, kubebuilder's
// pkg/plugin/external/types.go (PluginRequest, PluginResponse, Flag) and
// pkg/plugin/metadata.go (SubcommandMetadata, whose fields have no JSON
// tags) at kubernetes-sigs/kubebuilder commit
// 5c400728930120dd385712db61cb0a937238ce81. testdata/kbplugin/*.json is
// what kubebuilder's own types marshal to at that commit.

// kbRequest is kubebuilder's external.PluginRequest.
type kbRequest struct {
	APIVersion  string            `json:"apiVersion"`
	Args        []string          `json:"args"`
	Command     string            `json:"command"`
	Universe    map[string]string `json:"universe"`
	PluginChain []string          `json:"pluginChain,omitempty"`
	Config      map[string]any    `json:"config,omitempty"`
}

// kbResponse is kubebuilder's external.PluginResponse.
type kbResponse struct {
	APIVersion string            `json:"apiVersion"`
	Command    string            `json:"command"`
	Metadata   kbMetadata        `json:"metadata"`
	Universe   map[string]string `json:"universe"`
	Error      bool              `json:"error,omitempty"`
	ErrorMsgs  []string          `json:"errorMsgs,omitempty"`
	Flags      []kbFlag          `json:"flags,omitempty"`
}

// kbMetadata is kubebuilder's plugin.SubcommandMetadata.
type kbMetadata struct {
	Description string
	Examples    string
}

// kbFlag is kubebuilder's external.Flag.
type kbFlag struct {
	Name    string
	Type    string
	Default string
	Usage   string
}

// kbFlags are init's flags as kubebuilder binds them for init and edit.
// kubebuilder drops a plugin flag named version (it is create api's), so
// init's -version is --statuspatch-version here.
var kbFlags = []kbFlag{
	{Name: "statuspatch-version", Type: "string", Usage: "the statuspatch version the Makefile and go.mod pin (default: this binary's module version)"},
	{Name: "dry-run", Type: "bool", Default: "false", Usage: "print the changes as a unified diff on stderr and write nothing"},
	{Name: "tidy", Type: "bool", Default: "true", Usage: "run go get for missing statuspatch modules and go mod tidy after writing"},
}

const kbDescription = `Adopts statuspatch in this kubebuilder v4 project, as statuspatch-gen init
does: the Makefile's statuspatch block (generate-patchers before generate and
manifests), testenv-assets in place of setup-envtest, the golangci-lint
plugin when .golangci.yml is a v2 configuration (else lint-status in make
lint), a starter test on testenv for the first kind's reconciler,
patcher.ForManager in each reconciler's SetupWithManager,
kubebuilder's controller suite on testenv and no envtest binaries in make
test (without webhooks), then go get and go mod tidy. A second run changes nothing. See statuspatch's
docs/kubebuilder.md.`

const kbExamples = `  kubebuilder edit --plugins=` + PluginName + `/` + kbPluginVersion + `
  kubebuilder edit --plugins=` + PluginName + `/` + kbPluginVersion + ` --statuspatch-version v0.3.0 --dry-run`

// IsKBPluginName reports whether the program runs under the plugin's
// executable name, as kubebuilder runs it (a copy or a symbolic link).
func IsKBPluginName(arg0 string) bool {
	return filepath.Base(arg0) == PluginName
}

// RunKBPlugin answers one kubebuilder request read from stdin with one
// response on stdout, and runs init in dir (kubebuilder's working directory,
// the project's). Whatever goes wrong is in the response's error and
// errorMsgs, with exit status 0: kubebuilder reads the response only from
// a plugin that exits 0 (exec.Cmd.Output), and otherwise shows only "exit
// status 1". RunKBPlugin's own error is for a response it cannot write.
func RunKBPlugin(dir string, stdin io.Reader, stdout, stderr io.Writer) error {
	res := kbAnswer(dir, stdin, stderr)
	b, err := json.Marshal(res)
	if err != nil {
		return fmt.Errorf("statuspatch-gen kubebuilder plugin: %w", err)
	}
	if _, err := stdout.Write(b); err != nil {
		return fmt.Errorf("statuspatch-gen kubebuilder plugin: writing the response: %w", err)
	}
	return nil
}

// kbAnswer is the response to the request on stdin.
func kbAnswer(dir string, stdin io.Reader, stderr io.Writer) kbResponse {
	in, err := io.ReadAll(stdin)
	if err != nil {
		return kbError(kbResponse{}, fmt.Errorf("reading the request: %w", err))
	}
	var req kbRequest
	if err := json.Unmarshal(in, &req); err != nil {
		return kbError(kbResponse{}, fmt.Errorf("not a kubebuilder plugin request: %w", err))
	}
	res := kbResponse{APIVersion: kbAPIVersion, Command: req.Command, Universe: map[string]string{}}
	switch req.Command {
	case "flags", "metadata":
		sub := ""
		for _, a := range req.Args {
			if a == "--init" || a == "--edit" {
				sub = a[2:]
			}
		}
		if sub == "" {
			return kbError(res, fmt.Errorf("%s for %q: statuspatch runs on init and edit only", req.Command, req.Args))
		}
		if req.Command == "flags" {
			res.Flags = kbFlags
		} else {
			res.Metadata = kbMetadata{Description: kbDescription, Examples: kbExamples}
		}
		return res
	case "init", "edit":
		if _, err := os.Stat(filepath.Join(dir, "PROJECT")); req.Command == "init" && errors.Is(err, os.ErrNotExist) {
			// kubebuilder init writes PROJECT once every plugin of the
			// chain has scaffolded: go/v4's Makefile is there, PROJECT is not
			return kbError(res, fmt.Errorf("statuspatch edits a kubebuilder v4 project, and kubebuilder init writes PROJECT only after its plugins have run: run kubebuilder init without %s, then kubebuilder edit --plugins=%s/%s", PluginName, PluginName, kbPluginVersion))
		}
		universe, err := kbInit(dir, req.Args, stderr)
		if err != nil {
			return kbError(res, err)
		}
		res.Universe = universe
		return res
	default:
		return kbError(res, fmt.Errorf("statuspatch runs on kubebuilder init and edit, not %q", req.Command))
	}
}

func kbError(res kbResponse, err error) kbResponse {
	res.APIVersion = kbAPIVersion
	res.Error = true
	res.ErrorMsgs = append(res.ErrorMsgs, err.Error())
	return res
}

// kbInit runs init in dir with the request's arguments and returns the
// files it changed, at their new content, as the response's universe.
// kubebuilder writes the universe to disk and cannot remove a file, while
// go get and go mod tidy read the module from disk: so init writes its
// edits itself (each through a temporary file renamed over the target),
// removes .custom-gcl.yml when it must, tidies, and answers with the
// contents it wrote, which kubebuilder then writes again, unchanged.
// init's report goes to stderr, which kubebuilder shows; stdout is the
// response's.
func kbInit(dir string, args []string, stderr io.Writer) (map[string]string, error) {
	opts, err := parseKBArgs(args)
	if err != nil {
		return nil, err
	}
	opts.dir = dir
	opts.versionFlag = "--statuspatch-version"
	modFiles := []string{"go.mod", "go.sum"}
	before := map[string]string{}
	for _, f := range modFiles {
		if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil {
			before[f] = string(b)
		}
	}
	edits, err := doInit(opts, stderr, stderr)
	if err != nil {
		return nil, err
	}
	universe := map[string]string{}
	if opts.dryRun {
		return universe, nil
	}
	for _, e := range edits {
		if !e.del {
			universe[e.path] = e.new
		}
	}
	for _, f := range modFiles {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err == nil && string(b) != before[f] {
			universe[f] = string(b)
		} else if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("statuspatch-gen init: %w", err)
		}
	}
	return universe, nil
}

// parseKBArgs reads init's options from the arguments kubebuilder passes
// on: every --flag of its command line and the value after it
// (pkg/cli/options.go parseExternalPluginArgs). Flags of other plugins in
// the chain are skipped, with their values.
func parseKBArgs(args []string) (initOptions, error) {
	opts := initOptions{tidy: true, layout: layoutFlags{project: true}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return opts, fmt.Errorf("statuspatch-gen init: unexpected argument %q", a)
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		next := func() (string, bool) {
			if hasVal {
				return val, true
			}
			if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				i++
				return args[i], true
			}
			return "", false
		}
		switch name {
		case "statuspatch-version":
			v, ok := next()
			if !ok {
				return opts, fmt.Errorf("statuspatch-gen init: --statuspatch-version needs a value")
			}
			opts.version = v
		case "dry-run", "tidy":
			b := true
			if hasVal {
				var err error
				if b, err = strconv.ParseBool(val); err != nil {
					return opts, fmt.Errorf("statuspatch-gen init: --%s: %w", name, err)
				}
			}
			if name == "dry-run" {
				opts.dryRun = b
			} else {
				opts.tidy = b
			}
		default:
			next() // another plugin's flag and its value
		}
	}
	return opts, nil
}
