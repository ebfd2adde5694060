// The switches people type and the ways they start Node: the kill switch's
// words, a warning for a mistyped FAST_WEBSTREAMS_* variable,
// NODE_DEBUG=fast-webstreams, -r / --require, and NODE_OPTIONS with an
// absolute path from another working directory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { T, ROOT, cleanEnv } from './helpers.mjs';

// Prints whether the globals, node:stream/web and the codec classes are ours.
const PROBE = `
  const isOurs = (C) => String(C).includes('#impl');
  const isOurCodec = (C) => String(C).includes('createCodecTransform');
  console.log(JSON.stringify({
    globals: isOurs(globalThis.ReadableStream),
    streamWeb: isOurs(require('node:stream/web').ReadableStream),
    codecs: isOurCodec(globalThis.CompressionStream) && isOurCodec(globalThis.TextDecoderStream),
    streamWebCodecs: isOurCodec(require('node:stream/web').TextEncoderStream),
    text: 'ok',
  }));`;

function run(args, env, cwd = ROOT) {
  const r = spawnSync(process.execPath, [...args, '-e', PROBE], { cwd, env, encoding: 'utf8', timeout: 20000 });
  const result = r.status === 0 ? JSON.parse(r.stdout.trim().split('\n').pop()) : null;
  return { status: r.status, stderr: r.stderr, result };
}

const ON = { globals: true, streamWeb: true, codecs: true, streamWebCodecs: true, text: 'ok' };
const OFF = { globals: false, streamWeb: false, codecs: false, streamWebCodecs: false, text: 'ok' };
const IMPORT = ['--import', 'fast-webstreams/register'];
const warnings = (stderr) => stderr.split('\n').filter((l) => l.includes('FastWebstreamsWarning'));

