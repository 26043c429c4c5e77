// Package resource is a minimal stub of k8s.io/apimachinery/pkg/api/resource
// for analysistest: a Quantity holds a reference (its decimal form), and
// String caches its text in it.
package resource

import "strconv"

type Quantity struct {
	i int64
	d *int64
	s string
}

func (q *Quantity) MilliValue() int64 {
	if q.d != nil {
		return *q.d * 1000
	}
	return q.i * 1000
}

func (q *Quantity) Value() int64 { return q.MilliValue() / 1000 }

func (q *Quantity) String() string {
	if q.s == "" {
		q.s = strconv.FormatInt(q.Value(), 10)
	}
	return q.s
}
