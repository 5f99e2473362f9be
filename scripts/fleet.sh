#!/usr/bin/env bash
# Starts N `webimage serve` instances and nginx in front of them, all on loopback:
# nginx routes by a consistent hash of the source and caches results (deploy/nginx.conf).
#
#   scripts/fleet.sh 3                 # nginx on 127.0.0.1:8080, instances on 8081…8083
#   PORT=9000 scripts/fleet.sh 4 --key HEX --salt HEX
#
# Arguments after N go to every instance (default: --insecure-unsigned). Each instance
# caches in $FLEET_DIR/instance-K (default FLEET_DIR: a new temporary folder). Stops
# everything on Ctrl-C or SIGTERM. Builds `webimage` in the release configuration.
# Installs nginx (Debian's nginx-light) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:?usage: scripts/fleet.sh N [serve options…]}
shift
[ $# -gt 0 ] || set -- --insecure-unsigned
port=${PORT:-8080}
scripts/install-system-packages.sh
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
# The release configuration, as a deployment runs it (WEBIMAGE=PATH uses a binary built already).
if [ -z "${WEBIMAGE:-}" ]; then
    swift build -c release --product webimage >&2
fi
tool=${WEBIMAGE:-$(swift build -c release --show-bin-path)/webimage}
run_dir=${FLEET_DIR:-$(mktemp -d)}
mkdir -p "$run_dir"
chmod 755 "$run_dir"

pids=()
stop() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    wait
}
trap stop EXIT INT TERM

upstreams=""
for index in $(seq 1 "$count"); do
    instance_port=$((port + index))
    "$tool" serve --port "$instance_port" --cache-dir "$run_dir/instance-$index" "$@" &
    pids+=($!)
    upstreams+="        server 127.0.0.1:$instance_port;"$'\n'
done
sed -e "s|@RUN_DIR@|$run_dir|g" -e "s|@LISTEN@|127.0.0.1:$port|g" deploy/nginx.conf \
    | awk -v upstreams="$upstreams" '{ if ($0 == "@UPSTREAMS@") printf "%s", upstreams; else print }' > "$run_dir/nginx.conf"
"$nginx_bin" -c "$run_dir/nginx.conf" -p "$run_dir" &
pids+=($!)
echo "nginx on http://127.0.0.1:$port in front of $count instances; state in $run_dir" >&2
wait
