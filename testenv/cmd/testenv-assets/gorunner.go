package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"
)

// runFunc runs the go command with args in dir and returns its standard
// output; each line of its standard error goes to stderrLine. A failure's
// error carries the tail of that output.
type runFunc func(ctx context.Context, dir string, stderrLine func(string), args ...string) ([]byte, error)

// tailLines is how much of a failed go command's output an error repeats.
const tailLines = 30

// goRunner runs the go command in the environment every build step uses:
// outside any workspace (GOWORK=off), updating the scratch go.mod as needed
// (GOFLAGS=-mod=mod, replacing the user's GOFLAGS), for the platform the
// cache folder names, in the caller's cgo setting: the setting its go test
// compiles in, so the build cache can share the packages both compile
// (align.go). CGO_ENABLED=0 gave static binaries, and a build cache of
// the API server's libraries no test of the caller's could use.
func goRunner(goCmd, goos, goarch string) runFunc {
	return envRunner(goCmd, "GOWORK=off", "GOFLAGS=-mod=mod", "GO111MODULE=on",
		"GOOS="+goos, "GOARCH="+goarch)
}

// envRunner runs the go command in the caller's environment with env added
// (none: exactly as go test would run in that shell; warm uses that).
func envRunner(goCmd string, env ...string) runFunc {
	return func(ctx context.Context, dir string, stderrLine func(string), args ...string) ([]byte, error) {
		cmd := exec.CommandContext(ctx, goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 10 * time.Second
		var stdout bytes.Buffer
		cmd.Stdout = &stdout
		pr, pw := io.Pipe()
		cmd.Stderr = pw
		var tail []string
		scanned := make(chan struct{})
		go func() {
			defer close(scanned)
			sc := bufio.NewScanner(pr)
			sc.Buffer(make([]byte, 64*1024), 1024*1024)
			for sc.Scan() {
				s := sc.Text()
				if stderrLine != nil {
					stderrLine(s)
				}
				tail = append(tail, s)
				if len(tail) > tailLines {
					tail = tail[len(tail)-tailLines:]
				}
			}
			_, _ = io.Copy(io.Discard, pr)
		}()
		err := cmd.Run()
		_ = pw.Close()
		<-scanned
		if err != nil {
			name := "go " + strings.Join(args, " ")
			if len(name) > 100 { // go build's -ldflags
				name = "go " + args[0] + " ... " + args[len(args)-1]
			}
			if ctx.Err() != nil {
				return nil, fmt.Errorf("%s: interrupted (%w)", name, ctx.Err())
			}
			var exitErr *exec.ExitError
			if errors.As(err, &exitErr) && len(tail) > 0 {
				return nil, fmt.Errorf("%s: %w; the go command's last output:\n%s", name, err, strings.Join(tail, "\n"))
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return stdout.Bytes(), nil
	}
}
