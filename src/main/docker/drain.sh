#!/usr/bin/env bash
# The preStop hook of a Switchboard container (docs/cluster.md, "Stopping a member"): drains this member through
# POST /api/drain on its own HTTP port and returns once the calls it admitted have finished (or the drain timeout ran
# out); then Kubernetes sends SIGTERM and Liberty stops. Plain bash (/dev/tcp), since the image has no curl for sure.
# Reads HTTP_PORT (8080) and SWITCHBOARD_DRAIN_TOKEN; exits 0 even when the member does not answer, so a member that
# is already gone never holds up its own stop.
set -u
port="${HTTP_PORT:-8080}"
token="${SWITCHBOARD_DRAIN_TOKEN:-}"
if [ -z "$token" ]; then
  echo "drain: SWITCHBOARD_DRAIN_TOKEN is not set; not draining" >&2
  exit 0
fi
if ! exec 3<>"/dev/tcp/127.0.0.1/$port"; then
  echo "drain: nothing listens on 127.0.0.1:$port" >&2
  exit 0
fi
printf 'POST /api/drain HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nX-Switchboard-Drain-Token: %s\r\nContent-Length: 0\r\nConnection: close\r\n\r\n' \
  "$port" "$token" >&3
reply="$(cat <&3)"
exec 3<&-
echo "drain: ${reply##*$'\r\n\r\n'}"
case "$reply" in
  HTTP/1.?" 200"*) exit 0 ;;
  *) echo "drain: refused: ${reply%%$'\r'*}" >&2; exit 0 ;;
esac
