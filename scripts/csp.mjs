// Trunk post-build hook: put the SHA-256 hashes of the inline scripts trunk generated (its wasm
// loader) into the Content-Security-Policy that index.html builds at load time, in place of
// __CLAIR_SCRIPT_HASHES__. The CSP bootstrap script itself runs before the policy exists and is
// not listed. Usage: node scripts/csp.mjs [DIR] (default: $TRUNK_STAGING_DIR, else dist).
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const dir = process.argv[2] || process.env.TRUNK_STAGING_DIR || 'dist';
const file = join(dir, 'index.html');
const html = readFileSync(file, 'utf8');
const PLACEHOLDER = '__CLAIR_SCRIPT_HASHES__';
if (!html.includes(PLACEHOLDER)) {
  console.error(`csp.mjs: ${file} has no ${PLACEHOLDER} (already processed, or index.html lost its CSP bootstrap)`);
  process.exit(html.includes("'sha256-") ? 0 : 1);
}
const hashes = [];
for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)) {
  if (m[1].includes(PLACEHOLDER)) continue;
  hashes.push(`'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
}
if (hashes.length === 0) {
  console.error('csp.mjs: no inline loader script found; the app would not start under its CSP');
  process.exit(1);
}
writeFileSync(file, html.replaceAll(PLACEHOLDER, hashes.join(' ')));
console.log(`csp.mjs: ${hashes.length} inline script hash(es) written to ${file}`);
