package served

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/flowcontrol"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The manager's GetConfig (and GetHTTPClient): a rest.Config whose
// transport the explorer serves in process, from the process's API client
// (the explorer's client.go), so that what an operator builds from it (a second cache,
// cache.New(mgr.GetConfig(), ...) added with mgr.Add, as trust-manager's
// target cache; a client, client.New(mgr.GetConfig(), ...)) reads the
// explorer's book and writes through it, recorded. A GET is an API read
// (newest); a LIST is too, and opens the state a WATCH from it starts at;
// a WATCH gets the book's changes only at the start of each step
// (servedcache.go); discovery is answered from the scheme and the
// backend's mapper (discovery.go).

// typedAccept is the Accept of the config's typed clients: a dynamic
// (unstructured) client sends "application/json" (dynamic.ConfigFor), a
// metadata-only one asks for PartialObjectMetadata, so a watch names the
// informer it feeds.
const typedAccept = "application/json, */*;q=0.5"

func (p *Process) Config() *rest.Config {
	return &rest.Config{
		Host:          "http://explore.in-process",
		Transport:     p,
		ContentConfig: rest.ContentConfig{ContentType: "application/json", AcceptContentTypes: typedAccept},
		RateLimiter:   flowcontrol.NewFakeAlwaysRateLimiter(),
	}
}

func (p *Process) HTTPClient() *http.Client { return &http.Client{Transport: p} }

// Request is what a request names: the kind, the object, the subresource;
// for a list or a watch, the informer it feeds.
type Request struct {
	GVK        schema.GroupVersionKind
	NS, Name   string
	Sub        string
	Rep        Rep
	Watch      bool
	Labels     labels.Selector
	Fields     fields.Selector
	RV         string
	Namespaced bool // the path is namespaced
}

func (p *Process) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer func() { _ = req.Body.Close() }()
	}
	if out, ok := (discovery{mapper: p.mapper, scheme: p.scheme}).answer(req.URL.Path); ok {
		return p.answer(req, out, nil)
	}
	if p.book == nil {
		return p.answer(req, nil, errors.New("explore: the manager's config is served only while a schedule runs, not when Run first checks Setup"))
	}
	if !p.enter() {
		return p.answer(req, nil, apierrors.NewServiceUnavailable("explore: the process whose config this is has stopped (a crash or the schedule's end)"))
	}
	defer p.inflight.Done()
	q, err := p.parse(req)
	if err != nil {
		return p.answer(req, nil, err)
	}
	ctx := req.Context()
	switch {
	case req.Method == http.MethodGet && q.Watch:
		return p.openWatch(req, q)
	case req.Method == http.MethodGet && q.Name == "":
		out, err := p.list(ctx, req, q)
		return p.answer(req, out, err)
	case req.Method == http.MethodGet:
		u := q.object()
		err := p.api.Get(ctx, client.ObjectKey{Namespace: q.NS, Name: q.Name}, u)
		return p.answer(req, asRep(u.Object, q.Rep), err)
	default:
		out, err := p.write(ctx, req, q)
		return p.answer(req, out, err)
	}
}

