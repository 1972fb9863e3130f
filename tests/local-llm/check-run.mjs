#!/usr/bin/env node
// The real-model check of a run export (`clair ask --json`, or the app's JSON export):
//   node tests/local-llm/check-run.mjs RUN.json [--server-log LOG]
// validates it against core/src/export/run.schema.json with a JSON-Schema validator (Ajv, draft
// 2020-12), requires what a run through a real model must show whatever its verdicts — at least one
// claim with a verdict, at least one model call that succeeded, every failure recorded with its
// reason — and prints the verdicts, the failed calls by reason, and (with the server's log) the
// prompt and generation speeds. Exits 1 on a failed check.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const RUN_SCHEMA = resolve(ROOT, 'core/src/export/run.schema.json');
const VERDICTS = ['StronglySupported', 'Supported', 'InsufficientEvidence', 'Unaudited'];

/** Schema errors of `run` (an empty list when it is valid). */
export function schemaErrors(run) {
  const ajv = new Ajv2020({ allErrors: true, strictTuples: false });
  const validate = ajv.compile(JSON.parse(readFileSync(RUN_SCHEMA, 'utf8')));
  return validate(run) ? [] : validate.errors.map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`);
}

/**
 * Everything wrong with `run` as the outcome of one question through a real model: schema errors,
 * no claim, a claim without a verdict, no call that succeeded, a failure counted but not recorded.
 */
export function problems(run) {
  const out = schemaErrors(run);
  if (out.length) return out;
  if (run.claims.length === 0) out.push('the run has no claim');
  for (const c of run.claims) if (!VERDICTS.includes(c.label)) out.push(`${c.claim_id} has no verdict`);
  const ok = run.calls.filter((c) => !c.failure);
  if (ok.length === 0) out.push(`none of the ${run.calls.length} model call(s) succeeded`);
  const failed = run.calls.length - ok.length;
  if (run.totals.failed_calls !== failed) out.push(`totals.failed_calls is ${run.totals.failed_calls}, the call log holds ${failed} failure(s)`);
  if (run.totals.calls !== run.calls.length) out.push(`totals.calls is ${run.totals.calls}, the call log holds ${run.calls.length}`);
  // A run the model's failures decided says what failed, once, and is no abstention.
  if (run.outcome === 'failed') {
    if (!run.failure?.message) out.push('the run failed but does not say what failed');
    if (run.answer.abstained) out.push('a failed run is marked abstained');
    if (!run.claims.some((c) => c.failure)) out.push('a failed run with no claim marked as decided by a failure');
  }
  return out;
}

/** The run in a few lines: answer, verdicts, calls and why the failed ones failed. */
export function summary(run) {
  const lines = [`outcome: ${run.outcome}${run.failure ? ` (${run.failure.message})` : ''}`, `answer: ${run.answer.text.replace(/\s+/g, ' ').slice(0, 300)}`];
  for (const c of run.claims) {
    lines.push(`${c.claim_id} [${c.claim_type}] ${c.label}${c.published ? ' (published)' : ''}${c.fallback ? ' (fallback claim)' : ''}: ${c.text.slice(0, 120)} — ${c.reason}`);
  }
  const byReason = new Map();
  for (const c of run.calls.filter((x) => x.failure)) {
    const key = `${c.role}: ${c.failure.replace(/\s+/g, ' ').slice(0, 160)}`;
    byReason.set(key, (byReason.get(key) ?? 0) + 1);
  }
  const summed = run.calls.reduce((a, c) => a + c.latency_ms, 0) / 1000;
  const roles = [...new Set(run.calls.map((c) => c.role))].join(', ');
  lines.push(`calls: ${run.calls.length} (${roles}), failed ${run.totals.failed_calls}; ${run.totals.input_tokens} in / ${run.totals.output_tokens} out tokens; summed call latency ${summed.toFixed(1)} s`);
  for (const [k, n] of byReason) lines.push(`  failed ×${n} ${k}`);
  return lines;
}

/** Prompt and generation speed over a server log's chat lines (server.mjs writes them). */
export function speeds(log) {
  let read = 0, readS = 0, wrote = 0, wroteS = 0, calls = 0;
  for (const m of log.matchAll(/completion tokens.*?read (\d+) new prompt tokens in ([\d.]+) s.*?, wrote ([\d.]+) s(?: \(([\d.]+) tok\/s\))?/g)) {
    calls++;
    read += Number(m[1]);
    readS += Number(m[2]);
    wroteS += Number(m[3]);
    if (m[4]) wrote += Number(m[4]) * Number(m[3]);
  }
  return { calls, prompt_tokens_per_s: readS ? read / readS : null, generated_tokens_per_s: wroteS ? wrote / wroteS : null };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [path, flag, logPath] = process.argv.slice(2);
  if (!path || (flag && flag !== '--server-log')) {
    console.error('usage: node tests/local-llm/check-run.mjs RUN.json [--server-log LOG]');
    process.exit(2);
  }
  const run = JSON.parse(readFileSync(path, 'utf8'));
  const bad = problems(run);
  for (const l of run.claims ? summary(run) : []) console.log(l);
  if (logPath) {
    const s = speeds(readFileSync(logPath, 'utf8'));
    console.log(`server: ${s.calls} chat call(s); prompt ${s.prompt_tokens_per_s?.toFixed(0) ?? '–'} tok/s, generation ${s.generated_tokens_per_s?.toFixed(1) ?? '–'} tok/s`);
  }
  if (bad.length) {
    console.error(`FAILED: ${path}\n  ${bad.join('\n  ')}`);
    process.exit(1);
  }
  console.log(`ok: ${path} is a valid clair-fin/run@1 export with ${run.claims.length} claim(s) and ${run.calls.filter((c) => !c.failure).length} successful call(s)`);
}
