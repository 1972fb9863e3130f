#!/usr/bin/env node
// An OpenAI-compatible HTTP server over one local GGUF model, CPU only (node-llama-cpp's prebuilt
// llama.cpp): the real model CLAIR-Fin's tests talk to, and a small local endpoint anyone can point
// the app at.
//
//   node server.mjs --model SmolLM2-135M-Instruct.Q4_1.gguf [--port 8088] [--host 127.0.0.1]
//                   [--context-size 8192] [--threads N] [--name ID] [--api-key KEY] [--seed N]
//
//   POST /v1/chat/completions  messages (system/developer/user/assistant, text content only),
//                              response_format json_schema (enforced by a grammar) or json_object,
//                              max_tokens (finish_reason "length" when reached), temperature,
//                              top_p, seed, stop, frequency/presence_penalty; usage in tokens
//   POST /v1/embeddings        input: a string or an array of strings; vectors normalised to length 1
//   GET  /v1/models            the one model;  GET /health  {"status": "ok"}
//
// Requests are answered one at a time, in arrival order (like llama.cpp's server with one slot);
// the KV cache keeps the previous prompt, so a request sharing its start (same system prompt) is
// faster. A client that disconnects is dropped from the queue, or its generation stopped. Every
// response carries CORS headers (the browser app calls the endpoint directly); errors are
// OpenAI-shaped (`{"error": {"message", "type", "param", "code"}}`). One line per request on stderr.
// Nothing is downloaded or built at run time: `build: "never"`, `skipDownload: true`.
import { createServer } from 'node:http';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { getLlama, LlamaChat } from 'node-llama-cpp';
import { toGrammarSchema } from './schema.mjs';

const MAX_BODY = 32 << 20;

class ApiError extends Error {
  constructor(status, message, { type = 'invalid_request_error', param = null, code = null } = {}) {
    super(message);
    Object.assign(this, { status, type, param, code });
  }
}

function options() {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      port: { type: 'string', default: '8088' },
      host: { type: 'string', default: '127.0.0.1' },
      'context-size': { type: 'string' },
      threads: { type: 'string' },
      name: { type: 'string' },
      'api-key': { type: 'string' },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const usage = 'usage: node server.mjs --model FILE.gguf [--port 8088] [--host 127.0.0.1] [--context-size N] [--threads N] [--name ID] [--api-key KEY] [--seed N]';
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  if (!values.model) {
    console.error(usage);
    process.exit(2);
  }
  const int = (k) => {
    if (values[k] === undefined) return undefined;
    const n = Number(values[k]);
    if (!Number.isInteger(n) || n < 0) {
      console.error(`--${k} must be a whole number (got ${values[k]})`);
      process.exit(2);
    }
    return n;
  };
  return {
    modelPath: values.model,
    port: int('port'),
    host: values.host,
    contextSize: int('context-size'),
    threads: int('threads'),
    name: values.name ?? basename(values.model).replace(/\.gguf$/i, ''),
    apiKey: values['api-key'] ?? process.env.LOCAL_LLM_API_KEY ?? null,
    // Requests that send no seed get this one plus the number of chat requests before them: with
    // one thread a run's answers repeat at any temperature (tests that must not depend on chance
    // use it), while a retried request is still sampled afresh.
    seed: int('seed'),
  };
}

// ---------------------------------------------------------------- the model and its one slot

/** Load the model with a chat context (one sequence) and an embedding context. */
async function loadModel(o) {
  const llama = await getLlama({ gpu: false, build: 'never', skipDownload: true, ...(o.threads ? { maxThreads: o.threads } : {}) });
  const model = await llama.loadModel({ modelPath: o.modelPath });
  const contextSize = Math.min(o.contextSize ?? model.trainContextSize, model.trainContextSize);
  const context = await model.createContext({ contextSize, sequences: 1, ...(o.threads ? { threads: o.threads } : {}) });
  const chat = new LlamaChat({ contextSequence: context.getSequence() });
  const embedding = await model.createEmbeddingContext({ contextSize, ...(o.threads ? { threads: o.threads } : {}) });
  return { llama, model, chat, embedding, contextSize, grammars: new Map() };
}

