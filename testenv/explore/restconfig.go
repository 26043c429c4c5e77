package explore

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
// (client.go), so that what an operator builds from it (a second cache,
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

func (p *inProcess) config() *rest.Config {
	return &rest.Config{
		Host:          "http://explore.in-process",
		Transport:     p,
		ContentConfig: rest.ContentConfig{ContentType: "application/json", AcceptContentTypes: typedAccept},
		RateLimiter:   flowcontrol.NewFakeAlwaysRateLimiter(),
	}
}

func (p *inProcess) httpClient() *http.Client { return &http.Client{Transport: p} }

// request is what a request names: the kind, the object, the subresource.
type request struct {
	gvk       schema.GroupVersionKind
	ns, name  string
	sub       string
	rep       representation
	watch     bool
	labels    labels.Selector
	fields    fields.Selector
	rv        string
	namespace bool // the path is namespaced
}

func (p *inProcess) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		defer func() { _ = req.Body.Close() }()
	}
	if out, ok := p.discovery(req.URL.Path); ok {
		return p.answer(req, out, nil)
	}
	if p.r == nil {
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
	case req.Method == http.MethodGet && q.watch:
		return p.openWatch(req, q)
	case req.Method == http.MethodGet && q.name == "":
		out, err := p.list(ctx, req, q)
		return p.answer(req, out, err)
	case req.Method == http.MethodGet:
		u := q.object()
		err := p.api.Get(ctx, client.ObjectKey{Namespace: q.ns, Name: q.name}, u)
		return p.answer(req, asRep(u.Object, q.rep), err)
	default:
		out, err := p.write(ctx, req, q)
		return p.answer(req, out, err)
	}
}

// parse reads /api/v1/[namespaces/NS/]RESOURCE[/NAME[/SUB]] and the
// /apis/GROUP/VERSION/... of the same.
func (p *inProcess) parse(req *http.Request) (request, error) {
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	var gv schema.GroupVersion
	switch {
	case len(parts) >= 3 && parts[0] == "api":
		gv, parts = schema.GroupVersion{Version: parts[1]}, parts[2:]
	case len(parts) >= 4 && parts[0] == "apis":
		gv, parts = schema.GroupVersion{Group: parts[1], Version: parts[2]}, parts[3:]
	default:
		return request{}, apierrors.NewNotFound(schema.GroupResource{Resource: req.URL.Path}, "explore: not served through the manager's config")
	}
	q := request{}
	if len(parts) >= 3 && parts[0] == "namespaces" {
		q.ns, parts, q.namespace = parts[1], parts[2:], true
	}
	resource := parts[0]
	if len(parts) > 1 {
		q.name = parts[1]
	}
	if len(parts) > 2 {
		q.sub = strings.Join(parts[2:], "/")
	}
	gvk, err := p.kindFor(gv.WithResource(resource))
	if err != nil {
		return request{}, fmt.Errorf("explore: %s: %w", req.URL.Path, err)
	}
	q.gvk = gvk
	accept := req.Header.Get("Accept")
	switch {
	case strings.Contains(accept, "as=PartialObjectMetadata"):
		q.rep = metadataRep
	case accept != typedAccept:
		q.rep = unstructuredRep
	}
	v := req.URL.Query()
	q.watch = v.Get("watch") == "true" || v.Get("watch") == "1"
	q.rv = v.Get("resourceVersion")
	if q.labels, err = labels.Parse(v.Get("labelSelector")); err != nil {
		return request{}, apierrors.NewBadRequest(err.Error())
	}
	if q.fields, err = fields.ParseSelector(v.Get("fieldSelector")); err != nil {
		return request{}, apierrors.NewBadRequest(err.Error())
	}
	for _, r := range q.fields.Requirements() {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" {
			return request{}, apierrors.NewBadRequest(fmt.Sprintf("explore: field selector %q through the manager's config: only metadata.name and metadata.namespace are modelled", r.Field))
		}
	}
	if v.Get("dryRun") != "" {
		return request{}, apierrors.NewBadRequest("explore: dry runs through the manager's config are not modelled")
	}
	if v.Get("sendInitialEvents") != "" {
		return request{}, apierrors.NewBadRequest("explore: watch lists are not modelled")
	}
	return q, nil
}

