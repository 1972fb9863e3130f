// Shared pieces of the browser end-to-end tests: a static server for dist/, the project's mock
// OpenAI-compatible server as a child process, and Debian Chromium driven by playwright-core.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFile, mkdir, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
export const CORPUS = resolve(ROOT, '../shared/corpus');
export const ARTIFACTS = join(ROOT, 'tests/e2e/artifacts');

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json', '.txt': 'text/plain' };

/** Serve dist/ on 127.0.0.1 (any static server works; this one is in-process). */
export async function serveDist({ hide = [] } = {}) {
  const dist = join(ROOT, 'dist');
  // Requests per path, so a test can tell what the browser fetched (and what it took from a cache);
  // `hide`: file names answered 404, as a build without them would.
  const hits = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, '');
    if (path.endsWith('/')) path += 'index.html';
    hits.set(path, (hits.get(path) || 0) + 1);
    try {
      if (hide.some((h) => path.endsWith(h))) throw new Error('hidden');
      const body = await readFile(join(dist, path));
      res.writeHead(200, { 'content-type': TYPES[extname(path)] || 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404); res.end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/`, hits, close: () => new Promise((r) => server.close(r)) };
}

/** Start the mock server; resolves with its base URL (…/v1) and a helper for its admin API. */
export async function startMock(args = []) {
  const bin = join(ROOT, 'target/release/clair-mock-server');
  const child = spawn(bin, ['--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const origin = await new Promise((resolveUrl, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) resolveUrl(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`mock server exited with ${code}`)));
    setTimeout(() => reject(new Error('mock server did not start in 10 s')), 10000);
  });
  const admin = async (path, body) => {
    const r = await fetch(origin + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    return r.json();
  };
  return { origin, base: origin + '/v1', admin, stop: () => child.kill() };
}

/** Debian Chromium, headless, fresh profile, no background networking (TOOLCHAIN.md). */
export async function launch() {
  const { mkdtemp } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const profile = await mkdtemp(join(tmpdir(), 'clair-e2e-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  await mkdir(ARTIFACTS, { recursive: true });
  // The profile goes with the browser: CI runs on the machine's one disk, and every test file
  // launches its own.
  const close = context.close.bind(context);
  context.close = async (...args) => {
    await close(...args);
    await rm(profile, { recursive: true, force: true });
  };
  return context;
}

/** Open the app and collect console errors (a console error fails a test unless expected). */
export async function openApp(context, url) {
  const page = await context.newPage();
  const errors = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('#drop-zone');
  return { page, errors };
}

/**
 * Fill the connection part of the Settings dialog and close it. When the base URL's origin differs
 * from the one the page's Content-Security-Policy was built with, closing reloads the page (the CSP
 * allows exactly one API origin); this waits for that reload.
 */
export async function connect(page, base, key) {
  if (!(await page.isVisible('#settings-dialog'))) await page.click('#settings');
  await page.fill('#base-url', base);
  await page.fill('#api-key', key);
  await page.fill('#chat-model', 'gpt-4o-mini');
  const reloads = await page.evaluate((b) => new URL(b).origin !== window.__clairCspOrigin, base);
  if (reloads) {
    await Promise.all([page.waitForEvent('load'), page.click('#settings-close')]);
    await page.waitForSelector('#drop-zone');
  } else {
    await page.click('#settings-close');
  }
  assert.equal(await page.isVisible('#settings-dialog'), false, 'the settings dialog closed');
}

/** The document worker (not the nested index builder). */
export async function documentWorker(page) {
  for (let i = 0; i < 100; i++) {
    for (const w of page.workers()) {
      const name = await w.evaluate(() => self.name).catch(() => null);
      if (name !== null && name !== 'clair-index-builder') return w;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('no document worker');
}

/**
 * The text of `selector` once it matches `re`. A file input is read asynchronously (FileReader),
 * so what it sets on the page is not there the moment `setInputFiles` returns; on a timeout the
 * assertion shows the text the element last had.
 */
export async function textMatching(page, selector, re, timeout = 15000) {
  const ok = await page
    .waitForFunction(([sel, src, flags]) => new RegExp(src, flags).test(document.querySelector(sel)?.textContent || ''), [selector, re.source, re.flags], { timeout })
    .then(() => true, () => false);
  const text = (await page.textContent(selector)) ?? '';
  if (!ok) assert.match(text, re, `${selector} did not come to match within ${timeout} ms`);
  return text;
}

/** The document list's row of a file, as a selector. */
export const row = (name) => `.doc[data-name="${name}"]`;

export function pdf(name) {
  return join(CORPUS, 'financebench/pdfs', name);
}

/**
 * A one-page PDF (Helvetica, WinAnsi) whose text lines are exactly `lines` — for inputs the corpus
 * does not have, such as a PDF carrying markup. Offsets in the xref table are computed, so the file
 * is valid, not merely tolerated.
 */
export function makePdf(lines) {
  const esc = (t) => t.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  const text = lines.map((l, i) => `BT /F1 11 Tf 60 ${740 - i * 18} Td (${esc(l)}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** What every test file starts: dist/ served, the mock running, a fresh Chromium profile. */
export async function startAll(mockArgs = []) {
  const site = await serveDist();
  const mock = await startMock(mockArgs);
  const context = await launch();
  return {
    site, mock, context,
    stop: async () => {
      await context?.close();
      mock?.stop();
      await site?.close();
    },
  };
}

/**
 * In a same-origin page that does not run the app: start the document worker (ending one started
 * before) and resolve with its `restored` message once it is Ready; `window.__rpc(msg, bytes?)`
 * then resolves with the reply to `msg` (the app's protocol, core/src/protocol.rs).
 */
export async function startWorker(page) {
  return page.evaluate(() => new Promise((resolve, reject) => {
    window.__worker?.terminate();
    const w = new Worker('./worker_loader.js', { type: 'module' });
    const pending = new Map();
    let next = 1;
    let restored = null;
    window.__worker = w;
    window.__rpc = (msg, bytes) => new Promise((done) => {
      msg.id = next++;
      pending.set(msg.id, done);
      w.postMessage(bytes ? [JSON.stringify(msg), bytes] : [JSON.stringify(msg)], bytes ? [bytes.buffer] : []);
    });
    w.onmessage = (ev) => {
      const msg = JSON.parse(Array.isArray(ev.data) ? ev.data[0] : ev.data);
      if (msg.kind === 'restored') restored = msg;
      else if (msg.kind === 'ready') resolve(restored);
      else if (msg.kind !== 'progress' && pending.has(msg.id)) {
        pending.get(msg.id)(msg);
        pending.delete(msg.id);
      }
    };
    w.onerror = (e) => reject(new Error(`worker error: ${e.message}`));
  }));
}
