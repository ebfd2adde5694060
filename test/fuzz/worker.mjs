// Child process: runs programs against one implementation and answers with
// traces. Protocol: one JSON line in ({ id, src }), one JSON line out
// ({ id, events, pending, busy }). Programs run one after another; each gets
// its own tracer, and the event loop is let go quiet before answering.
//   node [--import register.mjs] worker.mjs --impl=native|ours|polyfill [--plant=name]
import { createInterface } from 'node:readline';
import { makeTracer } from './tracer.mjs';
import { loadImpl, applyPlant } from './impls.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const S = applyPlant(await loadImpl(arg('impl') || 'native'), arg('plant'));
const AsyncFunction = (async () => {}).constructor;
const QUIET_ROUNDS = 4;
const MAX_ROUNDS = 400;

let current = null; // { events, T } of the program running now
process.on('unhandledRejection', (reason) => {
  if (current) current.events.push(['unhandled', `unhandled#${current.nUnhandled++}`, current.T.shape(reason)]);
});
process.on('uncaughtException', (err) => {
  if (current) current.events.push(['uncaught', `uncaught#${current.nUncaught++}`, current.T.shape(err)]);
  else throw err;
});

const macro = () => new Promise((r) => setImmediate(r));

async function run(src) {
  const events = [];
  const T = makeTracer((e) => events.push(e));
  current = { events, T, nUnhandled: 0, nUncaught: 0 };
  try {
    await new AsyncFunction('S', 'T', src)(S, T);
  } catch (e) {
    events.push(['main', 'main', T.shape(e)]); // a defect of the fuzzer, not of an implementation
  }
  // Let the program run on until nothing new happens for a few macrotask turns.
  let quiet = 0;
  let rounds = 0;
  let seen = events.length;
  while (quiet < QUIET_ROUNDS && rounds < MAX_ROUNDS) {
    await macro();
    rounds++;
    if (events.length === seen) quiet++;
    else { quiet = 0; seen = events.length; }
  }
  const out = { events, pending: T.pendingKeys(), busy: rounds >= MAX_ROUNDS };
  current = null;
  return out;
}

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  if (!line.trim()) continue;
  const { id, src } = JSON.parse(line);
  const out = await run(src);
  process.stdout.write(JSON.stringify({ id, ...out }) + '\n');
}
