#!/usr/bin/env bash
# Generator time as the number of kinds grows: builds a synthetic API package
# with N kinds (each with Conditions and ObservedGeneration) for N in KINDS,
# and runs hack/bench-gen.sh (statuspatch-gen vs controller-gen object, same
# packages, same run) on each. Prints one ratio line per N first.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KINDS=${KINDS:-1 10 100}
BENCH=$ROOT/hack/.bench
mkdir -p "$BENCH"

synth() { # synth DIR N
  local dir=$1 n=$2
  rm -rf "$dir"
  mkdir -p "$dir/api/v1"
  cp "$ROOT/generator/testdata/go.mod" "$ROOT/generator/testdata/go.sum" "$dir/"
  (cd "$dir" && go mod edit -module example.com/scale -replace "github.com/statuspatch/statuspatch=$ROOT" -droptool github.com/statuspatch/statuspatch/cmd/statuspatch-gen)
  cat >"$dir/api/v1/groupversion_info.go" <<'GO'
// Package v1 is a synthetic API group for generator benchmarks.
// +kubebuilder:object:generate=true
// +groupName=scale.example.com
package v1
GO
  {
    echo "package v1"
    echo
    echo 'import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"'
    for i in $(seq "$n"); do
      cat <<GO

type Kind${i}Spec struct {
	Replicas int32             \`json:"replicas,omitempty"\`
	Labels   map[string]string \`json:"labels,omitempty"\`
}

type Kind${i}Status struct {
	ObservedGeneration int64              \`json:"observedGeneration,omitempty"\`
	Conditions         []metav1.Condition \`json:"conditions,omitempty"\`
	Items              []string           \`json:"items,omitempty"\`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Kind${i} struct {
	metav1.TypeMeta   \`json:",inline"\`
	metav1.ObjectMeta \`json:"metadata,omitempty"\`
	Spec   Kind${i}Spec   \`json:"spec,omitempty"\`
	Status Kind${i}Status \`json:"status,omitempty"\`
}

// +kubebuilder:object:root=true
type Kind${i}List struct {
	metav1.TypeMeta \`json:",inline"\`
	metav1.ListMeta \`json:"metadata,omitempty"\`
	Items           []Kind${i} \`json:"items"\`
}
GO
    done
  } >"$dir/api/v1/kinds.go"
  gofmt -w "$dir/api/v1"
}

out=()
for n in $KINDS; do
  dir=$BENCH/scale-$n
  synth "$dir" "$n"
  res=$(BENCH_DIR=$dir "$ROOT/hack/bench-gen.sh")
  out+=("kinds=$n: $(head -1 <<<"$res")")
  out+=("$(tail -n +2 <<<"$res" | sed 's/^/    /')")
done
printf '%s\n' "${out[@]}" | grep '^kinds='
echo
printf '%s\n' "${out[@]}"
