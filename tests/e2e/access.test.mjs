// The app as people use it (issue 43): by the keyboard alone, with a screen reader's view of it
// checked by axe-core, files dropped anywhere on the window, the cited box brought into view, a
// layout that keeps answer, claim and page on one screen, and a panic that leaves a way back.
// Real worker, real pipeline, the mock model over HTTP; nothing in the app is test-only.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startAll, openApp, connect, pdf, ROOT, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-e2e-access';
const JNJ = 'JOHNSON_JOHNSON_2023_8K_dated-2023-08-30.pdf';
const AMCOR = 'AMCOR_2022_8K_dated-2022-07-01.pdf';
const QUESTION = 'What is the amount of the cash proceeds that JnJ realised from the separation of Kenvue?';
let site, mock, context, env;

before(async () => {
  env = await startAll(['--require-key', KEY]);
  ({ site, mock, context } = env);
});
after(async () => { await env?.stop(); });

const row = (name) => `.doc[data-name="${name}"]`;

/** Serious and critical axe-core violations on the page as it is now. */
async function axeViolations(page, label) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    // Evaluated through the DevTools protocol, so the page's CSP (no inline script) is not in the way.
    await page.evaluate(await readFile(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  }
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return bad.map((v) => `${label}: ${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Press Tab until `selector` has focus; fails after `max` presses. */
async function tabTo(page, selector, { max = 250, back = false } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  assert.fail(`${selector} is not reached by ${max} presses of Tab (focus on ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))})`);
}

/** Count pointer input: a keyboard-only test must cause none. */
async function countPointer(page) {
  await page.addInitScript(() => {
    window.__pointer = 0;
    for (const t of ['mousedown', 'pointerdown', 'mouseup', 'pointerup']) window.addEventListener(t, () => { window.__pointer++; }, true);
  });
}

/** Connect to the mock by the keyboard: Settings, the fields, Escape (which reloads for the new origin). */
async function connectByKeyboard(page) {
  await tabTo(page, '#settings');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#settings-dialog', { state: 'visible' });
  await page.waitForFunction(() => document.getElementById('settings-dialog').contains(document.activeElement), null, { timeout: 5000 });
  for (const [id, value] of [['#base-url', mock.base], ['#api-key', KEY], ['#chat-model', 'gpt-4o-mini']]) {
    await tabTo(page, id);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(value);
  }
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Escape')]);
  await page.waitForSelector('#drop-zone');
}

test('keyboard only: connect, add a PDF, ask, open a claim and a citation, export, import in a fresh tab', async () => {
  const page = await context.newPage();
  // Playwright intercepts file choosers once a 'filechooser' listener exists, and turns that on
  // asynchronously: a listener from the start makes sure a chooser opened by Enter is caught (with
  // only waitForEvent beside the key press, the chooser can open before interception is on).
  page.on('filechooser', () => {});
  await countPointer(page);
  await page.goto(site.url);
  await page.waitForSelector('#drop-zone');
  await connectByKeyboard(page);

  // "Add PDFs" is a Tab stop that opens the file chooser.
  // The browser opens a file chooser only for the tab in front (the context has another page).
  await page.bringToFront();
  await page.evaluate(() => document.activeElement?.blur());
  await tabTo(page, '#add-pdfs');
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await chooser.setFiles(pdf(JNJ));
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 90000 });
  assert.match(await page.textContent('#ingest-status'), /1 document\(s\) ready/, 'the polite live region says the library is ready');

  await tabTo(page, '#question');
  await page.keyboard.type(QUESTION);
  await page.keyboard.press('Control+Enter');
  await page.waitForSelector('#answer', { timeout: 120000 });
  assert.equal(await page.getAttribute('#progress', 'aria-live'), 'polite');

  // A claim, by the keyboard: its details open.
  await tabTo(page, '#answer .claim-link');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#claim-details .claim-title');
  assert.equal(await page.getAttribute('#answer .claim-link >> nth=0', 'aria-pressed'), 'true');

  // A citation where it stands in the answer: the page opens with the cited box zoomed into view.
  await tabTo(page, '#answer .citation');
  const focusRing = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(focusRing, 'none', 'the focused citation shows a focus ring');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#page-image', { timeout: 60000 });
  await page.waitForSelector('.cited-box');
  // Evidence items and the viewer's boxes are Tab stops too.
  await tabTo(page, '.cited-box');

  // Export the run as JSON from the menu, by the keyboard.
  await tabTo(page, '#export', { back: true });
  await page.keyboard.press('Enter');
  await tabTo(page, '#export-json');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  const saved = join(ARTIFACTS, 'access-run.json');
  await download.saveAs(saved);
  assert.equal(JSON.parse(await readFile(saved, 'utf8')).question, QUESTION);
  // Import is a Tab stop that opens the file chooser.
  await tabTo(page, '#import', { back: true });
  const [importer] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
  await importer.setFiles(saved);
  await page.waitForSelector('#imported');
  assert.match(await page.textContent('#imported'), /Imported from access-run\.json/);
  assert.equal(await page.evaluate(() => window.__pointer), 0, 'no mouse or pointer event');

  // A fresh tab shows the imported run.
  const fresh = await context.newPage();
  await countPointer(fresh);
  await fresh.goto(site.url);
  await fresh.waitForSelector('#drop-zone');
  await fresh.setInputFiles('#import-file', saved);
  await fresh.waitForSelector('#answer .citation');
  assert.match(await fresh.textContent('#imported'), /Imported from access-run\.json/);
  assert.equal(await fresh.evaluate(() => window.__pointer), 0, 'no mouse or pointer event in the fresh tab');
  await fresh.close();
  await page.close();
});

test('Settings: Escape closes it, Tab stays inside it, focus returns to the Settings button', async () => {
  const { page } = await openApp(context, site.url);
  await page.focus('#settings');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#settings-dialog', { state: 'visible' });
  const inside = () => page.evaluate(() => document.getElementById('settings-dialog').contains(document.activeElement));
  await page.waitForFunction(() => document.getElementById('settings-dialog').contains(document.activeElement), null, { timeout: 5000 });
  assert.equal(await inside(), true, 'focus moved into the dialog');
  // Far more Tabs than the dialog has controls: focus never leaves it.
  for (let i = 0; i < 15; i++) await page.keyboard.press('Shift+Tab');
  assert.equal(await inside(), true, 'Shift+Tab wraps inside the dialog');
  for (let i = 0; i < 200; i++) await page.keyboard.press('Tab');
  assert.equal(await inside(), true, 'Tab wraps inside the dialog');
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#settings-dialog'), false, 'Escape closed the dialog');
  await page.waitForFunction(() => document.activeElement?.id === 'settings', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'settings', 'focus is back on the Settings button');
  await page.close();
});

test('a PDF dropped on the middle of the window is added; a dropped non-PDF is refused by name; the tab never navigates', async () => {
  const { page, errors } = await openApp(context, site.url);
  const bytes = [...await readFile(pdf(AMCOR))];
  const drop = (files) => page.evaluate(async (files) => {
    const dt = new DataTransfer();
    for (const f of files) dt.items.add(new File([new Uint8Array(f.bytes)], f.name, { type: f.type }));
    const target = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    const over = new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true });
    target.dispatchEvent(over);
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const shown = getComputedStyle(document.getElementById('drop-overlay')).display !== 'none';
    const dropped = new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true });
    target.dispatchEvent(dropped);
    return { shown, overPrevented: over.defaultPrevented, dropPrevented: dropped.defaultPrevented, target: target.id || target.className };
  }, files);
  const url = page.url();
  const r = await drop([{ name: AMCOR, type: 'application/pdf', bytes }]);
  assert.ok(r.shown, `the window shows a drop target while a file is dragged over it (${r.target})`);
  assert.ok(r.overPrevented && r.dropPrevented, 'the browser does not open the file in the tab');
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 90000 });
  assert.equal(await page.isVisible('#drop-overlay'), false, 'the drop target goes away after the drop');

  const n = await drop([{ name: 'notes.txt', type: 'text/plain', bytes: [...Buffer.from('hello')] }]);
  assert.ok(n.dropPrevented);
  assert.match(await page.textContent('#drop-notice'), /Not added: notes\.txt is not a PDF/);
  assert.equal(await page.locator(row('notes.txt')).count(), 0, 'nothing is queued for it');
  assert.equal(page.url(), url, 'still the app');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a panic in the app shows what happened and a Reload that brings the library back', async () => {
  const { page } = await openApp(context, site.url);
  await page.setInputFiles('#file-input', pdf(AMCOR));
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 90000 });
  // The fault: the DOM refuses to create elements, so the next thing the app draws panics inside
  // Leptos's renderer (a real panic path, the way a broken browser API would cause it).
  await page.evaluate(() => { Document.prototype.createElement = function () { throw new Error('injected fault: createElement refused'); }; });
  await page.click('#ask'); // an empty question: the app draws its error line, and panics
  await page.waitForSelector('#crash', { timeout: 10000 });
  assert.match(await page.textContent('#crash-title'), /CLAIR-Fin stopped/);
  assert.match(await page.textContent('#crash-text'), /documents are kept in this browser/);
  assert.match(await page.textContent('#crash-message'), /injected fault: createElement refused/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'crash-reload', 'the Reload action has focus');
  await page.screenshot({ path: join(ARTIFACTS, 'panic.png') });
  await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
  await page.waitForSelector(`${row(AMCOR)} .status.ready`, { timeout: 60000 });
  assert.match(await page.textContent(`${row(AMCOR)}`), /restored/, 'the library came back from IndexedDB');
  assert.equal(await page.locator('#crash').count(), 0);
  await page.close();
});

test('layout and audit: answer, claim details and the cited page on one 1440×900 screen; usable at 1024; no serious axe violation', async () => {
  const { page } = await openApp(context, site.url);
  const problems = [];
  problems.push(...await axeViolations(page, 'empty page'));
  await page.setViewportSize({ width: 1440, height: 900 });

  // Settings open.
  await page.click('#settings');
  await page.waitForSelector('#settings-dialog', { state: 'visible' });
  problems.push(...await axeViolations(page, 'settings open'));
  await connect(page, mock.base, KEY);

  await page.setInputFiles('#file-input', pdf(JNJ));
  await page.waitForSelector(`${row(JNJ)} .status.ready`, { timeout: 90000 });
  await page.fill('#question', QUESTION);
  await page.click('#ask');
  await page.waitForSelector('#answer', { timeout: 120000 });
  await page.locator('#answer .claim-link').first().click();
  await page.waitForSelector('#claim-details .claim-title');

  // The answer once: no separate list of lines, the citations inside the text.
  assert.equal(await page.locator('#answer .answer-lines').count(), 0);
  const inText = await page.locator('#answer .answer-text .citation').count();
  assert.ok(inText > 0, 'citations stand in the answer text');
  const title = await page.getAttribute('#answer .answer-text .citation >> nth=0', 'title');
  assert.match(title, /\.pdf, page \d+/, 'hovering a citation names its page');

  await page.locator('#answer .answer-text .citation').first().click();
  await page.waitForSelector('#page-image', { timeout: 60000 });
  await page.waitForSelector('.cited-box');
  await page.waitForTimeout(500);

  // The cited box is zoomed and in view inside the page frame.
  const zoom = parseFloat(await page.textContent('.zoom-level'));
  const geo = await page.evaluate(() => {
    const frame = document.getElementById('page-scroll').getBoundingClientRect();
    const boxes = [...document.querySelectorAll('.cited-box')].map((b) => b.getBoundingClientRect());
    const u = boxes.reduce((a, b) => ({ l: Math.min(a.l, b.left), t: Math.min(a.t, b.top), r: Math.max(a.r, b.right), b: Math.max(a.b, b.bottom) }), { l: 1e9, t: 1e9, r: -1e9, b: -1e9 });
    return { frame: { l: frame.left, t: frame.top, r: frame.right, b: frame.bottom, w: frame.width, h: frame.height }, u };
  });
  const inside = geo.u.l >= geo.frame.l - 8 && geo.u.t >= geo.frame.t - 8 && geo.u.r <= geo.frame.r + 8 && geo.u.b <= geo.frame.b + 8;
  assert.ok(inside, `the cited region is in view: ${JSON.stringify(geo)}`);
  const share = Math.max((geo.u.r - geo.u.l) / geo.frame.w, (geo.u.b - geo.u.t) / geo.frame.h);
  assert.ok(share >= 0.3 || zoom >= 400, `the cited region fills a good part of the viewer (${share.toFixed(2)} at ${zoom}%)`);
  // Prev/next keep the zoom; "Fit page" brings the whole page back.
  if (await page.isEnabled('#viewer [aria-label="Next page"]')) {
    await page.click('#viewer [aria-label="Next page"]');
    await page.waitForSelector('#page-image', { timeout: 60000 });
    assert.equal(parseFloat(await page.textContent('.zoom-level')), zoom, 'next page keeps the zoom');
    await page.click('#viewer [aria-label="Previous page"]');
    await page.waitForSelector('#page-image', { timeout: 60000 });
  }
  await page.click('#viewer [aria-label="Fit page"]');
  const fit = await page.evaluate(() => {
    const f = document.getElementById('page-scroll').getBoundingClientRect();
    const i = document.getElementById('page-image').getBoundingClientRect();
    return { fits: i.height <= f.height + 1 && i.width <= f.width + 1 };
  });
  assert.ok(fit.fits, 'Fit page shows the whole page');
  await page.locator('#answer .answer-text .citation').first().click();
  await page.waitForSelector('.cited-box');
  await page.waitForTimeout(500);

  // Answer, the chosen claim's details and the cited page, all on screen at once.
  const onScreen = await page.evaluate(() => {
    const vis = (sel) => {
      const el = document.querySelector(sel);
      if (!el) return `${sel} missing`;
      const r = el.getBoundingClientRect();
      return r.top >= 0 && r.top < window.innerHeight - 40 && r.left >= 0 && r.right <= window.innerWidth + 1 ? true : `${sel} at ${JSON.stringify(r)}`;
    };
    return [vis('#answer'), vis('#claim-details .claim-title'), vis('#page-scroll'), vis('.cited-box')];
  });
  assert.deepEqual(onScreen, [true, true, true, true]);
  await page.screenshot({ path: join(ARTIFACTS, 'layout-1440x900.png') });
  problems.push(...await axeViolations(page, 'after a run'));

  // The ledger graph on demand, in the right pane.
  await page.click('#show-graph');
  await page.waitForSelector('#ledger-graph .node');
  await page.screenshot({ path: join(ARTIFACTS, 'layout-1440x900-graph.png') });
  await page.click('#show-page');

  // Evaluate.
  await page.click('#evaluate-toggle');
  await page.waitForSelector('#evaluate', { state: 'visible' });
  problems.push(...await axeViolations(page, 'evaluate'));
  await page.click('#evaluate-toggle');

  // 1024 px wide: nothing cut off sideways, the three panels still reachable.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForTimeout(300);
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(wide <= 1024, `no sideways scrolling at 1024 px (${wide})`);
  assert.ok(await page.isVisible('#answer') && await page.isVisible('#page-image') && await page.isVisible('#claim-details'));
  await page.screenshot({ path: join(ARTIFACTS, 'layout-1024x768.png') });

  assert.deepEqual(problems, [], problems.join('\n'));
  await page.close();
});
