// For tests: install the local model if missing (scripts/local-llm.sh install: pinned, verified,
// idempotent) and start tests/local-llm/server.mjs on a free port as a child process.
import { execFileSync, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** The model file's path, after installing what is missing (a minute cold, instant after). */
export function installModel() {
  const out = execFileSync(resolve(ROOT, 'scripts/local-llm.sh'), ['install'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return out.trim().split('\n').pop();
}

/**
 * Start the server; resolves with its base URL (…/v1), its log so far (`log()`), and `stop()`.
 * The server's stderr (one line per request) is kept, and echoed when `LOCAL_LLM_ECHO` is set.
 */
export async function startLocalLlm(args = []) {
  const model = installModel();
  const child = spawn(process.execPath, [resolve(ROOT, 'tests/local-llm/server.mjs'), '--model', model, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => {
    log += d;
    if (process.env.LOCAL_LLM_ECHO) process.stderr.write(d);
  });
  const origin = await new Promise((resolveUrl, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (m) resolveUrl(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`local model server exited with ${code}:\n${log}`)));
    setTimeout(() => reject(new Error(`local model server did not start in 60 s:\n${log}`)), 60000).unref();
  });
  return {
    origin,
    base: `${origin}/v1`,
    model,
    log: () => log,
    stop: () => new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once('exit', r);
      child.kill();
    }),
  };
}
