#!/usr/bin/env bash
# On-demand benchmark: a 10-shard ListProjects page (parallel fan-out) against the same 10 queries issued one
# after another, side by side, at each network latency given in ms (default: 0 and 5).
# Usage: bash bench/fan-out.sh [latency-ms ...]
set -euo pipefail
exec bash "$(dirname "$0")/java-main.sh" FanOutBenchmark "${@:-0 5}"
