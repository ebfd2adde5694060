// Driver side of worker.mjs: one long-lived child per implementation per lane,
// a time bound per program (a program that does not answer in time is a
// `timeout` finding; the child is killed and replaced, never waited on).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { ROOT } from './impls.mjs';

const WORKER = join(ROOT, 'test', 'fuzz', 'worker.mjs');

export function implArgs(impl) {
  const [name, plant] = impl.split('+'); // e.g. "native+drop-chunk"
  const pre = name === 'ours' ? ['--import', join(ROOT, 'register.mjs')] : [];
  return [...pre, WORKER, `--impl=${name}`, ...(plant ? [`--plant=${plant}`] : [])];
}

export class Worker {
  constructor(impl, { node = process.execPath, timeoutMs = 5000 } = {}) {
    this.impl = impl;
    this.node = node;
    this.timeoutMs = timeoutMs;
    this.chain = Promise.resolve();
    this.nextId = 0;
    this.child = null;
  }

  start() {
    const child = spawn(this.node, implArgs(this.impl), {
      cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' },
    });
    child.stderrText = '';
    child.stderr.on('data', (d) => { child.stderrText = (child.stderrText + d).slice(-4000); });
    child.waiters = new Map();
    createInterface({ input: child.stdout }).on('line', (line) => {
      let msg;
      try { msg = JSON.parse(line); } catch { return; }
      child.waiters.get(msg.id)?.(msg);
    });
    child.on('exit', (code, sig) => {
      for (const w of child.waiters.values()) w({ exited: true, code, sig, stderr: child.stderrText });
      if (this.child === child) this.child = null;
    });
    child.stdin.on('error', () => {});
    child.on('error', (err) => { // e.g. --node names no executable
      child.stderrText += String(err);
      for (const w of child.waiters.values()) w({ exited: true, code: err.code, stderr: child.stderrText });
      if (this.child === child) this.child = null;
    });
    this.child = child;
  }

  // Runs one compiled program; resolves to { events, pending, busy } or { timeout } / { exited }.
  run(src) {
    const p = this.chain.then(() => this.#runNow(src));
    this.chain = p.catch(() => {});
    return p;
  }

  #runNow(src) {
    if (!this.child) this.start();
    const child = this.child;
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        child.waiters.delete(id);
        this.child = null;
        child.kill('SIGKILL');
        resolve({ timeout: true });
      }, this.timeoutMs);
      child.waiters.set(id, (msg) => {
        clearTimeout(timer);
        child.waiters.delete(id);
        if (msg.exited) this.child = null;
        resolve(msg);
      });
      child.stdin.write(JSON.stringify({ id, src }) + '\n');
    });
  }

  close() {
    const c = this.child;
    this.child = null;
    if (c) { c.stdin.end(); setTimeout(() => c.kill('SIGKILL'), 2000).unref(); }
  }
}
