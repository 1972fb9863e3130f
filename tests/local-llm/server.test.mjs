// The local server's OpenAI-compatible contract, against the real model (SmolLM2-135M on the CPU;
// installed on first run by scripts/local-llm.sh), one thread: llama.cpp's threads wait for each
// other by spinning, so on a busy machine a second thread can stall every step. `node --test tests/local-llm/`.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLocalLlm } from './start.mjs';

let srv, Ajv2020;
before(async () => {
  srv = await startLocalLlm(['--context-size', '2048', '--threads', '1']);
  // Installed with the server (a fresh clone has no node_modules here until then).
  Ajv2020 = (await import('ajv/dist/2020.js')).default;
});
after(async () => { await srv?.stop(); });

/** The server's log once it matches `re` (a line is written when the response has gone out). */
async function logged(re) {
  for (let i = 0; i < 40 && !re.test(srv.log()); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(srv.log(), re);
  return srv.log();
}

const post = (path, body, init = {}) => fetch(srv.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...init });

// The entailment role's schema as core sends it (core/src/llm/roles.rs).
const ENTAILMENT = {
  type: 'object',
  properties: {
    label: { type: 'string', enum: ['entails', 'neutral', 'contradicts'] },
    confidence: { type: 'number' },
    rationale: { type: 'string' },
  },
  required: ['label', 'confidence', 'rationale'],
  additionalProperties: false,
};
const entailmentRequest = (extra = {}) => ({
  model: 'anything',
  messages: [
    { role: 'system', content: 'Decide whether the premise entails the hypothesis. Answer in JSON.' },
    { role: 'user', content: 'PREMISE:\nNet sales were $3.2 billion.\n\nHYPOTHESIS:\nNet sales were $3.2 billion.' },
  ],
  temperature: 0,
  max_tokens: 120,
  response_format: { type: 'json_schema', json_schema: { name: 'entailment', strict: true, schema: ENTAILMENT } },
  ...extra,
});

test('a structured answer parses and satisfies its schema, with usage and finish_reason stop', async () => {
  const r = await post('/chat/completions', entailmentRequest());
  assert.equal(r.status, 200);
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  const body = await r.json();
  assert.equal(body.object, 'chat.completion');
  const [choice] = body.choices;
  assert.equal(choice.finish_reason, 'stop', `a short answer ends by itself: ${choice.message.content}`);
  const answer = JSON.parse(choice.message.content);
  const validate = new Ajv2020().compile(ENTAILMENT);
  assert.ok(validate(answer), `${choice.message.content}: ${JSON.stringify(validate.errors)}`);
  assert.ok(body.usage.prompt_tokens > 20 && body.usage.completion_tokens > 5, JSON.stringify(body.usage));
  assert.equal(body.usage.total_tokens, body.usage.prompt_tokens + body.usage.completion_tokens);
  await logged(/POST \/v1\/chat\/completions 200 \d+ ms chat entailment: \d+ prompt \+ \d+ completion tokens, finish stop/);
});

test('the output cap is honoured: finish_reason length and exactly max_tokens completion tokens', async () => {
  const r = await post('/chat/completions', entailmentRequest({ max_tokens: 6 }));
  const body = await r.json();
  assert.equal(body.choices[0].finish_reason, 'length');
  assert.equal(body.usage.completion_tokens, 6);
  assert.throws(() => JSON.parse(body.choices[0].message.content), 'a cut answer is not complete JSON');
});

test('a page image is refused with a clear OpenAI-shaped 400, CORS headers included', async () => {
  const r = await post('/chat/completions', {
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Read this page.' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }],
  });
  assert.equal(r.status, 400);
  assert.equal(r.headers.get('access-control-allow-origin'), '*');
  const { error } = await r.json();
  assert.match(error.message, /reads text only: image content parts are not supported/);
  assert.equal(error.type, 'invalid_request_error');
  assert.equal(error.param, 'messages[0].content[1]');
});