// kindFor is the kind of a resource: the backend's mapper's, or, where
// it maps none (the fake client's maps nothing), the scheme's kind whose
// resource the fake client would name so.
func (p *inProcess) kindFor(gvr schema.GroupVersionResource) (schema.GroupVersionKind, error) {
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

// object is an empty object of the request's kind and name.
func (q request) object() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(q.gvk)
	u.SetNamespace(q.ns)
	u.SetName(q.name)
	return u
}

// write sends a create, update, patch or delete through the process's
// API client: recorded as its writes are (client.go).
func (p *inProcess) write(ctx context.Context, req *http.Request, q request) (map[string]any, error) {
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("explore: reading the request body: %w", err)
	}
	v := req.URL.Query()
	owner := v.Get("fieldManager")
	u := q.object()
	switch req.Method {
	case http.MethodPost, http.MethodPut:
		if err := json.Unmarshal(body, &u.Object); err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		u.SetGroupVersionKind(q.gvk)
		switch {
		case req.Method == http.MethodPost && q.name == "":
			var opts []client.CreateOption
			if owner != "" {
				opts = append(opts, client.FieldOwner(owner))
			}
			err = p.api.Create(ctx, u, opts...)
		case req.Method == http.MethodPut && q.sub == "":
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
			err = p.api.SubResource(q.sub).Update(ctx, u, opts...)
		default:
			return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.gvk.Group, Resource: req.URL.Path}, req.Method)
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
		if q.sub == "" {
			err = p.api.Patch(ctx, u, patch, opts...)
		} else {
			sub := []client.SubResourcePatchOption{}
			for _, o := range opts {
				if so, ok := o.(client.SubResourcePatchOption); ok {
					sub = append(sub, so)
				}
			}
			err = p.api.SubResource(q.sub).Patch(ctx, u, patch, sub...)
		}
	case http.MethodDelete:
		if q.name == "" {
			return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.gvk.Group, Resource: req.URL.Path}, "deletecollection (use the explorer's client's DeleteAllOf)")
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
		return nil, apierrors.NewMethodNotSupported(schema.GroupResource{Group: q.gvk.Group, Resource: req.URL.Path}, req.Method)
	}
	if err != nil {
		return nil, err
	}
	return u.Object, nil
}

// answer is the response: out as JSON, or err as a Status.
func (p *inProcess) answer(req *http.Request, out any, err error) (*http.Response, error) {
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
func (p *inProcess) noteError(req *http.Request, err error) {
	if req.URL.Query().Get("sendInitialEvents") != "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lastErr = req.Method + " " + req.URL.Path + ": " + err.Error()
}

func (p *inProcess) lastError() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.lastErr == "" {
		return "no request refused"
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
func asRep(obj map[string]any, rep representation) map[string]any {
	if rep != metadataRep || obj == nil {
		return obj
	}
	m, _, _ := unstructured.NestedFieldCopy(obj, "metadata")
	return map[string]any{"apiVersion": "meta.k8s.io/v1", "kind": "PartialObjectMetadata", "metadata": m}
}

// covers reports that the object named nn is in q's namespace and field
// selector: a list or watch of q returns it when its labels match.
func (q request) covers(nn types.NamespacedName) bool {
	if q.ns != "" && nn.Namespace != q.ns {
		return false
	}
	return q.fields.Matches(fields.Set{"metadata.name": nn.Name, "metadata.namespace": nn.Namespace})
}

// matches reports that obj is one a list or watch of q returns.
func (q request) matches(obj map[string]any) bool {
	u := unstructured.Unstructured{Object: obj}
	if q.ns != "" && u.GetNamespace() != q.ns {
		return false
	}
	if !q.labels.Matches(labels.Set(u.GetLabels())) {
		return false
	}
	return q.fields.Matches(fields.Set{"metadata.name": u.GetName(), "metadata.namespace": u.GetNamespace()})
}
