#!/usr/bin/env python3
"""Cross-check CLAIR-Fin's RAGAS scores (core/src/eval/ragas.rs) against the `ragas` package.

One command, from the repository root:

    python3 scripts/ragas_crosscheck.py

It installs ragas==0.4.3 (with langchain-community<0.4, which ragas 0.4.3 still imports from) into
target/ragas-venv (once; later runs reuse it), builds `clair` and the
mock server, starts the mock, scores the samples below with `clair ragas` (our implementation) and
with ragas's own metric classes (Faithfulness, ResponseRelevancy, LLMContextPrecisionWithReference,
LLMContextRecall), and prints both side by side as a Markdown table. It exits 1 when a score differs
by more than 1e-6.

Both sides use the same judge and the same embeddings, so what is compared is everything else:
ragas's prompt plumbing, output parsing and formulas against ours. The judge is the mock server:
ragas's prompts are forwarded to it by `MockJudge`, which reads the prompt's input JSON and asks the
mock the matching `ragas_*` role with the message layout our Rust code sends. Embeddings are the
mock's `/v1/embeddings` (deterministic vectors) on both sides (`--embedder api --dims 64`). ragas
sees the answer as `clair ragas` cleaned it (citation markers and abstention sentences removed), as
the reference harness cleaned answers before RAGAS (spec §8.3).
"""

import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
VENV = os.path.join(TARGET, "ragas-venv")
PY = os.path.join(VENV, "bin", "python")
RAGAS = "0.4.3"
DIMS = 64

# Real FinanceBench questions (JOHNSON_JOHNSON_2023_8K) with contexts from the filing, chosen so
# that every branch of every formula is exercised: supported and unsupported statements, citation
# markers and an abstention sentence to clean, a noncommittal answer, relevant contexts ranked
# first, last and not at all, and reference sentences found and not found.
SAMPLES = [
    {
        "question": "What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?",
        "answer": "Johnson & Johnson received $13.2 billion in cash proceeds from the separation of Kenvue "
        "[JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf, p.2]. The exchange offer was completed in August 2023.",
        "contexts": [
            "Johnson & Johnson realized $13.2 billion in cash proceeds from the Kenvue initial public offering and debt financing.",
            "The exchange offer was completed on August 23, 2023.",
            "Forward-looking statements involve risks and uncertainties.",
        ],
        "reference": "JnJ realised $13.2 billion in cash proceeds from the separation of Kenvue.",
    },
    {
        "question": "Which business segment of JnJ will be treated as a discontinued operation from August 30, 2023 onward?",
        "answer": "The Consumer Health business will be reported as a discontinued operation. "
        "It had sales of $15.0 billion in 2022 [JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf, p.3].\n"
        "On \"the tax impact\": there is insufficient grounded evidence to answer confidently, so the system is abstaining on this point.",
        "contexts": [
            "Forward-looking statements involve risks and uncertainties.",
            "Beginning August 30, 2023, the Consumer Health business will be reported as a discontinued operation.",
            "Kenvue common stock trades on the New York Stock Exchange.",
        ],
        "reference": "The Consumer Health business segment will be treated as a discontinued operation from August 30, 2023 onward. "
        "The segment had 2022 sales of $14.95 billion.",
    },
    {
        "question": "What is the amount of the gain accruing to JnJ as a result of the separation of its Consumer Health business?",
        "answer": "I am not sure about the gain; the documents do not say.",
        "contexts": [
            "Kenvue common stock trades on the New York Stock Exchange.",
            "Forward-looking statements involve risks and uncertainties.",
        ],
        "reference": "JnJ will make a gain of approximately $20 billion from the separation of its Consumer Health business.",
    },
]