test('a prompt longer than the context is refused, not silently cut', async () => {
  const r = await post('/chat/completions', { messages: [{ role: 'user', content: 'revenue '.repeat(2100) }], max_tokens: 5 });
  assert.equal(r.status, 400);
  const { error } = await r.json();
  assert.equal(error.code, 'context_length_exceeded');
  assert.match(error.message, /more than this model's context of 2048/);
});

test('embeddings: one unit-length vector per input, in order, with usage', async () => {
  const r = await post('/embeddings', { model: 'x', input: ['net sales rose', 'operating income fell'] });
  assert.equal(r.status, 200);
  const body = await r.json();
  assert.deepEqual(body.data.map((d) => d.index), [0, 1]);
  const [a, b] = body.data.map((d) => d.embedding);
  assert.equal(a.length, b.length);
  assert.ok(a.length >= 64, `${a.length} dimensions`);
  assert.ok(Math.abs(Math.hypot(...a) - 1) < 1e-3, 'unit length');
  assert.notDeepEqual(a, b);
  assert.ok(body.usage.prompt_tokens >= 4);
  const single = await (await post('/embeddings', { input: 'net sales rose' })).json();
  assert.ok(single.data[0].embedding.every((x, i) => Math.abs(x - a[i]) < 1e-4), 'a string input embeds like the same string in an array');
});

test('models, health and the CORS preflight the browser sends first', async () => {
  const models = await (await fetch(`${srv.base}/models`)).json();
  assert.equal(models.object, 'list');
  assert.equal(models.data[0].id, 'SmolLM2-135M-Instruct.Q4_1');
  const pre = await fetch(`${srv.base}/chat/completions`, { method: 'OPTIONS', headers: { origin: 'http://127.0.0.1:8080', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
  assert.equal(pre.status, 204);
  assert.equal(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-headers'), /authorization/);
  assert.match(pre.headers.get('access-control-allow-methods'), /POST/);
  assert.equal((await (await fetch(`${srv.origin}/health`)).json()).status, 'ok');
  const missing = await fetch(`${srv.base}/completions`, { method: 'POST', body: '{}' });
  assert.equal(missing.status, 404);
  assert.ok((await missing.json()).error.message);
});

test('requests are answered one at a time, and a client that leaves stops its generation', async () => {
  // A long free-text generation, abandoned after half a second…
  const gone = new AbortController();
  const long = post('/chat/completions', { messages: [{ role: 'user', content: 'Write a long story about a bank.' }], max_tokens: 1500, temperature: 0 }, { signal: gone.signal });
  setTimeout(() => gone.abort(), 500);
  await assert.rejects(long);
  // …and two requests sent together: both answered, the second after the first.
  const t0 = Date.now();
  const [a, b] = await Promise.all([post('/chat/completions', entailmentRequest()), post('/chat/completions', entailmentRequest())]);
  assert.equal(a.status, 200);
  assert.equal(b.status, 200);
  // 1,500 tokens at the generation speeds seen here (25–55 tokens/s) take 27–60 s; the abandoned
  // one was stopped, so the two short answers (≈ 2 s each) do not wait for it.
  assert.ok(Date.now() - t0 < 20000, `answered in ${Date.now() - t0} ms after the client left`);
  await logged(/POST \/v1\/chat\/completions - \d+ ms \(client gone\)/);
  const lines = await logged(/client gone[^]*chat entailment[^]*chat entailment/);
  const queued = [...lines.matchAll(/chat entailment: .*queued ([\d.]+) s/g)].slice(-2).map((m) => Number(m[1]));
  assert.ok(queued.some((q) => q > 0), `one of the two waited for the other: queued ${queued.join(', ')} s`);
});

test('bad requests are refused before they queue', async () => {
  for (const [body, param] of [
    [{ messages: [] }, 'messages'],
    [{ messages: [{ role: 'tool', content: 'x' }] }, 'messages[0].role'],
    [{ messages: [{ role: 'user', content: 'x' }], stream: true }, 'stream'],
    [{ messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'x' } } }, 'response_format.json_schema.schema'],
    [{ messages: [{ role: 'user', content: 'x' }], temperature: 7 }, 'temperature'],
  ]) {
    const r = await post('/chat/completions', body);
    assert.equal(r.status, 400, JSON.stringify(body));
    assert.equal((await r.json()).error.param, param);
  }
  const notJson = await fetch(`${srv.base}/chat/completions`, { method: 'POST', body: '{"messages": [' });
  assert.equal(notJson.status, 400);
  assert.match((await notJson.json()).error.message, /not a JSON object/);
});

test('a schema keyword the grammar cannot enforce is said in the log, once per schema', async () => {
  const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^claim-[0-9]+$' } }, required: ['id'], additionalProperties: false };
  const body = { messages: [{ role: 'user', content: 'Name the claim.' }], max_tokens: 4, response_format: { type: 'json_schema', json_schema: { name: 'claim_id', strict: true, schema } } };
  for (let i = 0; i < 2; i++) assert.equal((await post('/chat/completions', body)).status, 200);
  const log = await logged(/chat claim_id[^]*chat claim_id/);
  assert.equal(log.match(/schema claim_id: not enforced by the grammar: #\/properties\/id: pattern\n/g)?.length, 1);
});
