#!/usr/bin/env bash
# Paired speed measurement of two builds on the realistic files requests: for each request, the
# baseline build runs it, then the new build, one process each (one thread), so that both see the
# same machine load; then one merged report per build and the new one against the baseline.
#
#   [KIND=plot] bench/paired.sh BASELINE_DIR NEW_DIR OUT_PREFIX MODEL.gguf [id ...]
#
# Each *_DIR holds a built checkout (dist/bench/realistic.js). Without ids: every request of KIND
# (default files: the 22 files requests).
# Writes OUT_PREFIX-{base,new}-<id>.json, OUT_PREFIX-{base,new}.json (merged) and OUT_PREFIX.report.txt.
set -euo pipefail
kind=${KIND:-files}
base=$1 new=$2 out=$3 model=$4
shift 4
ids=("$@")
if [ ${#ids[@]} -eq 0 ]; then
  mapfile -t ids < <(cd "$new" && node --input-type=module -e "import { requestsOfKind } from './dist/bench/realistic/requests.js'; for (const r of requestsOfKind('$kind')) console.log(r.id);")
fi
common=(--model-path "$model" --kind "$kind" --verify checks --retries 3 --skip-off --threads 1)
for id in "${ids[@]}"; do
  for side in base new; do
    dir=$base; [ "$side" = new ] && dir=$new
    (cd "$dir" && node dist/bench/realistic.js "${common[@]}" --ids "$id" --json "$out-$side-$id.json" > /dev/null 2>> "$out-$side.progress.txt")
  done
done
files() { for id in "${ids[@]}"; do echo "$out-$1-$id.json"; done; }
(cd "$new" && node dist/bench/realistic.js --merge $(files base) --json "$out-base.json" > /dev/null)
(cd "$new" && node dist/bench/realistic.js --merge $(files new) --json "$out-new.json" --baseline "$out-base.json" > "$out.report.txt")
rm -f $(files base) $(files new)