// parse reads /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]] and the
// /apis/GROUP/VERSION/... of the same.
func (p *Process) parse(req *http.Request) (Request, error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	var gv schema.GroupVersion
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		gv, parts = schema.GroupVersion{Version: parts[1]}, parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		gv, parts = schema.GroupVersion{Group: parts[1], Version: parts[2]}, parts[3:]
	default:
		return Request{}, apierrors.NewNotFound(schema.GroupResource{Resource: req.URL.Path}, "explore: not served through the manager's config")
	}
	q := Request{}
	if len(parts) >= 3 && parts[0] == "namespaces" {
		q.NS, parts, q.Namespaced = parts[1], parts[2:], true
	}
	resource := parts[0]
	if len(parts) > 1 {
		q.Name = parts[1]
	}
	if len(parts) > 2 {
		q.Sub = strings.Join(parts[2:], "/")
	}
	gvk, err := p.kindFor(gv.WithResource(resource))
	if err != nil {
		return Request{}, fmt.Errorf("explore: %s: %w", req.URL.Path, err)
	}
	q.GVK = gvk
	accept := req.Header.Get("Accept")
	switch {
	case strings.Contains(accept, "as=PartialObjectMetadata"):
		q.Rep = MetadataRep
	case accept != typedAccept:
		q.Rep = UnstructuredRep
	}
	v := req.URL.Query()
	q.Watch = v.Get("watch") == "true" || v.Get("watch") == "1"
	q.RV = v.Get("resourceVersion")
	if q.Labels, err = labels.Parse(v.Get("labelSelector")); err != nil {
		return Request{}, apierrors.NewBadRequest(err.Error())
	}
	if q.Fields, err = fields.ParseSelector(v.Get("fieldSelector")); err != nil {
		return Request{}, apierrors.NewBadRequest(err.Error())
	}
	for _, r := range q.Fields.Requirements() {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
			return Request{}, apierrors.NewBadRequest(fmt.Sprintf("explore: field selector %q through the manager's config: only metadata.name and metadata.namespace are modelled", r.Field))
		}
	}
	if v.Get("dryRun") != "" {
		return Request{}, apierrors.NewBadRequest("explore: dry runs through the manager's config are not modelled")
	}
	if v.Get("sendInitialEvents") != "" {
		return Request{}, apierrors.NewBadRequest("explore: watch lists are not modelled")
	}
	return q, nil
}

// kindFor is the kind of a resource: the backend's mapper's, or, where
// it maps none (the fake client's maps nothing), the scheme's kind whose
// resource the fake client would name so.
func (p *Process) kindFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
	gvk, err := p.mapper.KindFor(gvr)
	if err == nil {
		return gvk, nil
	}
	for k := range p.scheme.AllKnownTypes() {
		if k.GroupVersion() != gvr.GroupVersion() || strings.HasSuffix(k.Kind, "List") {
			continue
		}
		if plural, _ := meta.UnsafeGuessKindToResource(k); plural == gvr {
			return k, nil
		}
	}
	return gvk, err
}

// object is an empty object of the Request's kind and name.
func (q Request) object() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(q.GVK)
	u.SetNamespace(q.NS)
	u.SetName(q.Name)
	return u
}

// write sends a create, update, patch or delete through the process's
// API client: recorded as its writes are (the explorer's client.go).
func (p *Process) write(ctx context.Context, req *http.Request, q Request) (map[string]any, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("explore: reading the Request body: %w", err)
	}
	v := req.URL.Query()
	owner := v.Get("fieldManager")
	u := q.object()
	switch req.Method {
	case http.MethodPost, http.MethodPut:
		if err := json.Unmarshal(body, &u.Object); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		u.SetGroupVersionKind(q.GVK)
		switch {
		case req.Method == http.MethodPost && q.Name == "":
			var opts []client.CreateOption
			if owner != "" {
				opts = append(opts, client.FieldOwner(owner))
			}
			err = p.api.Create(ctx, u, opts...)
		case req.Method == http.MethodPut && q.Sub == "":
			var opts []client.UpdateOption
			if owner != "" {
				opts = append(opts, client.FieldOwner(owner))
			}
			err = p.api.Update(ctx, u, opts...)
		case req.Method == http.MethodPut:
			var opts []client.SubResourceUpdateOption
			if owner != "" {
				opts = append(opts, client.FieldOwner(owner))
			}
			err = p.api.SubResource(q.Sub).Update(ctx, u, opts...)
		default:
			return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.GVK.Group, Resource: req.URL.Path}, req.Method)
		}
	case http.MethodPatch:
		patch := client.RawPatch(types.PatchType(strings.Split(req.Header.Get("Content-Type"), ";")[0]), body)
		var opts []client.PatchOption
		if owner != "" {
			opts = append(opts, client.FieldOwner(owner))
		}
		if v.Get("force") == "true" {
			opts = append(opts, client.ForceOwnership)
		}
		if q.Sub == "" {
			err = p.api.Patch(ctx, u, patch, opts...)
		} else {
			sub := []client.SubResourcePatchOption{}
			for _, o := range opts {
				if so, ok := o.(client.SubResourcePatchOption); ok {
					sub = append(sub, so)
				}
			}
			err = p.api.SubResource(q.Sub).Patch(ctx, u, patch, sub...)
		}
	case http.MethodDelete:
		if q.Name == "" {
			return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.GVK.Group, Resource: req.URL.Path}, "deletecollection (use the explorer's client's DeleteAllOf)")
		}
		do := metav1.DeleteOptions{}
		if len(body) > 0 {
			if err := json.Unmarshal(body, &do); err != nil {
				return nil, apierrors.NewBadRequest(err.Error())
			}
		}
		if err := p.api.Delete(ctx, u, &client.DeleteOptions{Raw: &do}); err != nil {
			return nil, err
		}
		return map[string]any{"kind": "Status", "apiVersion": "v1", "status": metav1.StatusSuccess}, nil
	default:
		return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.GVK.Group, Resource: req.URL.Path}, req.Method)
	}
	if err != nil {
		return nil, err
	}
	return u.Object, nil
}

