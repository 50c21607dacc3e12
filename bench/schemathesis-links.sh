#!/usr/bin/env bash
# On demand, not part of mvn verify: openapi.yaml's links followed by a stateful OpenAPI tool, schemathesis 3.x
# (its state-machine runner, --stateful=links), against start-api on a free loopback port with an operator token.
# Prints the tool's link table (each link's transitions by status class) and how many PATCHes carried a create's
# ETag as If-Match, and how many of those succeeded. OpenApiLinksTest checks the same links statically in the suite.
#
# Needs: local/target/oneread-local.jar (mvn -B -o package -DskipTests) and schemathesis 3.x (3.39.16 was used, with
# hypothesis 6.129: later hypothesis releases renamed the state machine's _add_result_to_targets, which 3.39 overrides,
# and its runner then stops with "No progress can be made"). Set SCHEMATHESIS to the command that runs it
# (default: schemathesis). Nothing is installed here.
#
# Two runs, because schemathesis 3.x names a transition rule by its target and status only: the two list pages'
# links to getProject (both on a 200) would be one rule, the second replacing the first, and the state machine
# stalls. Each run leaves one of the two lists out, so every link is followed in one run or the other.
# Usage: bash bench/schemathesis-links.sh [max-examples, default 20]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
examples="${1:-20}"
read -r -a tool <<< "${SCHEMATHESIS:-schemathesis}"
work="$(mktemp -d)"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

java -jar "$root/local/target/oneread-local.jar" start-api --port="$port" --state-file="$work/state.json" \
    > "$work/start-api.log" 2>&1 &
api=$!
trap 'kill "$api" 2>/dev/null; wait "$api" 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 120); do
    grep -q "listening on" "$work/start-api.log" && break
    kill -0 "$api" 2>/dev/null || { cat "$work/start-api.log"; exit 1; }
    sleep 1
done
token="$(java -jar "$root/local/target/oneread-local.jar" token --admin --workspaces=acme)"

status=0
for left_out in listProjects listProjectsByStatus; do
    echo "== schemathesis --stateful=links, without $left_out"
    (cd "$work" && "${tool[@]}" run "$root/openapi.yaml" --base-url "http://127.0.0.1:$port" \
        -H "Authorization: Bearer $token" --stateful=links \
        --experimental=stateful-test-runner --experimental=stateful-only \
        --exclude-operation-id="$left_out" --hypothesis-max-examples="$examples" \
        --cassette-path="$work/$left_out.yaml" --hypothesis-database=none --no-color) || status=$?
done

python3 - "$work"/listProjects.yaml "$work"/listProjectsByStatus.yaml <<'EOF'
import sys
from urllib.parse import urlparse

import yaml


def first(headers, name):
    for key, values in (headers or {}).items():
        if key.lower() == name.lower():
            return values[0] if isinstance(values, list) else values
    return None


etags = {}  # the path a create answered with (Location) -> its ETag
patches = succeeded = 0
for cassette in sys.argv[1:]:
    for interaction in yaml.safe_load(open(cassette, encoding="utf-8"))["http_interactions"]:
        request, response = interaction["request"], interaction["response"]
        if response is None:
            continue
        code = int(response["status"]["code"])
        if request["method"] == "POST" and code == 201:
            etags[first(response["headers"], "Location")] = first(response["headers"], "ETag")
        elif request["method"] == "PATCH":
            path = urlparse(request["uri"]).path
            if path in etags and first(request["headers"], "If-Match") == etags[path]:
                patches += 1
                succeeded += 200 <= code < 300
print(f"PATCH with a create's ETag as If-Match: {patches}, of which 2xx: {succeeded}")
EOF
exit "$status"
