#!/usr/bin/env bash
# One command for the benchmarks: bench/run.sh [gateway|chat|governance|sql|hostile|all] [--quick]
# Builds the WAR when it is missing, installs bench/package.json's pinned peers into target/bench/node (only when
# the pins changed), then runs bench/bench.mjs. Everything listens on 127.0.0.1 ports 19400-19439 (sql: 19500-19503)
# (hostile: 19540-19542) and stops at the end; the sql suite needs the MariaDB on 127.0.0.1:3306 and its command-line client.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="${BENCH_WORK_DIR:-$repo/target/bench}"
if [[ ! -f "$repo/target/switchboard.war" ]]; then
  (cd "$repo" && mvn -B -ntp -q -DskipTests package)
fi
mkdir -p "$work/node"
# the hostile JSON suite needs none of the npm peers (its backend is src/test/node/hostile-server.mjs)
if [[ "${1:-all}" != "hostile" ]] && { ! cmp -s "$repo/bench/package.json" "$work/node/package.json" || ! cmp -s "$repo/bench/package-lock.json" "$work/node/package-lock.json" \
   || [[ ! -d "$work/node/node_modules" ]]; }; then
  cp "$repo/bench/package.json" "$repo/bench/package-lock.json" "$work/node/"
  (cd "$work/node" && npm ci --no-audit --no-fund --loglevel=error)
fi
export BENCH_WORK_DIR="$work"
exec node "$repo/bench/bench.mjs" "$@"
