// Child-process helpers for the end-to-end tests.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const T = { timeout: 30000 };
/** The environment of a child: no inherited NODE_OPTIONS or feature switches. */
export function cleanEnv(extra = {}) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const key of Object.keys(env)) if (key.startsWith('FAST_WEBSTREAMS')) delete env[key];
  return { ...env, ...extra };
}

/** Runs `node [args] -e/--input-type=module code`, returns parsed JSON from stdout. */
export function runJson(args, code, env = cleanEnv()) {
  const r = spawnSync(process.execPath, [...args, '--input-type=module', '-e', code], {
    cwd: ROOT, env, encoding: 'utf8', timeout: 20000,
  });
  if (r.status !== 0) throw new Error(`child failed (${r.status ?? r.signal}): ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

/** Starts a server script that prints {"port"} on its first line. */
export async function startServer(script, args = [], env = cleanEnv()) {
  const child = spawn(process.execPath, [...args, script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve(JSON.parse(line).port);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited ${code}: ${stderr}`)));
  });
  return { port, stop: () => child.kill(), child };
}

/** GET: the body bytes and how the response ended ('end' or 'aborted'). */
export function get(port, path) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      const chunks = [];
      let ended = 'aborted';
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => { ended = 'end'; });
      res.on('error', () => {});
      res.on('close', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks), ended }));
    });
    req.on('error', (e) => resolve({ status: 0, body: Buffer.alloc(0), ended: `error ${e.code}` }));
    req.setTimeout(15000, () => reject(new Error(`GET ${path} hung`)));
    req.end();
  });
}