def ensure_venv():
    """Install ragas==0.4.3 into target/ragas-venv unless it is there, then re-run inside it."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    ok = os.path.exists(PY) and subprocess.run([PY, "-c", f"import ragas, sys; sys.exit(ragas.__version__ != '{RAGAS}')"], capture_output=True).returncode == 0
    if not ok:
        print(f"installing ragas=={RAGAS} into {VENV} …", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
        # ragas 0.4.3 imports langchain_community.chat_models.vertexai, gone from langchain-community 0.4.
        subprocess.run([PY, "-m", "pip", "install", "-q", f"ragas=={RAGAS}", "langchain-community<0.4"], check=True)
    os.execv(PY, [PY] + sys.argv)


def build():
    env = dict(os.environ, CARGO_TARGET_DIR=TARGET)
    subprocess.run(["cargo", "build", "-q", "-p", "clair-cli", "-p", "clair-mock-server"], cwd=ROOT, env=env, check=True)
    return os.path.join(TARGET, "debug", "clair"), os.path.join(TARGET, "debug", "clair-mock-server")


def start_mock(binary):
    p = subprocess.Popen([binary, "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    banner = p.stdout.readline().strip()
    url = banner.rsplit(" ", 1)[-1]
    if not url.startswith("http://"):
        p.kill()
        sys.exit(f"unexpected mock banner {banner!r}")
    return p, url


def ours(clair, url, samples):
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(json.dumps(s) for s in samples))
        path = f.name
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL")}
    out = subprocess.run([clair, "ragas", path, "--base-url", url + "/v1", "--model", "gpt-4o-mini", "--embedder", "api", "--dims", str(DIMS)], env=env, capture_output=True, text=True)
    os.unlink(path)
    if out.returncode != 0:
        sys.exit(f"clair ragas failed:\n{out.stderr}")
    return [json.loads(l) for l in out.stdout.splitlines() if l.strip()]


def mock_role(url, role, user):
    body = {
        "model": "gpt-4o-mini",
        "temperature": 0,
        "messages": [{"role": "system", "content": "ragas cross-check"}, {"role": "user", "content": user}],
        "response_format": {"type": "json_schema", "json_schema": {"name": role, "strict": True, "schema": {"type": "object"}}},
    }
    req = urllib.request.Request(url + "/v1/chat/completions", data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        return json.loads(json.loads(r.read())["choices"][0]["message"]["content"])


def translate(url, prompt):
    """ragas prompt text → the mock's answer for the matching role, in ragas's output shape."""
    at = prompt.rfind("\ninput: ")
    data = json.loads(prompt[at + len("\ninput: "): prompt.rfind("\nOutput:")])
    head = prompt[:300]
    if "Break down each sentence" in head:
        return mock_role(url, "ragas_statements", f"QUESTION: {data['question']}\n\nANSWER:\n{data['answer']}")
    if "judge the faithfulness" in head:
        user = "CONTEXT:\n" + data["context"] + "\n\nSTATEMENTS:\n" + "\n".join(f"- {s}" for s in data["statements"])
        return {"statements": mock_role(url, "ragas_faithfulness", user)["verdicts"]}
    if "Generate a question for the given answer" in head:
        return mock_role(url, "ragas_answer_relevancy", f"ANSWER:\n{data['response']}")
    if "verify if the context was useful" in head:
        return mock_role(url, "ragas_context_precision", f"QUESTION: {data['question']}\n\nCONTEXT:\n{data['context']}\n\nREFERENCE:\n{data['answer']}")
    if "classify if the sentence can be attributed" in head:
        return mock_role(url, "ragas_context_recall", f"QUESTION: {data['question']}\n\nCONTEXT:\n{data['context']}\n\nREFERENCE:\n{data['answer']}")
    raise RuntimeError(f"unrecognised ragas prompt: {head[:120]!r}")


def theirs(url, samples, cleaned):
    import warnings

    warnings.filterwarnings("ignore")
    from langchain_core.outputs import Generation, LLMResult
    from langchain_openai import OpenAIEmbeddings
    from ragas.dataset_schema import SingleTurnSample
    from ragas.embeddings import LangchainEmbeddingsWrapper
    from ragas.llms.base import BaseRagasLLM
    from ragas.metrics import Faithfulness, LLMContextPrecisionWithReference, LLMContextRecall, ResponseRelevancy

    class MockJudge(BaseRagasLLM):
        def generate_text(self, prompt, n=1, temperature=0.01, stop=None, callbacks=None):
            return LLMResult(generations=[[Generation(text=json.dumps(translate(url, prompt.to_string()))) for _ in range(n)]])

        async def agenerate_text(self, prompt, n=1, temperature=0.01, stop=None, callbacks=None):
            return self.generate_text(prompt, n, temperature, stop, callbacks)

        def is_finished(self, response):
            return True

    llm = MockJudge()
    emb = LangchainEmbeddingsWrapper(OpenAIEmbeddings(model="text-embedding-3-large", base_url=url + "/v1", api_key="not-needed", dimensions=DIMS, check_embedding_ctx_length=False))
    metrics = {
        "faithfulness": Faithfulness(llm=llm),
        "answer_relevancy": ResponseRelevancy(llm=llm, embeddings=emb, strictness=3),
        "context_precision": LLMContextPrecisionWithReference(llm=llm),
        "context_recall": LLMContextRecall(llm=llm),
    }

    async def one(s, answer):
        sample = SingleTurnSample(user_input=s["question"], response=answer, retrieved_contexts=s["contexts"], reference=s["reference"])
        out = {}
        for name, m in metrics.items():
            try:
                v = await m.single_turn_ascore(sample)
                out[name] = None if v != v else float(v)  # NaN → undefined
            except Exception as e:  # ragas raises where we return undefined
                out[name] = f"error: {type(e).__name__}"
        return out

    return [asyncio.run(one(s, a)) for s, a in zip(samples, cleaned)]


def fmt(v):
    return "–" if v is None else (v if isinstance(v, str) else f"{v:.6f}")


def main():
    ensure_venv()
    clair, mock_bin = build()
    mock, url = start_mock(mock_bin)
    try:
        rust = ours(clair, url, SAMPLES)
        cleaned = [r["cleaned_answer"] for r in rust]
        py = theirs(url, SAMPLES, cleaned)
    finally:
        mock.kill()
        mock.wait()
    import ragas

    print(f"| sample | metric | CLAIR-Fin | ragas {ragas.__version__} | agree |")
    print("| --- | --- | --- | --- | --- |")
    bad = 0
    for i, (r, p) in enumerate(zip(rust, py), 1):
        for m in ("faithfulness", "answer_relevancy", "context_precision", "context_recall"):
            a, b = r["scores"].get(m), p[m]
            # ragas cannot score an empty answer (every abstention sentence cleaned away): it errs or
            # gives NaN where we make no call and leave the score undefined.
            same = (a is None and (b is None or isinstance(b, str))) or (isinstance(a, float) and isinstance(b, float) and abs(a - b) <= 1e-6)
            bad += not same
            print(f"| {i} | {m} | {fmt(a)} | {fmt(b)} | {'yes' if same else 'NO'} |")
    print(f"\n{len(rust) * 4 - bad} of {len(rust) * 4} scores agree within 1e-6.", file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