// answer is the response: out as JSON, or err as a Status.
func (p *Process) answer(req *http.Request, out any, err error) (*http.Response, error) {
	code := http.StatusOK
	if err != nil {
		p.noteError(req, err)
		var st apierrors.APIStatus
		if !errors.As(err, &st) {
			st = apierrors.NewInternalError(err)
		}
		s := st.Status()
		s.Kind, s.APIVersion = "Status", "v1"
		code = int(s.Code)
		b, merr := json.Marshal(s)
		if merr != nil {
			return nil, merr
		}
		return response(req, code, string(b)), nil
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, fmt.Errorf("explore: encoding the answer: %w", err)
	}
	return response(req, code, string(b)), nil
}

// noteError keeps the last refusal but a watch list's, which the informer
// takes back to a list and a watch.
func (p *Process) noteError(req *http.Request, err error) {
	if req.URL.Query().Get("sendInitialEvents") != "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastErr = req.Method + " " + req.URL.Path + ": " + err.Error()
}

func (p *Process) lastError() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lastErr == "" {
		return "no Request refused"
	}
	return "last refused " + p.lastErr
}

func response(req *http.Request, code int, body string) *http.Response {
	return &http.Response{
		StatusCode: code, Status: http.StatusText(code), Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  http.Header{"Content-Type": []string{"application/json"}},
		Body:    io.NopCloser(strings.NewReader(body)),
		Request: req, ContentLength: int64(len(body)),
	}
}

// asRep is an object as a request of rep gets it: metadata-only as
// PartialObjectMetadata.
func asRep(obj map[string]any, rep Rep) map[string]any {
	if rep != MetadataRep || obj == nil {
		return obj
	}
	m, _, _ := unstructured.NestedFieldCopy(obj, "metadata")
	return map[string]any{"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": m}
}

// covers reports that the object named nn is in q's namespace and field
// selector: a list or watch of q returns it when its labels match.
func (q Request) Covers(nn types.NamespacedName) bool {
	if q.NS != "" && nn.Namespace != q.NS {
		return false
	}
	return q.Fields.Matches(fields.Set{"metadata.name": nn.Name, "metadata.namespace": nn.Namespace})
}

// matches reports that obj is one a list or watch of q returns.
func (q Request) Matches(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	if q.NS != "" && u.GetNamespace() != q.NS {
		return false
	}
	if !q.Labels.Matches(labels.Set(u.GetLabels())) {
		return false
	}
	return q.Fields.Matches(fields.Set{"metadata.name": u.GetName(), "metadata.namespace": u.GetNamespace()})
}
