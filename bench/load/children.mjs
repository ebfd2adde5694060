// The load runner's child processes (upstream, native server, fast server):
// started, watched and described when they die. Each keeps a bounded ring of
// its last output lines, so a crash can be explained without holding hours of
// server logs in memory.
import { spawn } from 'node:child_process';

const MAX_LINE = 400; // characters kept of one line
const STDERR_LINES = 40;
const STDOUT_LINES = 20;

/** The last `size` lines pushed, each clipped to MAX_LINE characters. */
export class LineRing {
  constructor(size) {
    this.size = size;
    this.lines = [];
    this.partial = '';
    this.dropped = 0;
  }

  /** Takes a chunk of text; returns the complete lines it finished. */
  push(text) {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop().slice(-MAX_LINE * 2);
    const done = parts.map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}...` : l).replace(/\r$/, ''));
    for (const line of done) {
      this.lines.push(line);
      if (this.lines.length > this.size) {
        this.lines.shift();
        this.dropped++;
      }
    }
    return done;
  }

  /** The last n lines, the unfinished one included. */
  tail(n = this.size) {
    const all = this.partial ? [...this.lines, this.partial.slice(0, MAX_LINE)] : this.lines;
    return all.slice(-n);
  }
}

/** "killed by SIGKILL" or "exited with code 1". */
export function describeExit({ code, signal }) {
  return signal ? `killed by ${signal}` : `exited with code ${code}`;
}

const quote = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * Starts a child. `role` names it in every message ('native', 'fast', 'upstream');
 * `shownEnv` are the environment variables that set this child apart, shown in
 * its command line. `keep` maps a name to { stream, re }: the first capture of
 * the first line that matches is kept in `proc.kept[name]`, however many lines
 * follow (the rings forget: a server that logs a stack per aborted request
 * pushes its start-up lines out of them within a window).
 */
export function startChild({ role, name, argv, env, cwd, shownEnv = {}, keep = {} }) {
  const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const rings = { stdout: new LineRing(STDOUT_LINES), stderr: new LineRing(STDERR_LINES) };
  const lineListeners = new Set();
  const proc = {
    role,
    name,
    child,
    pid: child.pid,
    command: [...Object.entries(shownEnv).map(([k, v]) => `${k}=${quote(v)}`), ...argv.map(quote)].join(' '),
    startedAt: Date.now(),
    exit: null, // { code, signal, at } once it has exited
    exited: null, // promise of the above
    rings,
    kept: {},
    /** The last lines of stderr, or of stdout when stderr said nothing. */
    tail(n = 20) {
      const err = rings.stderr.tail(n);
      return err.length ? { stream: 'stderr', lines: err } : { stream: 'stdout', lines: rings.stdout.tail(n) };
    },
    kill(signal = 'SIGKILL') {
      if (!proc.exit) child.kill(signal);
    },
    /** Resolves with the first capture group of the first line of `stream` matching `re`. */
    waitFor(stream, re, what, timeoutMs = 30000) {
      return new Promise((resolve, reject) => {
        for (const line of rings[stream].lines) {
          const m = re.exec(line);
          if (m) return resolve(m[1]);
        }
        const done = (fn, value) => {
          clearTimeout(timer);
          lineListeners.delete(onLine);
          fn(value);
        };
        const onLine = (s, line) => {
          const m = s === stream ? re.exec(line) : null;
          if (m) done(resolve, m[1]);
        };
        const timer = setTimeout(() => done(reject, new ChildError(proc, `no ${what} after ${timeoutMs / 1000} s`)), timeoutMs);
        lineListeners.add(onLine);
        proc.exited.then(() => done(reject, new ChildError(proc, `${describeExit(proc.exit)} before its ${what}`)));
      });
    },
  };
  const keepers = Object.entries(keep);
  for (const stream of ['stdout', 'stderr']) {
    child[stream].setEncoding('utf8').on('data', (d) => {
      for (const line of rings[stream].push(d)) {
        for (const [key, k] of keepers) {
          const m = k.stream === stream && proc.kept[key] === undefined ? k.re.exec(line) : null;
          if (m) proc.kept[key] = m[1];
        }
        for (const fn of [...lineListeners]) fn(stream, line);
      }
    });
  }
  proc.exited = new Promise((resolve) => {
    child.on('error', (err) => {
      rings.stderr.push(`spawn failed: ${err.message}\n`);
      if (!proc.exit) {
        proc.exit = { code: null, signal: null, error: err.message, at: Date.now() };
        resolve(proc.exit);
      }
    });
    // 'close' rather than 'exit': by then the pipes are drained, so the ring holds the last words.
    child.on('close', (code, signal) => {
      if (!proc.exit) {
        proc.exit = { code, signal, at: Date.now() };
        resolve(proc.exit);
      }
    });
  });
  return proc;
}

/** An error that carries the child it is about, so its tail can be shown. */
export class ChildError extends Error {
  constructor(proc, message) {
    super(`${proc.name} ${message}`);
    this.proc = proc;
  }
}

/** The failure record of a dead child: what the report and the terminal show. */
export function deathRecord(proc, context) {
  const { stream, lines } = proc.tail();
  return {
    role: proc.role,
    server: proc.name,
    command: proc.command,
    pid: proc.pid,
    exitCode: proc.exit?.code ?? null,
    signal: proc.exit?.signal ?? null,
    exit: !proc.exit ? 'did not become ready (killed by the runner)'
      : proc.exit.error ? `could not start: ${proc.exit.error}` : describeExit(proc.exit),
    uptimeSeconds: proc.exit ? Math.round((proc.exit.at - proc.startedAt) / 100) / 10 : null,
    tailStream: stream,
    tail: lines,
    ...context,
  };
}
