package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The write token's API package and a reconciler that writes the token by
// hand, in a package of their own each: the marker reaches the reconciler
// only as the fact the API package's analysis exports.
const (
	tokenAPIPkg = `package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

type LedgerStatus struct {
	Count int64 ` + "`json:\"count,omitempty\"`" + `
	// +statuspatch:writeToken
	WriteToken string ` + "`json:\"writeToken,omitempty\"`" + `
}

type Ledger struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	Status LedgerStatus ` + "`json:\"status,omitempty\"`" + `
}

func (l *Ledger) DeepCopyObject() runtime.Object { return l }
`
	tokenWriterPkg = `package ledger

import (
	"context"

	tokenv1 "example.com/realmod/tokenapi/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func Take(ctx context.Context, c client.Client, l *tokenv1.Ledger) error {
	l.Status.Count++
	l.Status.WriteToken = ""
	return c.Status().Update(ctx, l)
}
`
)

// The standalone command, with either driver, and go vet -vettool report
// a handwritten write of the write token of another package's kind alike.
func TestWriteTokenInEveryDriver(t *testing.T) {
	bin := buildLint(t)
	mod := stubRealmod(t)
	for name, src := range map[string]string{"tokenapi/v1/types.go": tokenAPIPkg, "ledger/ledger.go": tokenWriterPkg} {
		if err := os.MkdirAll(filepath.Join(mod, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command("go", "build", "./...")
	build.Dir, build.Env = mod, append(os.Environ(), "GOWORK=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./... in %s: %v\n%s", mod, err, out)
	}
	const want = "ledger.go:12:2: LedgerStatus.WriteToken is the write token (+statuspatch:writeToken): the patcher sets it on every write; remove this assignment"
	for _, driver := range []string{"checker", "export"} {
		for _, args := range [][]string{{"./ledger"}, {"-ci", "./ledger"}} {
			out, errOut, _, code := lintWith(t, mod, bin, driver, args...)
			if code != 3 || !strings.Contains(out+errOut, want) {
				t.Errorf("%s driver, %s: exit %d, want 3 and %q:\n%s%s", driver, strings.Join(args, " "), code, want, out, errOut)
			}
		}
	}
	vet := exec.Command("go", "vet", "-vettool="+bin, "./ledger")
	vet.Dir, vet.Env = mod, append(os.Environ(), "GOWORK=off")
	out, err := vet.CombinedOutput()
	if err == nil || !strings.Contains(string(out), want) {
		t.Errorf("go vet -vettool: %v, want a failure with %q:\n%s", err, want, out)
	}
}