test('the kill switch takes 0, false, off, no in any case (import and require entries)', T, () => {
  for (const value of ['0', 'false', 'OFF', 'No', ' off ']) {
    for (const args of [IMPORT, ['-r', 'fast-webstreams/register']]) {
      const r = run(args, cleanEnv({ FAST_WEBSTREAMS: value }));
      assert.deepEqual(r.result, OFF, `FAST_WEBSTREAMS=${JSON.stringify(value)} ${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(warnings(r.stderr), []);
    }
  }
  for (const value of ['1', 'true', 'on', 'YES', '']) {
    assert.deepEqual(run(IMPORT, cleanEnv({ FAST_WEBSTREAMS: value })).result, ON, `FAST_WEBSTREAMS=${value}`);
  }
});

test('a feature switch takes the same words', T, () => {
  const r = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_STREAM_WEB: 'False' }));
  assert.deepEqual(r.result, { ...ON, streamWeb: false, streamWebCodecs: false });
  assert.deepEqual(warnings(r.stderr), []);
});

test('the codec classes are ours by default; FAST_WEBSTREAMS_CODECS=0 keeps Node\'s', T, () => {
  for (const value of ['0', 'false', 'Off', ' no ']) {
    const r = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_CODECS: value }));
    assert.deepEqual(r.result, { ...ON, codecs: false, streamWebCodecs: false }, `FAST_WEBSTREAMS_CODECS=${JSON.stringify(value)}`);
    assert.deepEqual(warnings(r.stderr), []);
  }
  for (const value of ['1', 'on', '']) {
    assert.deepEqual(run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_CODECS: value })).result, ON, `FAST_WEBSTREAMS_CODECS=${value}`);
  }
});

test('a mistyped FAST_WEBSTREAMS_* variable gets one warning naming the switch it meant', T, () => {
  const r = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_BODY_SHELL: '0', FAST_WEBSTREAMS_STREAMWEB: '0' }));
  assert.deepEqual(r.result, ON);
  const lines = warnings(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /unknown variable FAST_WEBSTREAMS_BODY_SHELL \(did you mean FAST_WEBSTREAMS_BODY_SHELLS\?\)/);
  assert.match(lines[0], /unknown variable FAST_WEBSTREAMS_STREAMWEB \(did you mean FAST_WEBSTREAMS_STREAM_WEB\?\)/);
});

test('a value that is neither on nor off is warned about and leaves the feature on', T, () => {
  const r = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_STREAM_WEB: 'maybe' }));
  assert.deepEqual(r.result, ON);
  assert.match(warnings(r.stderr).join('\n'), /FAST_WEBSTREAMS_STREAM_WEB=maybe is neither on/);
});

test('every variable is checked: a mistyped metrics name, or FAST_WEBSTREAM without the S, is warned about', T, () => {
  const known = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_METRICS_INTERVAL: '10000', FAST_WEBSTREAMS_METRICS_SUMMARY: 'off' }));
  assert.deepEqual(known.result, ON);
  assert.deepEqual(warnings(known.stderr), []);
  const typos = run(IMPORT, cleanEnv({ FAST_WEBSTREAMS_METRICS_PROT: '9464', FAST_WEBSTREAM: '0' }));
  assert.deepEqual(typos.result, ON, 'FAST_WEBSTREAM is not the kill switch');
  const lines = warnings(typos.stderr);
  assert.equal(lines.length, 1, typos.stderr);
  assert.match(lines[0], /unknown variable FAST_WEBSTREAMS_METRICS_PROT \(did you mean FAST_WEBSTREAMS_METRICS_PORT\?\)/);
  assert.match(lines[0], /unknown variable FAST_WEBSTREAM \(did you mean FAST_WEBSTREAMS\?\)/);
});

test('the metrics switches read the same words: off is 0, false, off, no', T, () => {
  for (const value of ['off', 'OFF', 'no', '0', 'false']) {
    const r = spawnSync(process.execPath, [...IMPORT, '-e', 'new ReadableStream()'],
      { cwd: ROOT, env: cleanEnv({ FAST_WEBSTREAMS_METRICS_SUMMARY: value }), encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '', `FAST_WEBSTREAMS_METRICS_SUMMARY=${value} prints no summary`);
  }
  const on = spawnSync(process.execPath, [...IMPORT, '-e', 'new ReadableStream()'],
    { cwd: ROOT, env: cleanEnv({ FAST_WEBSTREAMS_METRICS_SUMMARY: 'yes' }), encoding: 'utf8', timeout: 20000 });
  assert.match(on.stderr, /^fast-webstreams: streams created 1 /m);
});

test('a bad metrics value is a FastWebstreamsWarning too, and --no-warnings hides every one', T, () => {
  const env = cleanEnv({ FAST_WEBSTREAMS_METRICS_INTERVAL: 'soon', FAST_WEBSTREAMS_BODY_SHELL: '0' });
  const r = run(IMPORT, env);
  const lines = warnings(r.stderr);
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0], /ignoring FAST_WEBSTREAMS_METRICS_INTERVAL=soon/);
  assert.match(lines[0], /unknown variable FAST_WEBSTREAMS_BODY_SHELL/);
  const quiet = run(['--no-warnings', ...IMPORT], env);
  assert.deepEqual(quiet.result, ON);
  assert.equal(quiet.stderr, '');
});

test('NODE_DEBUG=fast-webstreams says what was installed and what was left native, and why', T, () => {
  const r = run(IMPORT, cleanEnv({ NODE_DEBUG: 'fast-webstreams', FAST_WEBSTREAMS_STREAM_WEB: 'off' }));
  assert.deepEqual(r.result, { ...ON, streamWeb: false, streamWebCodecs: false });
  assert.match(r.stderr, /^FAST-WEBSTREAMS \d+: installed: globals \(13 classes\), instanceof.*, codec classes \(TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream\)$/m);
  assert.match(r.stderr, /^FAST-WEBSTREAMS \d+: left native: node:stream\/web \(FAST_WEBSTREAMS_STREAM_WEB=off\)$/m);
  const noCodecs = run(IMPORT, cleanEnv({ NODE_DEBUG: 'fast-webstreams', FAST_WEBSTREAMS_CODECS: '0' }));
  assert.match(noCodecs.stderr, /^FAST-WEBSTREAMS \d+: left native: codec classes \(TextEncoderStream, TextDecoderStream, CompressionStream, DecompressionStream\) \(FAST_WEBSTREAMS_CODECS=0\)$/m);
  const killed = run(IMPORT, cleanEnv({ NODE_DEBUG: 'net,fast-webstreams', FAST_WEBSTREAMS: 'no' }));
  assert.deepEqual(killed.result, OFF);
  assert.match(killed.stderr, /^FAST-WEBSTREAMS \d+: FAST_WEBSTREAMS=no: the kill switch is on, nothing installed$/m);
  assert.doesNotMatch(run(IMPORT, cleanEnv()).stderr, /FAST-WEBSTREAMS/);
});

test('node -r fast-webstreams/register and NODE_OPTIONS="--require fast-webstreams/register"', T, () => {
  const r = run(['-r', 'fast-webstreams/register'], cleanEnv());
  assert.deepEqual(r.result, ON, r.stderr);
  assert.equal(r.stderr, '');
  assert.deepEqual(run([], cleanEnv({ NODE_OPTIONS: '--require fast-webstreams/register' })).result, ON);
});

test('NODE_OPTIONS with an absolute path or file: URL works from another working directory', T, () => {
  const elsewhere = tmpdir();
  const quoted = (s) => JSON.stringify(s); // NODE_OPTIONS splits on spaces outside quotes
  const forms = [
    `--import ${quoted(join(ROOT, 'register.mjs'))}`,
    `--import ${quoted(pathToFileURL(join(ROOT, 'register.mjs')).href)}`,
    `--require ${quoted(join(ROOT, 'register.cjs'))}`,
  ];
  for (const form of forms) {
    const r = run([], cleanEnv({ NODE_OPTIONS: form }), elsewhere);
    assert.deepEqual(r.result, ON, `${form}: ${r.stderr}`);
  }
  // Why: the bare specifier resolves from the working directory, and fails there.
  const bare = run([], cleanEnv({ NODE_OPTIONS: '--import fast-webstreams/register' }), elsewhere);
  assert.notEqual(bare.status, 0);
  assert.match(bare.stderr, /ERR_MODULE_NOT_FOUND/);
});
