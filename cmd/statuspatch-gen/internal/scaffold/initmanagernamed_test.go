package scaffold

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestInitWiresNamedControllers: a kind's named controllers (kubebuilder
// v4.13+'s create api --controller-name captain-backup, listed under the
// resource's controllers in PROJECT) are wired as its <Kind>Reconciler
// is, each with its Named controller's name as the field owner.
// kubebuilder's multigroup sample: CaptainBackupReconciler was left
// unwired, and init said nothing.
func TestInitWiresNamedControllers(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "Makefile"), "")
	writeFile(t, filepath.Join(dir, "PROJECT"), `layout:
- go.kubebuilder.io/v4
repo: example.com/sample
resources:
- api:
    namespaced: true
  controllers:
  - name: captain
  - name: captain-backup
  group: crew
  kind: Captain
  path: example.com/sample/api/v1
  version: v1
`)
	reconciler := func(typ, named string) string {
		return `package controller

import (
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	crewv1 "example.com/sample/api/v1"
)

type ` + typ + `Reconciler struct {
	client.Client
	Scheme *runtime.Scheme
}

func (r *` + typ + `Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(&crewv1.Captain{}).Named("` + named + `").Complete(r)
}
`
	}
	ctrlDir := filepath.Join(dir, "internal", "controller")
	writeFile(t, filepath.Join(ctrlDir, "captain_controller.go"), reconciler("Captain", "captain"))
	writeFile(t, filepath.Join(ctrlDir, "captain_backup_controller.go"), reconciler("CaptainBackup", "crew-captain-backup"))
	p, err := readProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	edits, _, err := managerEdits(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	wired := map[string]string{}
	for _, e := range edits {
		wired[e.path] = e.new
	}
	for file, owner := range map[string]string{"captain_controller.go": "captain", "captain_backup_controller.go": "crew-captain-backup"} {
		want := `r.Client = patcher.ForManager(mgr, patcher.WithFieldOwner("` + owner + `"))`
		if got := wired["internal/controller/"+file]; !strings.Contains(got, want) {
			t.Errorf("%s is not wired with %s:\n%s", file, want, got)
		}
	}
	if got := reconcilerNames(p.Resources[0]); len(got) != 2 || got[1] != (reconcilerName{typ: "CaptainBackup", file: "captain_backup"}) {
		t.Errorf("reconcilerNames: %v", got)
	}
	// kubebuilder tells the kind's own controller by its lowered name:
	// url-map of the kind URLMap is another one, UrlMapReconciler.
	urlMap := kbResource{Kind: "URLMap"}
	urlMap.Controllers = append(urlMap.Controllers, struct {
		Name string `json:"name"`
	}{"urlmap"}, struct {
		Name string `json:"name"`
	}{"url-map"})
	if got := reconcilerNames(urlMap); len(got) != 2 || got[1] != (reconcilerName{typ: "UrlMap", file: "url_map"}) {
		t.Errorf("reconcilerNames of URLMap: %v", got)
	}
}
