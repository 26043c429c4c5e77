package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	var out bytes.Buffer
	if err := run([]string{"-f", "../lines.txt", "names", "older"}, &out); err != nil {
		t.Fatal(err)
	}
	if out.Len() == 0 || strings.Count(out.String(), "\n") < 1 {
		t.Errorf("names older printed %q", out.String())
	}
	for _, args := range [][]string{{}, {"-f", "../lines.txt", "frob"}, {"-f", "../lines.txt", "gomod", "below", "m"}, {"-f", "../lines.txt", "gomod", "supported", "m"}} {
		if err := run(args, &out); err == nil {
			t.Errorf("run(%q) succeeded", args)
		}
	}
}
