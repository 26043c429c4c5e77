package run

import (
	"github.com/statuspatch/statuspatch/testenv/explore/internal/seeded"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// A create with metadata.generateName and no name gets its name from the
// explorer, as the API server would give one: the prefix (cut to 58
// characters) and five characters of generateName's alphabet, drawn from
// a source every schedule starts from the same seed and a restart goes on
// with. The same choices make the same names, so a replay reproduces the
// schedule, objects and seeds named alike. A name the schedule already
// holds is drawn again, as the server retries a taken one.

// maxGeneratedPrefix is the API server's limit on the prefix kept.
const maxGeneratedPrefix = 58

// nameGenerated sets obj's name from its generateName.
func (r *Run) nameGenerated(obj client.Object) error {
	if r.names == nil {
		r.names = seeded.New(2)
	}
	prefix := obj.GetGenerateName()
	if len(prefix) > maxGeneratedPrefix {
		prefix = prefix[:maxGeneratedPrefix]
	}
	for {
		name := r.names.Name(prefix)
		k, err := r.Book.KeyOf(obj, client.ObjectKey{Namespace: obj.GetNamespace(), Name: name})
		if err != nil {
			return err
		}
		if h := r.Book.History(k); h == nil || h.Versions[h.Newest()] == nil {
			obj.SetName(name)
			return nil
		}
	}
}
