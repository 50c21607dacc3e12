#!/usr/bin/env bash
# On-demand benchmark: the retry candidates (SDK standard, DynamoDB's SDK default, standard with more attempts and
# a short throttle back-off, adaptive) side by side on one hot-key create load at partition limits x0.01: goodput,
# 503s, throttled attempts and p99 of each, as ratios to standard, with the machine's load.
# Usage: bash bench/retries.sh
set -euo pipefail
exec bash "$(dirname "$0")/java-main.sh" RetriesBenchmark "$@"
