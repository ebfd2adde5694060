// Node's adapters over Web streams: Readable.fromWeb, Writable.fromWeb and
// Duplex.fromWeb, 32768 chunks of 1 KB, CPU milliseconds (user + system) of
// one pass, median of 7 after a warm-up. Run it natively and under the
// preload, side by side, and compare the two figures:
//   node bench/node-adapters.mjs <mode>
//   node --import ./register.mjs bench/node-adapters.mjs <mode>
// modes: fromWeb (ReadableStream -> Readable.fromWeb -> .pipe(Node Writable)),
//   writableFromWeb (Readable.from(generator) -> .pipe(Writable.fromWeb(WritableStream))),
//   duplexFromWeb (Readable.from(generator) -> Duplex.fromWeb(TransformStream) -> Node Writable),
//   create (5000 adapters of each kind over one-chunk streams: the per-request cost).
import { Readable, Writable, Duplex } from 'node:stream';

const COUNT = 1 << 15;
const chunk = new Uint8Array(1024);
const mode = process.argv[2] ?? 'fromWeb';

function source() {
  let n = 0;
  return new ReadableStream({
    pull(c) {
      c.enqueue(chunk);
      if (++n >= COUNT) c.close();
    },
  });
}
const nodeSink = () => new Writable({ write(c, e, cb) { cb(); } });
const generated = () => Readable.from((function* gen() { for (let i = 0; i < COUNT; i++) yield chunk; })());
const finished = (stream) => new Promise((resolve, reject) => stream.on('finish', resolve).on('error', reject));

const modes = {
  fromWeb: () => finished(Readable.fromWeb(source()).pipe(nodeSink())),
  writableFromWeb: () => finished(generated().pipe(Writable.fromWeb(new WritableStream({ write() {} })))),
  duplexFromWeb: () => finished(generated().pipe(Duplex.fromWeb(new TransformStream())).pipe(nodeSink())),
  async create() {
    for (let i = 0; i < 5000; i++) {
      const r = Readable.fromWeb(new ReadableStream({ start(c) { c.enqueue(chunk); c.close(); } }));
      await new Promise((resolve) => r.on('data', () => {}).on('end', resolve));
      const w = Writable.fromWeb(new WritableStream({ write() {} }));
      await new Promise((resolve) => w.end(chunk, resolve));
    }
  },
};
const once = modes[mode];
if (once === undefined) throw new Error(`unknown mode ${mode}: ${Object.keys(modes).join(', ')}`);

await once();
const times = [];
for (let i = 0; i < 7; i++) {
  const t0 = process.cpuUsage();
  await once();
  const used = process.cpuUsage(t0);
  times.push((used.user + used.system) / 1000);
}
times.sort((a, b) => a - b);
const variant = process.execArgv.some((a) => a.includes('register')) ? 'preload' : 'native';
console.log(`${process.version} ${mode.padEnd(16)} ${variant.padEnd(8)} ${times[3].toFixed(1)} ms`);
