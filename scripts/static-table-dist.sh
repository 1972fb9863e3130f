#!/bin/sh
# trunk post-build hook: copy the static-embedding table (scripts/static-embed.sh) into the build
# under the versioned name the worker fetches (worker/src/semantic.rs TABLE_URL). Without the
# table the app still builds; its search then matches words only, and the worker says so.
set -eu
src="${STATIC_EMBED_DIR:-target/static-embed}/minilm-l6-static.bin"
dir="${TRUNK_STAGING_DIR:-dist}"
if [ -s "$src" ]; then
  cp "$src" "$dir/minilm-l6-static-v1.bin"
else
  echo "warning: $src is missing (run scripts/static-embed.sh): the app's search will match words only" >&2
fi
