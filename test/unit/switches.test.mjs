// The FAST_WEBSTREAMS* variables: one parser for every switch (src/patch/features.js),
// which the register files' kill-switch test agrees with, one check of every name,
// and each variable described where users look (docs, register.d.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURES, VARIABLES, isOff, isOn, readSwitch, switchProblems } from '../../src/patch/features.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (path) => readFileSync(join(ROOT, path), 'utf8');
const WORDS = ['0', 'false', 'off', 'no', 'OFF', ' No ', 'FALSE', '1', 'true', 'on', 'yes', 'YES', '', ' ', 'maybe', '00', 'offf'];

test('one parser: off, on, default and neither', () => {
  for (const word of ['0', 'false', 'off', 'no', 'OFF', ' No ']) assert.equal(readSwitch(word), false, word);
  for (const word of ['1', 'true', 'on', 'yes', 'Yes ']) assert.equal(readSwitch(word), true, word);
  for (const word of [undefined, '', '  ']) assert.equal(readSwitch(word), undefined, JSON.stringify(word));
  for (const word of ['maybe', '2', 'disabled']) assert.equal(readSwitch(word), null, word);
  assert.equal(isOn('off'), false);
  assert.equal(isOn('yes'), true);
});

test('register.mjs and register.cjs test the kill switch as features.js does', () => {
  // They cannot import it (the kill switch must load nothing), so their one line is held to it here.
  for (const file of ['register.mjs', 'register.cjs']) {
    const line = read(file).split('\n').find((l) => l.startsWith('const killed ='));
    const source = /^const killed = (\/.+\/i)\.test/.exec(line)?.[1];
    assert.ok(source, `${file}: the kill-switch line`);
    const killSwitch = new Function(`return ${source};`)();
    for (const word of WORDS) assert.equal(killSwitch.test(word), isOff(word), `${file}: FAST_WEBSTREAMS=${JSON.stringify(word)}`);
  }
});

test('the preload\'s eager part tests FAST_WEBSTREAMS_LAZY as features.js does', () => {
  const source = /^const OFF = (\/.+\/i);$/m.exec(read('src/patch/lazy.js'))?.[1];
  assert.ok(source, 'src/patch/lazy.js: the OFF line');
  const off = new Function(`return ${source};`)();
  for (const word of WORDS) assert.equal(off.test(word), isOff(word), `FAST_WEBSTREAMS_LAZY=${JSON.stringify(word)}`);
});

test('every name that looks like ours is checked; a known one is checked by its own parser', () => {
  assert.deepEqual(switchProblems({ FAST_WEBSTREAMS_METRICS_PORT: '9464', FAST_WEBSTREAMS_METRICS_SITES: 'off', PATH: '/bin' }), []);
  assert.deepEqual(switchProblems({ FAST_WEBSTREAMS_METRICS_PROT: '9464' }),
    ['unknown variable FAST_WEBSTREAMS_METRICS_PROT (did you mean FAST_WEBSTREAMS_METRICS_PORT?)']);
  assert.deepEqual(switchProblems({ FAST_WEBSTREAM: '0' }), ['unknown variable FAST_WEBSTREAM (did you mean FAST_WEBSTREAMS?)']);
  assert.deepEqual(switchProblems({ fast_webstreams_codecs: '0' }),
    ['unknown variable fast_webstreams_codecs (did you mean FAST_WEBSTREAMS_CODECS?)']);
  assert.match(switchProblems({ FAST_WEBSTREAMS_METRICS_SITES: 'sometimes' })[0], /neither on .* nor off .*: left off$/);
  assert.match(switchProblems({ FAST_WEBSTREAMS_CODECS: 'sometimes' })[0], /neither on .* nor off .*: left on$/);
});

test('each variable is described where users look', () => {
  const docs = read('docs/interop.md') + read('docs/metrics.md');
  for (const name of Object.keys(VARIABLES)) {
    if (name === 'FAST_WEBSTREAMS_METRICS_PRIMARY') continue; // written by the package, for its own child processes
    assert.match(docs, new RegExp(`\`${name}[=\`]`), `${name} in docs/interop.md or docs/metrics.md`);
  }
  const registerTypes = read('types/register.d.ts');
  for (const name of Object.values(FEATURES)) {
    assert.ok(registerTypes.includes(name.slice('FAST_WEBSTREAMS_'.length)), `${name} in types/register.d.ts`);
  }
});