/** One request at a time, in order. `run` gets whether its client is still there. */
function makeQueue() {
  let tail = Promise.resolve();
  let waiting = 0;
  return {
    get waiting() { return waiting; },
    run(job) {
      waiting++;
      const result = tail.then(() => { waiting--; return job(); });
      tail = result.catch(() => {});
      return result;
    },
  };
}

// ---------------------------------------------------------------- chat completions

/** The text of one message's content; images and other non-text parts are refused. */
function messageText(content, i) {
  if (typeof content === 'string') return content;
  if (content === null || content === undefined) return '';
  if (!Array.isArray(content)) throw new ApiError(400, `messages[${i}].content must be a string or an array of content parts`, { param: `messages[${i}].content` });
  return content.map((part, j) => {
    if (part?.type === 'text' && typeof part.text === 'string') return part.text;
    if (part?.type === 'image_url' || part?.type === 'input_image') {
      throw new ApiError(400, 'this model reads text only: image content parts are not supported (use a vision model for page images)', { param: `messages[${i}].content[${j}]`, code: 'image_not_supported' });
    }
    throw new ApiError(400, `unsupported content part type ${JSON.stringify(part?.type)}`, { param: `messages[${i}].content[${j}]` });
  }).join('\n');
}

/** OpenAI messages → node-llama-cpp chat history, ending with the model turn to be generated. */
function chatHistory(messages) {
  if (!Array.isArray(messages) || messages.length === 0) throw new ApiError(400, 'messages must be a non-empty array', { param: 'messages' });
  const history = messages.map((m, i) => {
    const text = messageText(m?.content, i);
    switch (m?.role) {
      case 'system':
      case 'developer':
        return { type: 'system', text };
      case 'user':
        return { type: 'user', text };
      case 'assistant':
        return { type: 'model', response: [text] };
      default:
        throw new ApiError(400, `messages[${i}].role ${JSON.stringify(m?.role)} is not supported (system, developer, user, assistant)`, { param: `messages[${i}].role` });
    }
  });
  history.push({ type: 'model', response: [] });
  return history;
}

/** The grammar for `response_format`, cached per schema; logs what the grammar cannot enforce. */
async function grammarFor(m, format, log) {
  if (format === undefined || format === null || format.type === 'text') return { grammar: undefined, name: null };
  if (format.type === 'json_object') {
    return { grammar: await cached(m, '{"json_object":1}', () => m.llama.createGrammarForJsonSchema({ type: 'object', additionalProperties: true })), name: 'json_object' };
  }
  if (format.type !== 'json_schema') throw new ApiError(400, `response_format.type ${JSON.stringify(format.type)} is not supported (text, json_object, json_schema)`, { param: 'response_format.type' });
  const js = format.json_schema;
  if (!js || typeof js !== 'object' || !js.schema || typeof js.schema !== 'object') {
    throw new ApiError(400, 'response_format.json_schema.schema must be a JSON schema object', { param: 'response_format.json_schema.schema' });
  }
  const name = typeof js.name === 'string' ? js.name : 'schema';
  const key = JSON.stringify(js.schema);
  const grammar = await cached(m, key, async () => {
    const { schema, unenforced } = toGrammarSchema(js.schema);
    // Said once per distinct schema, when its grammar is built: answers under it are not
    // guaranteed to satisfy these parts, the client's own validation has to catch them.
    if (unenforced.length) log(`schema ${name}: not enforced by the grammar: ${unenforced.join('; ')}`);
    return m.llama.createGrammarForJsonSchema(schema);
  });
  return { grammar, name };
}

async function cached(m, key, make) {
  if (!m.grammars.has(key)) m.grammars.set(key, Promise.resolve().then(make));
  try {
    return await m.grammars.get(key);
  } catch (e) {
    m.grammars.delete(key);
    throw new ApiError(400, `response_format schema cannot be turned into a grammar: ${e.message}`, { param: 'response_format.json_schema.schema' });
  }
}

