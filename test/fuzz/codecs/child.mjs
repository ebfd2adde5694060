// One side of a batch: runs seeds [from, from + count) in turn against the
// codec classes on globalThis and prints one JSON line per seed. Started by
// batch.mjs natively or under --import register.mjs, with the same Node.
//   node child.mjs --from=K --count=N [--plant=corrupt-output]
import { generate } from './generate.mjs';
import { runCase, shapeOf } from './run-case.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const from = Number(arg('from'));
const count = Number(arg('count'));
const plant = arg('plant');

// Attributed to the seed running when they fire (each seed's tail is waited out).
let problems = [];
process.on('unhandledRejection', (e) => problems.push(`unhandled rejection ${shapeOf(e)}`));
process.on('uncaughtException', (e) => problems.push(`uncaught exception ${shapeOf(e)}`));

for (let seed = from; seed < from + count; seed++) {
  problems = [];
  let rec;
  try {
    rec = await runCase(generate(seed), { plant });
  } catch (e) {
    rec = { fuzzerError: `${e?.stack ?? e}` };
  }
  // Let rejections left unhandled by this seed be reported before its record is written.
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  rec.problems = problems;
  process.stdout.write(`${JSON.stringify({ seed, rec })}\n`);
}
process.exit(0);
