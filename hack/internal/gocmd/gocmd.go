// Package gocmd is the go command as hack/'s routes run it: a command as
// data (Cmd: its folder, the line's toolchain, an alternate go.mod, its
// words), which a route plans and its tests read before anything runs, and
// Runner, which runs it over the caller's environment. Go is what a route
// needs of a runner; Fake answers for it in tests.
package gocmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// A Cmd is one go command.
type Cmd struct {
	Dir       string   // where it runs, relative to the runner's root ("." for it) or absolute
	Toolchain string   // GOTOOLCHAIN for it (a line's Go); "" leaves the caller's
	Workspace bool     // in the workspace: GOWORK as the caller has it; otherwise GOWORK=off
	Verb      []string // the go command's words and the flags before -modfile: "mod", "tidy", "-e"
	Modfile   string   // the alternate go.mod, relative to the root as Dir is; "" for none
	Args      []string // after -modfile
}

// Rel is path relative to dir, both relative to the same folder (or both
// absolute): what -modfile= takes in dir. realpath --relative-to=dir path
// gives the same for clean paths without symbolic links.
func Rel(dir, path string) (string, error) {
	rel, err := filepath.Rel(dir, path)
	if err != nil {
		return "", fmt.Errorf("%s relative to %s: %w", path, dir, err)
	}
	return filepath.ToSlash(rel), nil
}

// Argv is the go command's arguments: Verb, -modfile= relative to Dir,
// Args.
func (c Cmd) Argv() ([]string, error) {
	argv := append([]string(nil), c.Verb...)
	if c.Modfile != "" {
		rel, err := Rel(c.Dir, c.Modfile)
		if err != nil {
			return nil, err
		}
		argv = append(argv, "-modfile="+rel)
	}
	return append(argv, c.Args...), nil
}

// Env is what the command sets over the caller's environment.
func (c Cmd) Env() []string {
	var env []string
	if !c.Workspace {
		env = append(env, "GOWORK=off")
	}
	if c.Toolchain != "" {
		env = append(env, "GOTOOLCHAIN="+c.Toolchain)
	}
	return env
}

// Echo is the line a route prints before it runs the command:
// "+ (cd DIR && GOTOOLCHAIN=T go ARGS)" (GOWORK=off not shown).
func (c Cmd) Echo() (string, error) {
	argv, err := c.Argv()
	if err != nil {
		return "", err
	}
	tc := ""
	if c.Toolchain != "" {
		tc = "GOTOOLCHAIN=" + c.Toolchain + " "
	}
	return fmt.Sprintf("+ (cd %s && %sgo %s)", c.Dir, tc, strings.Join(argv, " ")), nil
}

// String is the command in full, for errors and tests:
// "(cd DIR && GOWORK=off GOTOOLCHAIN=T go ARGS)".
func (c Cmd) String() string {
	argv, err := c.Argv()
	if err != nil {
		argv = append(append(append([]string(nil), c.Verb...), "-modfile=?"+c.Modfile), c.Args...)
	}
	words := append(c.Env(), "go")
	return fmt.Sprintf("(cd %s && %s)", c.Dir, strings.Join(append(words, argv...), " "))
}

// Go runs go commands: Runner, or Fake in tests.
type Go interface {
	// Run runs the command, its output the route's.
	Run(Cmd) error
	// Output runs the command and returns its standard output; its
	// standard error is the route's.
	Output(Cmd) (string, error)
	// Combined runs the command and returns its standard output and error
	// together.
	Combined(Cmd) (string, error)
}

// A Runner runs go commands from Root with the caller's environment and
// each Cmd's Env over it, standard input empty. An error is the command's
// and how it failed (errors.As an *exec.ExitError: its exit status).
type Runner struct {
	Root    string    // the folder Cmd.Dir is relative to
	Go      string    // the go command run; "": go, from this process's PATH
	Environ []string  // the environment Env is set over; nil: the caller's
	Env     []string  // KEY=VALUE set over Environ, before each Cmd's Env
	Stdout  io.Writer // the route's output; nil: os.Stdout
	Stderr  io.Writer // nil: os.Stderr
}

func (r Runner) command(c Cmd) (*exec.Cmd, error) {
	argv, err := c.Argv()
	if err != nil {
		return nil, err
	}
	goCmd := r.Go
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, argv...)
	cmd.Dir = c.Dir
	if !filepath.IsAbs(c.Dir) {
		cmd.Dir = filepath.Join(r.Root, c.Dir)
	}
	base := r.Environ
	if base == nil {
		base = os.Environ()
	}
	cmd.Env = append(append(append([]string(nil), base...), r.Env...), c.Env()...)
	cmd.Stdout, cmd.Stderr = r.Stdout, r.Stderr
	if cmd.Stdout == nil {
		cmd.Stdout = os.Stdout
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	return cmd, nil
}

func (r Runner) run(c Cmd, stdout, stderr io.Writer) error {
	cmd, err := r.command(c)
	if err != nil {
		return err
	}
	if stdout != nil {
		cmd.Stdout = stdout
	}
	if stderr != nil {
		cmd.Stderr = stderr
	}
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", c, err)
	}
	return nil
}

// Run implements Go.
func (r Runner) Run(c Cmd) error { return r.run(c, nil, nil) }

// Output implements Go.
func (r Runner) Output(c Cmd) (string, error) {
	var out strings.Builder
	err := r.run(c, &out, nil)
	return out.String(), err
}

// Combined implements Go.
func (r Runner) Combined(c Cmd) (string, error) {
	var out strings.Builder
	err := r.run(c, &out, &out)
	return out.String(), err
}

// ExitCode is the exit status a route ends with after err: the go
// command's own when err is its failure, else 1.
func ExitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() > 0 {
		return exit.ExitCode()
	}
	return 1
}