function number(body, key, { min = -Infinity, max = Infinity } = {}) {
  const v = body[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw new ApiError(400, `${key} must be a number between ${min} and ${max}`, { param: key });
  return v;
}

/** Validate the request before it waits in the queue, so a bad request is answered at once. */
let chatRequests = 0;

function parseChat(body, defaultSeed) {
  const n = chatRequests++;
  if (body.stream) throw new ApiError(400, 'stream: true is not supported by this server; send stream: false', { param: 'stream' });
  if (body.n !== undefined && body.n !== 1) throw new ApiError(400, 'n must be 1', { param: 'n' });
  if (body.tools?.length || body.functions?.length) throw new ApiError(400, 'tools are not supported by this server; use response_format json_schema', { param: 'tools' });
  const maxTokens = number(body, 'max_completion_tokens', { min: 1 }) ?? number(body, 'max_tokens', { min: 1 });
  const stop = body.stop === undefined || body.stop === null ? [] : Array.isArray(body.stop) ? body.stop : [body.stop];
  if (stop.some((s) => typeof s !== 'string' || s === '')) throw new ApiError(400, 'stop must be a non-empty string or an array of them', { param: 'stop' });
  return {
    history: chatHistory(body.messages),
    format: body.response_format,
    maxTokens: maxTokens === undefined ? undefined : Math.floor(maxTokens),
    // OpenAI's defaults: temperature 1, top_p 1.
    temperature: number(body, 'temperature', { min: 0, max: 2 }) ?? 1,
    topP: number(body, 'top_p', { min: 0, max: 1 }),
    seed: number(body, 'seed') ?? (defaultSeed === undefined ? undefined : defaultSeed + n),
    frequencyPenalty: number(body, 'frequency_penalty', { min: -2, max: 2 }),
    presencePenalty: number(body, 'presence_penalty', { min: -2, max: 2 }),
    stop,
  };
}

async function chatCompletion(m, req, signal, log) {
  const { grammar, name } = await grammarFor(m, req.format, log);
  const { contextText } = m.chat.chatWrapper.generateContextState({ chatHistory: req.history });
  const promptTokens = contextText.tokenize(m.model.tokenizer).length;
  const room = m.contextSize - promptTokens;
  if (room <= 0) {
    throw new ApiError(400, `the prompt is ${promptTokens} tokens, more than this model's context of ${m.contextSize}`, { param: 'messages', code: 'context_length_exceeded' });
  }
  // Never past the context: llama.cpp would otherwise shift it, silently dropping the prompt's start.
  const maxTokens = Math.min(req.maxTokens ?? room, room);
  // Tokens the model generated, as llama.cpp counted them (the text of a cut answer can hold one
  // fewer: a token that might begin a stop sequence is held back).
  const meter = m.chat.sequence.tokenMeter;
  const outputBefore = meter.usedOutputTokens;
  const inputBefore = meter.usedInputTokens;
  const penalty = req.frequencyPenalty !== undefined || req.presencePenalty !== undefined
    ? { frequencyPenalty: req.frequencyPenalty, presencePenalty: req.presencePenalty }
    : {};
  // The first token marks the end of reading the prompt: the two rates in the log are llama.cpp's
  // prompt and generation speeds on this machine.
  const began = performance.now();
  let firstToken = null;
  const r = await m.chat.generateResponse(req.history, {
    grammar,
    maxTokens,
    temperature: req.temperature,
    ...(req.topP !== undefined ? { topP: req.topP } : {}),
    ...(req.seed !== undefined ? { seed: req.seed } : {}),
    ...(req.stop.length ? { customStopTriggers: req.stop } : {}),
    repeatPenalty: penalty,
    signal,
    onToken: () => { firstToken ??= performance.now(); },
  });
  const ended = performance.now();
  const completionTokens = meter.usedOutputTokens - outputBefore;
  const finish = r.metadata.stopReason === 'maxTokens' ? 'length' : 'stop';
  const read = ((firstToken ?? ended) - began) / 1000;
  const wrote = (ended - (firstToken ?? ended)) / 1000;
  // Only the part of the prompt not already in the KV cache (from the previous request) is read.
  const evaluated = meter.usedInputTokens - inputBefore;
  const speed = `read ${evaluated} new prompt tokens in ${read.toFixed(1)} s${read > 0 ? ` (${(evaluated / read).toFixed(0)} tok/s)` : ''}, wrote ${wrote.toFixed(1)} s${wrote > 0 && completionTokens > 1 ? ` (${((completionTokens - 1) / wrote).toFixed(1)} tok/s)` : ''}`;
  return { content: r.response, finish, promptTokens, completionTokens, schema: name, speed };
}

// ---------------------------------------------------------------- embeddings

function parseEmbeddings(body, m) {
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || input.length === 0 || input.some((s) => typeof s !== 'string')) {
    throw new ApiError(400, 'input must be a string or a non-empty array of strings (token arrays are not supported)', { param: 'input' });
  }
  if (body.encoding_format !== undefined && !['float', 'base64'].includes(body.encoding_format)) {
    throw new ApiError(400, 'encoding_format must be "float" or "base64"', { param: 'encoding_format' });
  }
  const dims = m.model.embeddingVectorSize;
  if (body.dimensions !== undefined && body.dimensions !== dims) {
    throw new ApiError(400, `this model's embeddings have ${dims} dimensions; dimensions cannot be changed`, { param: 'dimensions' });
  }
  return { input, base64: body.encoding_format === 'base64' };
}

