// Security basics (issue 6 item 8), checked in the browser: the Content-Security-Policy lets the page
// talk to the configured API origin only and runs no injected script; a PDF that carries markup
// (a <script>, an <img onerror>, a javascript: markdown link) stays inert text everywhere it is shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startAll, openApp, connect, makePdf, ARTIFACTS } from './harness.mjs';

const KEY = 'sk-test-security-0123456789';
let env;

before(async () => { env = await startAll(['--require-key', KEY]); });
after(async () => { await env?.stop(); });

/** The directive a request to `url` violates, or 'no violation' (after 3 s). */
async function violation(page, url) {
  return page.evaluate(async (u) => {
    const seen = new Promise((res) => document.addEventListener('securitypolicyviolation', (e) => res(`${e.effectiveDirective} ${e.blockedURI}`), { once: true }));
    fetch(u).catch(() => {});
    return Promise.race([seen, new Promise((r) => setTimeout(() => r('no violation'), 3000))]);
  }, url);
}

test('the CSP allows the configured API origin only and runs no injected script', async () => {
  const { page } = await openApp(env.context, env.site.url);
  // Before any settings: the default API origin is the only one allowed.
  let csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, /connect-src 'self' https:\/\/api\.openai\.com;/);
  await connect(page, env.mock.base, KEY); // another origin: the page reloads with a new policy
  csp = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(csp, new RegExp(`connect-src 'self' ${env.mock.origin.replace(/[.]/g, '\\.')};`));
  assert.doesNotMatch(csp, /\*|'unsafe-eval'|script-src[^;]*unsafe-inline/, `no wildcard, eval or inline scripts: ${csp}`);
  assert.match(csp, /object-src 'none'/);

  assert.match(await violation(page, 'http://127.0.0.1:9/exfiltrate'), /^connect-src http:\/\/127\.0\.0\.1:9/);
  assert.match(await violation(page, 'https://api.openai.com/v1/models'), /^connect-src/, 'the old origin is no longer allowed');
  assert.equal(await violation(page, `${env.mock.base}/models`), 'no violation', 'the configured origin is reachable');

  const injected = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = 1';
    document.body.appendChild(s);
    await new Promise((r) => setTimeout(r, 200));
    return window.__injected ?? null;
  });
  assert.equal(injected, null, 'an inline script added at run time does not run');
  // The app itself runs under the policy: the worker starts and answers.
  assert.equal(await page.locator('#error').count(), 0);
});

test('a PDF carrying markup stays inert text in the document list, the answer, the claim panel and the viewer', async () => {
  const { page } = await openApp(env.context, env.site.url);
  await connect(page, env.mock.base, KEY);
  const evil = makePdf([
    'Acme Corp annual report 2024.',
    'Net revenue was $12.5 million in 2024 <script>window.__pwned=1</script>.',
    'See [the details](javascript:window.__pwned=2) and <img src=x onerror="window.__pwned=3">.',
  ]);
  await page.setInputFiles('#file-input', { name: '<img src=x onerror=window.__pwned=4>.pdf', mimeType: 'application/pdf', buffer: evil });
  await page.waitForSelector('.doc .status.ready', { timeout: 60000 });
  await page.fill('#question', 'What was the net revenue of Acme Corp in 2024?');
  await page.click('#ask');
  await page.waitForSelector('#answer', { timeout: 60000 });
  await page.locator('#answer .claim-link').first().click();
  const cite = page.locator('#answer .citation').first();
  if (await cite.count()) await cite.click();
  await page.waitForTimeout(500);

  const state = await page.evaluate(() => ({
    pwned: window.__pwned ?? null,
    scripts: document.querySelectorAll('body script').length,
    imgsWithHandlers: [...document.querySelectorAll('img')].filter((i) => i.getAttribute('onerror')).length,
    jsLinks: [...document.querySelectorAll('a[href]')].filter((a) => a.getAttribute('href').trim().toLowerCase().startsWith('javascript:')).length,
    text: document.body.innerText,
  }));
  assert.equal(state.pwned, null, 'no markup from the PDF ran');
  assert.equal(state.scripts, 0, 'no script element was created from document text');
  assert.equal(state.imgsWithHandlers, 0);
  assert.equal(state.jsLinks, 0, 'markdown links are not turned into links');
  assert.ok(state.text.includes('<img src=x onerror=window.__pwned=4>.pdf'), 'the file name is shown as typed');
  assert.ok(state.text.includes('<script>') || state.text.includes('javascript:'), 'the markup is visible as text somewhere it was cited');
  await page.screenshot({ path: join(ARTIFACTS, 'malicious-pdf.png') });
});
