package patchers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	demov1 "github.com/statuspatch/statuspatch/examples/api/v1alpha1"
)

// heldServer is one Rollout's API server in memory, behind a real
// controller-runtime client: the client builds and sends each request and
// decodes each answer exactly as against a cluster; only the network and
// the server's own work are left out. It serves GET of the object and
// PATCH of its status, and accepts only the one patch the cycles send (a
// JSON merge patch setting status.completedSteps, locked on the stored
// resourceVersion); anything else is an error, so a benchmark whose write
// went wrong stops. The object it stores is also the manager's cache: a
// read through the client's cache reader is the deep copy controller-
// runtime's cache makes on every Get.
type heldServer struct {
	stored *demov1.Rollout
	rv     int
	// The answer is the stored object's JSON, built from a template taken
	// once rather than marshalled per request: marshalling it is the
	// server's work, not the reconcile's.
	tmpl   [3][]byte // the JSON around the resourceVersion and completedSteps
	answer []byte    // reused: the client's decoder copies what it keeps
}

const (
	tmplRV    = "@@rv@@"
	tmplSteps = int32(1999999999)
)

// newHeldServer stores obj (its status.completedSteps must be at least 1)
// and returns the server and a client whose reads go to its cache.
func newHeldServer(b *testing.B, obj *demov1.Rollout) (*heldServer, client.Client) {
	s := &heldServer{stored: obj.DeepCopy()}
	s.stored.APIVersion = demov1.GroupVersion.String()
	s.stored.Kind = "Rollout"
	s.rv, _ = strconv.Atoi(s.stored.ResourceVersion)
	if s.stored.Status.CompletedSteps < 1 {
		b.Fatal("heldServer: the stored object's completedSteps must be at least 1 (omitempty)")
	}
	t := s.stored.DeepCopy()
	t.ResourceVersion = tmplRV
	t.Status.CompletedSteps = tmplSteps
	raw, err := json.Marshal(t)
	if err != nil {
		b.Fatal(err)
	}
	before, remainder, ok1 := bytes.Cut(raw, []byte(tmplRV))
	mid, after, ok2 := bytes.Cut(remainder, []byte(strconv.Itoa(int(tmplSteps))))
	if !ok1 || !ok2 || bytes.Contains(after, []byte(tmplRV)) {
		b.Fatalf("heldServer: template markers not found once in %.200s", raw)
	}
	s.tmpl = [3][]byte{before, mid, after}
	want, err := json.Marshal(s.stored)
	if err != nil {
		b.Fatal(err)
	}
	if got := s.render(); !bytes.Equal(got, want) {
		b.Fatalf("heldServer: the template's answer differs from the stored object's JSON")
	}

	log.SetLogger(logr.Discard())
	scheme := runtime.NewScheme()
	if err := demov1.AddToScheme(scheme); err != nil {
		b.Fatal(err)
	}
	mapper := meta.NewDefaultRESTMapper(nil)
	mapper.Add(demov1.GroupVersion.WithKind("Rollout"), meta.RESTScopeNamespace)
	c, err := client.New(&rest.Config{Host: "http://held.invalid", QPS: -1}, client.Options{ // QPS -1: no client-side throttling
		HTTPClient: &http.Client{Transport: s},
		Scheme:     scheme,
		Mapper:     mapper,
		Cache:      &client.CacheOptions{Reader: heldCache{s}},
	})
	if err != nil {
		b.Fatal(err)
	}
	return s, c
}

// render is the stored object's JSON.
func (s *heldServer) render() []byte {
	s.answer = append(s.answer[:0], s.tmpl[0]...)
	s.answer = strconv.AppendInt(s.answer, int64(s.rv), 10)
	s.answer = append(s.answer, s.tmpl[1]...)
	s.answer = strconv.AppendInt(s.answer, int64(s.stored.Status.CompletedSteps), 10)
	s.answer = append(s.answer, s.tmpl[2]...)
	return s.answer
}

func (s *heldServer) RoundTrip(req *http.Request) (*http.Response, error) {
	path := "/apis/" + demov1.GroupVersion.String() + "/namespaces/" + s.stored.Namespace + "/rollouts/" + s.stored.Name
	switch {
	case req.Method == http.MethodGet && req.URL.Path == path:
	case req.Method == http.MethodPatch && req.URL.Path == path+"/status":
		if err := s.patch(req); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("heldServer: unexpected %s %s", req.Method, req.URL.Path)
	}
	return &http.Response{
		StatusCode: http.StatusOK, Status: "200 OK", Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": []string{"application/json"}},
		Body:    io.NopCloser(bytes.NewReader(s.render())),
		Request: req,
	}, nil
}

// patch applies the one status patch the cycles send, or says why not.
func (s *heldServer) patch(req *http.Request) error {
	if ct := req.Header.Get("Content-Type"); ct != string(types.MergePatchType) {
		return fmt.Errorf("heldServer: patch of type %q", ct)
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return err
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("heldServer: patch %s: %w", body, err)
	}
	status, _ := got["status"].(map[string]any)
	steps, ok := status["completedSteps"].(float64)
	want := map[string]any{
		"metadata": map[string]any{"resourceVersion": strconv.Itoa(s.rv)},
		"status":   map[string]any{"completedSteps": steps},
	}
	if !ok || steps < 1 || steps > float64(tmplSteps) || !reflect.DeepEqual(got, want) {
		return fmt.Errorf("heldServer: patch %s is not the cycle's one-field locked patch at resourceVersion %d", body, s.rv)
	}
	s.rv++
	s.stored.ResourceVersion = strconv.Itoa(s.rv)
	s.stored.Status.CompletedSteps = int32(steps)
	return nil
}

// heldCache is the manager cache's reader over the stored object: like
// controller-runtime's cache, every Get is a deep copy of the object the
// informer holds (decoding the watch event that updated it is the
// informer's work, outside the reconcile).
type heldCache struct{ s *heldServer }

func (h heldCache) Get(_ context.Context, key client.ObjectKey, obj client.Object, _ ...client.GetOption) error {
	out, ok := obj.(*demov1.Rollout)
	if !ok || key != client.ObjectKeyFromObject(h.s.stored) {
		return fmt.Errorf("heldCache: no %T %s", obj, key)
	}
	*out = *h.s.stored.DeepCopy()
	return nil
}

func (heldCache) List(context.Context, client.ObjectList, ...client.ListOption) error {
	return errors.New("heldCache: List is not served")
}