async function embeddings(m, req, signal) {
  const data = [];
  let tokens = 0;
  for (const [index, text] of req.input.entries()) {
    if (signal.aborted) throw signal.reason;
    const n = m.embedding.calculateInputLength(text);
    if (n > m.contextSize) throw new ApiError(400, `input[${index}] is ${n} tokens, more than this model's context of ${m.contextSize}`, { param: 'input', code: 'context_length_exceeded' });
    tokens += n;
    const v = (await m.embedding.getEmbeddingFor(text)).vector;
    // Unit length, as OpenAI's embeddings are: cosine similarity is then a dot product.
    const norm = Math.hypot(...v) || 1;
    const unit = Float32Array.from(v, (x) => x / norm);
    data.push({ object: 'embedding', index, embedding: req.base64 ? Buffer.from(unit.buffer).toString('base64') : Array.from(unit) });
  }
  return { data, tokens };
}

// ---------------------------------------------------------------- HTTP

function cors(req) {
  return {
    'access-control-allow-origin': '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': req.headers['access-control-request-headers'] || 'authorization, content-type',
    'access-control-expose-headers': 'retry-after',
    'access-control-max-age': '600',
  };
}

function send(req, res, status, body) {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...cors(req) });
  res.end(JSON.stringify(body));
}

function sendError(req, res, e) {
  const status = e instanceof ApiError ? e.status : 500;
  const type = e instanceof ApiError ? e.type : 'server_error';
  send(req, res, status, { error: { message: e.message || String(e), type, param: e.param ?? null, code: e.code ?? null } });
}

async function readJson(req) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > MAX_BODY) throw new ApiError(413, `request body is larger than ${MAX_BODY >> 20} MB`);
    chunks.push(c);
  }
  try {
    const v = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v;
  } catch (e) {
    throw new ApiError(400, `request body is not a JSON object: ${e.message}`);
  }
}

