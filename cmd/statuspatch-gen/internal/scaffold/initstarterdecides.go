package scaffold

import "text/template"

// The starter test's Test<Kind>DecidesOnce and the client that judges its
// writes (starterTemplate's "decides"; the status values they change are
// "changes", initstarterchanges.go).
var _ = template.Must(starterTemplate.New("decides").Parse(`
func Test{{.Kind}}DecidesOnce(t *testing.T) {
	env, {{if .HasScheme}}scheme, {{end}}obj := startStarter{{.Kind}}(t, "starter-twice")
	key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
{{- if .BuiltTODO}}
	// TODO(user): {{.BuiltTODO}} on the reconciler: set the same on the reconcilers below.
{{- end}}
{{- if .Setup}}
	r := &{{.Kind}}Reconciler{Client: env.Client{{if .HasScheme}}, Scheme: scheme{{end}}}
	c := &starter{{.Kind}}Client{Client: starterSetUp{{.Kind}}(t, env, r), key: key}
	r.Client = c
	const n = 2
	starterReconcile{{.Kind}}(t, r, key, n, true)
{{- else}}
	c := &starter{{.Kind}}Client{Client: env.Client, key: key}
{{- if .SetupTODO}}
	// TODO(user): {{.SetupTODO}}: set the same on the reconcilers below.
{{- end}}
	const n = 2
	starterReconcile{{.Kind}}(t, &{{.Kind}}Reconciler{Client: c{{if .HasScheme}}, Scheme: scheme{{end}}}, key, n, true)
{{- end}}
	overwrote, unknown := c.judged()
	twice, timed := c.decidedAgain()
	for _, u := range append(unknown, timed...) {
		t.Log(u)
	}
	if len(overwrote) > 0 {
		t.Fatalf("two reconciles of %s that read it before either wrote:\n%s", key, strings.Join(overwrote, "\n"))
	}
	if len(twice) == 0 {
		return
	}
	// A reconcile changed a status value the other's stored write had set,
	// in the same generation (nothing else writes the object): a second
	// decision, unless the reconciler decides it anew on every reconcile (a
	// counter). The reference: n reconciles of another {{.Kind}}, one after
	// the other; a path the reconciles at once changed more often than they
	// do was decided on the first read and written after a re-read.
	once := createStarter{{.Kind}}(t, env, "starter-once")
{{- if .Setup}}
	apart := &{{.Kind}}Reconciler{Client: env.Client{{if .HasScheme}}, Scheme: scheme{{end}}}
	ref := &starter{{.Kind}}Client{Client: starterSetUp{{.Kind}}(t, env, apart), key: types.NamespacedName{Namespace: once.Namespace, Name: once.Name}}
	apart.Client = ref
	starterReconcile{{.Kind}}(t, apart, ref.key, n, false)
{{- else}}
	ref := &starter{{.Kind}}Client{Client: env.Client, key: types.NamespacedName{Namespace: once.Namespace, Name: once.Name}}
	starterReconcile{{.Kind}}(t, &{{.Kind}}Reconciler{Client: ref{{if .HasScheme}}, Scheme: scheme{{end}}}, ref.key, n, false)
{{- end}}
	together, alone := c.stored(), ref.stored()
	var again []string
	for _, ch := range twice {
		if together[ch.path] > alone[ch.path] {
			again = append(again, fmt.Sprintf("%s: reconcile %d stored %s over %s, which reconcile %d had stored, in generation %d (stored %d times by %d reconciles at once, %d by %d one after the other, on %s)",
				ch.path, ch.by, starterJSON(ch.to), starterJSON(ch.from), ch.over.by, ch.gen, together[ch.path], n, alone[ch.path], n, ref.key))
		}
	}
	if len(again) > 0 {
		t.Fatalf("two reconciles of %s that read it before either wrote decided a status value twice (a decision made on the first read, written over the other's after a re-read?):\n%s", key, strings.Join(again, "\n"))
	}
}

// starterReconcile{{.Kind}} runs n reconciles of key with r: together, at
// once, met after their first read of it (a barrier: each waits until all
// have read, or returned), so all decide on the same state; else one after
// the other. A Conflict is the lock refusing a write from a read another
// write has overtaken (the controller requeues it); any other error fails.
func starterReconcile{{.Kind}}(t *testing.T, r *{{.Kind}}Reconciler, key types.NamespacedName, n int, together bool) {
	t.Helper()
	all := &sync.WaitGroup{}
	all.Add(n)
	errs := make(chan error, n)
	for i := range n {
		a := &starterArrival{n: i + 1, all: all}
		if !together {
			a.all = &sync.WaitGroup{}
			a.all.Add(1)
		}
		run := func() {
			defer a.arrive(false)
			_, err := r.Reconcile(context.WithValue(t.Context(), starterArrivalKey{}, a), ctrl.Request{NamespacedName: key})
			errs <- err
		}
		if together {
			go run()
		} else {
			run()
		}
	}
	for range n {
		if err := <-errs; err != nil && !starterConflict(err) {
			t.Fatalf("reconcile %s: %v", key, err)
		}
	}
}

// starterConflict says whether err is the lock's refusal: a Conflict, or
// an aggregate of Conflicts only (kerrors.NewAggregate, as cluster-api's
// deferred patch returns its error), which apierrors.IsConflict does not
// look into. It unwraps by hand: errors.As is modernize's errorsastype
// finding from Go 1.26 on, and errors.AsType is not in older Go.
func starterConflict(err error) bool {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if agg, ok := e.(kerrors.Aggregate); ok {
			return len(agg.Errors()) > 0 && !slices.ContainsFunc(agg.Errors(), func(e error) bool { return !starterConflict(e) })
		}
	}
	return apierrors.IsConflict(err)
}

// starterArrival is one reconcile of Test{{.Kind}}DecidesOnce, the n-th,
// at its barrier; the reconcile's context carries it under
// starterArrivalKey.
type starterArrival struct {
	n    int
	once sync.Once
	all  *sync.WaitGroup
	// known are the resourceVersions of the key the reconcile had from the
	// server, in the order had: its Gets, items of its Lists (one served by
	// a cache may be older than a Get before it), the answers to its own
	// writes; none before any (starter{{.Kind}}Client.mu guards it).
	known []string
}

type starterArrivalKey struct{}

// arrive marks the reconcile arrived, once; with wait, it waits for the others.
func (a *starterArrival) arrive(wait bool) {
	a.once.Do(func() {
		a.all.Done()
		if wait {
			a.all.Wait()
		}
	})
}

// starter{{.Kind}}Client is the reconciler's client in the starter tests:
// it keeps each {{.Kind}} the reconciler reads by key, with the status read,
// and judges each status write of the key on the server's answers. Writes
// of the key are serialized and each reads the stored resourceVersion
// first, so what a write stored over is known exactly; a status write that
// stored (its answer has a new resourceVersion) over one its reconcile had
// not had from the server is a decision made on a read another write had
// acted on. A write that changes nothing stores nothing (its answer keeps
// the resourceVersion) and overwrites nothing.
type starter{{.Kind}}Client struct {
	client.Client
	key types.NamespacedName
	// writing serializes the writes of the key.
	writing sync.Mutex
	mu      sync.Mutex
	objs    []*{{.Alias}}.{{.Kind}}
	reads   []*{{.Alias}}.{{.Kind}} // copies, as read
	// overwrote says each status write stored over a resourceVersion its
	// reconcile had not had; unknown each one that could not be judged.
	overwrote, unknown []string
	// changes are the status values the stored status writes changed, in
	// the order stored; set, the change that last set each path.
	changes []*starterChange
	set     map[string]*starterChange
}

func (c *starter{{.Kind}}Client) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	err := c.Client.Get(ctx, key, obj, opts...)
	if o, ok := obj.(*{{.Alias}}.{{.Kind}}); ok && err == nil && key == c.key {
		c.mu.Lock()
		c.objs = append(c.objs, o)
		c.reads = append(c.reads, o.DeepCopy())
		c.mu.Unlock()
		c.had(ctx, o.ResourceVersion)
	}
	return err
}

// List records the key's item, if the list has it, as the reconcile's read.
func (c *starter{{.Kind}}Client) List(ctx context.Context, list client.ObjectList, opts ...client.ListOption) error {
	if err := c.Client.List(ctx, list, opts...); err != nil {
		return err
	}
	return apimeta.EachListItem(list, func(o runtime.Object) error {
		if item, ok := o.(*{{.Alias}}.{{.Kind}}); ok && item.Namespace == c.key.Namespace && item.Name == c.key.Name {
			c.had(ctx, item.ResourceVersion)
		}
		return nil
	})
}

// had records rv as the resourceVersion of the key ctx's reconcile has from
// the server, and brings it to the barrier.
func (c *starter{{.Kind}}Client) had(ctx context.Context, rv string) {
	a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival)
	if !ok {
		return
	}
	c.mu.Lock()
	a.known = append(a.known, rv)
	c.mu.Unlock()
	a.arrive(true)
}

// Status judges the status writes of the key.
func (c *starter{{.Kind}}Client) Status() client.SubResourceWriter {
	return &starter{{.Kind}}Status{SubResourceWriter: c.Client.Status(), c: c}
}

// Update and Patch of the {{.Kind}} itself are serialized with the status
// writes, and their answers are what the reconcile has from the server.
func (c *starter{{.Kind}}Client) Update(ctx context.Context, obj client.Object, opts ...client.UpdateOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Update(ctx, obj, opts...) })
}

func (c *starter{{.Kind}}Client) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
	return c.write(ctx, obj, "", func() error { return c.Client.Patch(ctx, obj, patch, opts...) })
}

// write runs do, a write of obj (what, "status update" or "status patch",
// for a status write; "" for one of the object): when obj is the key's
// {{.Kind}}, after the writes of it before, reading the resourceVersion
// stored before it, and judging what it stored.
func (c *starter{{.Kind}}Client) write(ctx context.Context, obj client.Object, what string, do func() error) error {
	if _, ok := obj.(*{{.Alias}}.{{.Kind}}); !ok || obj.GetNamespace() != c.key.Namespace || obj.GetName() != c.key.Name {
		return do()
	}
	c.writing.Lock()
	defer c.writing.Unlock()
	stored := &{{.Alias}}.{{.Kind}}{}
	if err := c.Client.Get(ctx, c.key, stored); err != nil {
		return fmt.Errorf("reading %s before a write of it: %w", c.key, err)
	}
	if err := do(); err != nil {
		return err
	}
	before, after := stored.ResourceVersion, obj.GetResourceVersion()
	a, ok := ctx.Value(starterArrivalKey{}).(*starterArrival)
	c.mu.Lock()
	defer c.mu.Unlock()
	if what == "" || after == before {
		if ok {
			a.known = append(a.known, after)
		}
		return nil
	}
	by := 0
	if ok {
		by = a.n
	}
	changes, err := c.note(by, stored, obj.(*{{.Alias}}.{{.Kind}}))
	switch {
	case err != nil:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: the status values a %s of %s changed: %v; not judged", what, c.key, err))
	case !ok:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: a %s of %s stored resourceVersion %s over %s from a context that is not a reconcile's (not the ctx Reconcile was given?); not judged", what, c.key, after, before))
	case len(a.known) == 0:
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: reconcile %d's %s of %s stored resourceVersion %s over %s, and it read %s through no Get or List of this client; not judged", a.n, what, c.key, after, before, c.key))
	case !slices.Contains(a.known, before) && starterTimed(changes):
		c.unknown = append(c.unknown, fmt.Sprintf("Unknown: reconcile %d's %s of %s stored resourceVersion %s over %s, a state it had not read, changing only values that differ only in time; not judged", a.n, what, c.key, after, before))
	case !slices.Contains(a.known, before):
		c.overwrote = append(c.overwrote, fmt.Sprintf("reconcile %d, which last read %s at resourceVersion %s, stored resourceVersion %s with a %s over %s, a state it had not read: it made its decision again on a read another write had acted on (a status write without the resourceVersion it read, a blind patch?)", a.n, c.key, a.known[len(a.known)-1], after, what, before))
	}
	if ok {
		a.known = append(a.known, after)
	}
	return nil
}

// judged is what the status writes of the key overwrote, and the ones not
// judged.
func (c *starter{{.Kind}}Client) judged() (overwrote, unknown []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.overwrote), slices.Clone(c.unknown)
}

// changed is the last {{.Kind}} read whose status changed since it was read
// (the one the reconciler set a status on), as read and as left, or nils.
func (c *starter{{.Kind}}Client) changed() (read, left *{{.Alias}}.{{.Kind}}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, o := range slices.Backward(c.objs) {
		if !equality.Semantic.DeepEqual(o.Status, c.reads[i].Status) {
			return c.reads[i], o
		}
	}
	return nil, nil
}

// starterUnsent lists the status fields changed from read to left whose
// value in got (what the server stores) is not left's, a line each with
// both values, or "".
func starterUnsent(t *testing.T, read, left, got *{{.Alias}}.{{.Kind}}) string {
	t.Helper()
	status := func(o *{{.Alias}}.{{.Kind}}) map[string]any {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			t.Fatalf("%s/%s: %v", o.Namespace, o.Name, err)
		}
		s, _ := u["status"].(map[string]any)
		return s
	}
	r, l, g := status(read), status(left), status(got)
	fields := slices.Collect(maps.Keys(r))
	for f := range l {
		if _, ok := r[f]; !ok {
			fields = append(fields, f)
		}
	}
	slices.Sort(fields)
	var b strings.Builder
	for _, f := range fields {
		if !equality.Semantic.DeepEqual(r[f], l[f]) && !equality.Semantic.DeepEqual(l[f], g[f]) {
			fmt.Fprintf(&b, "status.%s: the reconciler left %v, the server stores %v\n", f, l[f], g[f])
		}
	}
	return b.String()
}

// starter{{.Kind}}Status is starter{{.Kind}}Client's status writer.
type starter{{.Kind}}Status struct {
	client.SubResourceWriter
	c *starter{{.Kind}}Client
}

func (s *starter{{.Kind}}Status) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	return s.c.write(ctx, obj, "status update", func() error { return s.SubResourceWriter.Update(ctx, obj, opts...) })
}

func (s *starter{{.Kind}}Status) Patch(ctx context.Context, obj client.Object, patch client.Patch, opts ...client.SubResourcePatchOption) error {
	return s.c.write(ctx, obj, "status patch", func() error { return s.SubResourceWriter.Patch(ctx, obj, patch, opts...) })
}
{{template "changes" .}}`))
