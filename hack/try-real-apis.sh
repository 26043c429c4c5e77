#!/usr/bin/env bash
# Runs statuspatch-gen with output:dir= against published operators' API
# packages, taken as module dependencies (read-only, in the module cache),
# then checks that every kind with a status subresource got a patcher and that
# the result builds and vets.
#
#   hack/try-real-apis.sh            # uses a temporary directory
#   WORK=/tmp/realapis hack/try-real-apis.sh
#
# Needs the Go module proxy (the modules below are downloaded once).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
cd "$WORK"

# name  module@version  package pattern
APIS=(
  "capi sigs.k8s.io/cluster-api/api@v1.14.2 sigs.k8s.io/cluster-api/api/core/v1beta2"
  "certmanager github.com/cert-manager/cert-manager@v1.21.2 github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
  "acme github.com/cert-manager/cert-manager@v1.21.2 github.com/cert-manager/cert-manager/pkg/apis/acme/v1"
  "monitoring github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring@v0.94.1 github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
)
if [[ -n "${APIS_OVERRIDE:-}" ]]; then
  mapfile -t APIS <<<"$APIS_OVERRIDE"
fi

cat >go.mod <<EOM
module example.com/realapis

go 1.26.0

require github.com/statuspatch/statuspatch v0.0.0

replace github.com/statuspatch/statuspatch => $ROOT
EOM
# keep k8s and controller-runtime at the versions statuspatch pins
for mv in $(cd "$ROOT" && go list -m -f '{{.Path}}@{{.Version}}' k8s.io/api k8s.io/apimachinery k8s.io/client-go sigs.k8s.io/controller-runtime); do
  go mod edit -require="$mv"
done

for api in "${APIS[@]}"; do
  read -r _ modver _ <<<"$api"
  go get "$modver" >/dev/null
done
# keep the API packages and the runtime package the patchers import
mkdir -p tools
{
  printf 'package tools\n\nimport (\n\t_ "github.com/statuspatch/statuspatch/patcher"\n'
  for api in "${APIS[@]}"; do
    read -r _ _ pkg <<<"$api"
    printf '\t_ "%s"\n' "$pkg"
  done
  printf ')\n'
} >tools/tools.go
go mod tidy -e >/dev/null 2>&1 || true

(cd "$ROOT" && go build -o "$WORK/statuspatch-gen" ./cmd/statuspatch-gen)

status=0
for api in "${APIS[@]}"; do
  read -r name _ pkg <<<"$api"
  dir=$(go list -f '{{.Dir}}' "$pkg")
  want=$(grep -h -c '+kubebuilder:subresource:status' "$dir"/*.go | awk '{s+=$1} END {print s+0}')
  start=$(date +%s.%N)
  if ! ./statuspatch-gen "paths=$pkg" "output:dir=./patchers/$name"; then
    echo "FAIL $name ($pkg): generation failed"
    status=1
    continue
  fi
  end=$(date +%s.%N)
  got=$(grep -c 'StatusPatcher struct {' "patchers/$name/zz_generated.statuspatch.go" || true)
  printf '%-12s %-70s status-subresource markers: %3d  patchers: %3d  (%.2fs)\n' "$name" "$pkg" "$want" "$got" "$(echo "$end - $start" | bc)"
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: $want kinds with a status subresource, $got patchers"
    status=1
  fi
done
go mod tidy -e >/dev/null 2>&1 || true
if go build ./... && go vet ./patchers/...; then
  echo "build+vet OK ($WORK)"
else
  echo "FAIL: generated patchers do not build"
  status=1
fi
exit $status