export async function start(o) {
  const t0 = Date.now();
  const m = await loadModel(o);
  const queue = makeQueue();
  const created = Math.floor(Date.now() / 1000);
  const log = (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`);
  log(`loaded ${o.modelPath} in ${Date.now() - t0} ms: context ${m.contextSize} tokens, embeddings ${m.model.embeddingVectorSize} dims, chat template ${m.chat.chatWrapper.wrapperName}, ${m.llama.cpuMathCores} math core(s)`);

  const server = createServer(async (req, res) => {
    const started = Date.now();
    const url = new URL(req.url, 'http://local');
    const path = url.pathname.replace(/\/+$/, '');
    let detail = '';
    // A client that goes away (the browser's Cancel, a timeout) stops its work: dropped from the
    // queue or its generation aborted.
    const gone = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) gone.abort(new ApiError(499, 'client closed the request'));
      log(`${req.method} ${url.pathname} ${res.writableFinished ? res.statusCode : '-'} ${Date.now() - started} ms${res.writableFinished ? detail : ' (client gone)'}`);
    });
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204, cors(req));
        res.end();
        return;
      }
      if (o.apiKey && path.startsWith('/v1') && req.headers.authorization !== `Bearer ${o.apiKey}`) {
        throw new ApiError(401, 'invalid API key', { type: 'invalid_request_error', code: 'invalid_api_key' });
      }
      if (path === '/health' && req.method === 'GET') return send(req, res, 200, { status: 'ok', queued: queue.waiting });
      if (path === '/v1/models' && req.method === 'GET') {
        return send(req, res, 200, { object: 'list', data: [{ id: o.name, object: 'model', created, owned_by: 'local' }] });
      }
      if (path === `/v1/models/${o.name}` && req.method === 'GET') return send(req, res, 200, { id: o.name, object: 'model', created, owned_by: 'local' });
      if (path === '/v1/chat/completions' && req.method === 'POST') {
        const parsed = parseChat(await readJson(req), o.seed);
        const queuedAt = Date.now();
        const r = await queue.run(async () => {
          if (gone.signal.aborted) throw gone.signal.reason;
          const startedAt = Date.now();
          return { ...(await chatCompletion(m, parsed, gone.signal, log)), startedAt };
        });
        detail = ` chat${r.schema ? ` ${r.schema}` : ''}: ${r.promptTokens} prompt + ${r.completionTokens} completion tokens, finish ${r.finish}; queued ${((r.startedAt - queuedAt) / 1000).toFixed(1)} s, ${r.speed}`;
        return send(req, res, 200, {
          id: `chatcmpl-${randomBytes(12).toString('hex')}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: o.name,
          choices: [{ index: 0, message: { role: 'assistant', content: r.content, refusal: null }, logprobs: null, finish_reason: r.finish }],
          usage: { prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens, total_tokens: r.promptTokens + r.completionTokens },
        });
      }
      if (path === '/v1/embeddings' && req.method === 'POST') {
        const parsed = parseEmbeddings(await readJson(req), m);
        const r = await queue.run(() => embeddings(m, parsed, gone.signal));
        detail = ` embeddings: ${parsed.input.length} input(s), ${r.tokens} tokens`;
        return send(req, res, 200, { object: 'list', data: r.data, model: o.name, usage: { prompt_tokens: r.tokens, total_tokens: r.tokens } });
      }
      const known = ['/health', '/v1/models', '/v1/chat/completions', '/v1/embeddings'].includes(path);
      throw new ApiError(known ? 405 : 404, known ? `${req.method} is not allowed on ${url.pathname}` : `no route ${req.method} ${url.pathname}`);
    } catch (e) {
      if (gone.signal.aborted) return;
      if (!(e instanceof ApiError)) detail = ` ${e.stack || e}`;
      sendError(req, res, e);
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  const { port } = server.address();
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  // stdout carries only this line, so a script or test can read the URL.
  console.log(`listening on http://${host}:${port} (model ${o.name})`);
  const stop = async () => {
    server.close();
    await m.llama.dispose();
  };
  return { server, port, stop };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const o = options();
  start(o).then(({ stop }) => {
    for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => stop().finally(() => process.exit(0)));
  }, (e) => {
    console.error(`cannot start: ${e.message}`);
    process.exit(1);
  });
}
