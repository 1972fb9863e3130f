// The offline embedder's semantic part in the browser (issue 41): the document worker fetches the
// static-embedding table (dist/minilm-l6-static-v1.bin, distilled by scripts/static-embed.sh) when
// it starts, keeps it in Cache Storage so a second start reads it from there (the server sees one
// request), embeds a real filing with it, says so in its index, and weighs the query's semantic
// part by the search's `static_weight`. A server without the table gets a worker that says search
// matches words only, and searches by words.
//
// Like hnsw.test.mjs, the test talks to the worker with the app's protocol from a same-origin page
// that does not run the app.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serveDist, launch, pdf, startWorker, openApp } from './harness.mjs';

const TABLE = 'minilm-l6-static-v1.bin';
const FILE = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
const QUESTION = 'When do the notes mature, and who guarantees them?';
const open = [];
after(async () => {
  for (const c of open.reverse()) await c.close();
});

const rpc = (page, msg) => page.evaluate((m) => window.__rpc(m), msg);
const embedder = async (page) => (await rpc(page, { kind: 'index' })).embedder;
const search = (page, settings) => rpc(page, { kind: 'search', query: QUESTION, k: 8, modality: null, settings, exact: true });

async function ingest(page, name) {
  const b64 = readFileSync(pdf(name)).toString('base64');
  return page.evaluate(([name, b64]) => {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return window.__rpc({ kind: 'ingest', name, settings: {} }, bytes);
  }, [name, b64]);
}

async function freshPage(site) {
  const context = await launch();
  open.push(context, site);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(site.url + 'no-app-here');
  return { page, errors };
}

test('the worker fetches the static table once, keeps it in Cache Storage and searches with its semantic part', async () => {
  const site = await serveDist();
  const { page, errors } = await freshPage(site);
  const restored = await startWorker(page);
  assert.equal(restored.notice ?? null, null, `no notice at startup: ${JSON.stringify(restored)}`);
  assert.equal(site.hits.get(`/${TABLE}`), 1, 'the table was fetched when the worker started');
  assert.ok((await page.evaluate((t) => caches.open('clair-fin-models-v1').then((c) => c.match(t)).then((r) => !!r), `./${TABLE}`)), 'the table is in Cache Storage');
  assert.match(await embedder(page), /^offline-v3-1024\+static-[0-9a-f]+-128$/);

  const r = await ingest(page, FILE);
  assert.equal(r.kind, 'ingested', JSON.stringify(r).slice(0, 300));
  const withMeaning = await search(page, {});
  const wordsOnly = await search(page, { static_weight: 0 });
  assert.equal(withMeaning.kind, 'hits');
  assert.ok(withMeaning.hits.length > 0 && withMeaning.hits.every((h) => h.doc.source === FILE));
  const scores = (r) => r.hits.map((h) => `${h.doc.id} ${h.score.toFixed(6)}`);
  assert.notDeepEqual(scores(withMeaning), scores(wordsOnly), 'the semantic weight reaches the query');

  // A second start (a reload) reads the table from Cache Storage: no second request, same space,
  // and the stored file comes back without being embedded again in another one.
  const again = await startWorker(page);
  assert.equal(site.hits.get(`/${TABLE}`), 1, 'no second download');
  assert.equal(again.notice ?? null, null);
  assert.deepEqual(again.sources.map((s) => s.source), [FILE]);
  assert.match(await embedder(page), /\+static-/);
  assert.deepEqual(scores(await search(page, {})), scores(withMeaning));
  assert.deepEqual(errors, []);
});

test('without the table on the server the worker says search matches words only, and searches by words', async () => {
  const site = await serveDist({ hide: [TABLE] });
  const { page, errors } = await freshPage(site);
  const restored = await startWorker(page);
  assert.match(restored.notice ?? '', /not on this server \(HTTP 404\).*words only/);
  assert.equal(await embedder(page), 'offline-v3-1024');
  const r = await ingest(page, FILE);
  assert.equal(r.kind, 'ingested');
  const hits = await search(page, {});
  assert.ok(hits.hits.length > 0, JSON.stringify(hits).slice(0, 300));
  assert.deepEqual(errors, []);
});

test('the app says which search the documents get: words and meaning, or words only without the table', async () => {
  for (const [hide, want, notice] of [[[], 'Search: words and meaning', null], [[TABLE], 'Search: words only', /words only/]]) {
    const site = await serveDist({ hide });
    const context = await launch();
    open.push(context, site);
    const { page, errors } = await openApp(context, site.url);
    await page.waitForSelector('#search-mode');
    assert.equal((await page.textContent('#search-mode')).trim(), want);
    assert.ok((await page.getAttribute('#search-mode', 'title')).length > 40, 'the mode explains itself');
    if (notice) assert.match(await page.textContent('#store-notice'), notice);
    else assert.equal(await page.$('#store-notice'), null);
    assert.deepEqual(errors.filter((e) => !e.includes('404')), []);
  }
});
