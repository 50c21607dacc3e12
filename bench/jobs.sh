#!/usr/bin/env bash
# On-demand benchmark: a whole stats run over 2,000 workspaces on the embedded ElasticMQ, at 1, 5 and 10 workers at
# once, side by side; and what planning costs (SendMessageBatch calls, index queries).
# Usage: bash bench/jobs.sh
set -euo pipefail
exec bash "$(dirname "$0")/java-main.sh" JobsBenchmark
