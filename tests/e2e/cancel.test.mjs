// A user who dropped the wrong file, or a 400-page report they did not mean to read now, can stop
// it. A file still waiting is skipped; a file the worker is reading cannot be interrupted inside
// the worker (one thread, nothing shared with the page), so the app replaces the worker — as after
// a crash, but losing nothing: the next file is read by the new worker and every document read
// before is kept (app/src/worker.rs `cancel`). Nothing of a stopped file is stored.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, documentWorker, ARTIFACTS, row } from './harness.mjs';

const AMCOR = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
const BIG = 'JPMORGAN_2023Q2_10Q.pdf';
const WAITING = 'FOOTLOCKER_2022_8K_dated-2022-05-20.pdf';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
const STOPPED = /^stopped: you stopped reading this file \(nothing of it was kept\); drop it again to read it$/;
let site, context, env;

before(async () => {
  env = await startAll();
  ({ site, context } = env);
});
after(async () => { await env?.stop(); });

test('stopping a file mid-read and one still waiting keeps every other document and reads the next file', async () => {
  const { page, errors } = await openApp(context, site.url);
  await page.setInputFiles('#file-input', pdf(AMCOR));
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 60000 });
  const first = await documentWorker(page);

  // Click "stop" on the waiting file as soon as its row exists, and on the big filing as soon as
  // its progress bar shows it part-read (the page's own observer: no polling race).
  await page.evaluate(([big, waiting]) => {
    window.__stopped = {};
    const obs = new MutationObserver(() => {
      const w = document.querySelector(`.doc[data-name="${waiting}"] .stop-doc`);
      if (w && !window.__stopped.waiting) { window.__stopped.waiting = true; w.click(); }
      const r = document.querySelector(`.doc[data-name="${big}"]`);
      const bar = r?.querySelector('progress');
      const stop = r?.querySelector('.stop-doc');
      if (bar && stop && !window.__stopped.big && Number(bar.value) > 0 && Number(bar.value) < Number(bar.max)) {
        window.__stopped.big = `${bar.value} of ${bar.max}`;
        stop.click();
        obs.disconnect();
      }
    });
    obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  }, [BIG, WAITING]);
  await page.setInputFiles('#file-input', [pdf(BIG), pdf(WAITING), pdf(JNJ)]);

  await page.waitForSelector(`${row(BIG)} .doc-error`, { timeout: 60000 });
  const at = await page.evaluate(() => window.__stopped.big);
  assert.ok(at, 'the big filing was stopped while being read');
  assert.match((await page.textContent(`${row(BIG)} .doc-error`)).trim(), STOPPED);
  assert.equal(await page.locator(`${row(BIG)} progress`).count(), 0, 'no progress after the stop');
  assert.equal(await page.locator(`${row(BIG)} .stop-doc`).count(), 0, 'nothing left to stop');

  // The file after it is read (by a new worker); the waiting one was never read.
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 90000 });
  assert.match((await page.textContent(`${row(WAITING)} .doc-error`)).trim(), STOPPED);
  assert.notEqual(await documentWorker(page), first, 'the worker reading the big filing was replaced');
  assert.match(await page.textContent(`${row(AMCOR)} .status`), /\d+ pages · \d+ passages/);
  assert.equal(await page.locator(row(AMCOR)).count(), 1);
  await page.screenshot({ path: join(ARTIFACTS, 'cancel-stopped.png'), fullPage: true });

  // The new worker has the library: the filing read before the stop renders.
  await page.click(`${row(AMCOR)} .view-doc`);
  await page.waitForSelector('#page-image, #page-unavailable', { timeout: 60000 });
  assert.equal(await page.locator('#page-unavailable').count(), 0, 'the page renders');

  // After a reload only the two files read are there.
  await page.reload();
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 60000 });
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 60000 });
  assert.equal(await page.locator(row(BIG)).count(), 0, 'nothing of the stopped filing was stored');
  assert.equal(await page.locator(row(WAITING)).count(), 0);
  assert.deepEqual(errors, []);
  console.log(`stopped ${BIG} at page ${at}`);
});

test('Cancel stops a question within about a second, even while a model call is in flight', async (t) => {
  const { page, errors } = await openApp(context, site.url);
  await connect(page, env.mock.base, 'sk-test-cancel-question');
  await page.setInputFiles('#file-input', pdf(JNJ));
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 90000 });
  // The planner's answer takes 30 s: Cancel is pressed while that call is in flight.
  await env.mock.admin('/__admin/faults', { mode: 'slow', role: 'planner', delay_ms: 30000, count: 1 });
  const planners = async () => (await env.mock.admin('/__admin/requests?role=planner')).length;
  const asked = await planners();
  await page.fill('#question', 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?');
  await page.click('#ask');
  for (let i = 0; i < 100 && (await planners()) === asked; i++) await page.waitForTimeout(100);
  assert.ok((await planners()) > asked, 'the planner call is in flight');
  const t0 = Date.now();
  await page.click('#cancel');
  await page.waitForFunction(() => document.getElementById('cancel')?.disabled && !document.getElementById('ask')?.disabled, null, { timeout: 10000 });
  const took = Date.now() - t0;
  t.diagnostic(`stopped ${took} ms after the click`);
  assert.ok(took < 2000, `the run stopped within about a second (${took} ms)`);
  const said = `${await page.locator('#error').textContent().catch(() => '')} ${await page.locator('#answer').textContent().catch(() => '')}`;
  assert.match(said, /cancel/i, `the page says the run was cancelled: ${said}`);
  await env.mock.admin('/__admin/reset');
  assert.deepEqual(errors.filter((e) => !/aborted|AbortError/i.test(e)), []);
  await page.close();
});
