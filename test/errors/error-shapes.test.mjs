// Every error site of the catalog (sites.mjs) gives, under the preload, an
// error with the constructor, code, name and message native Node gives on this
// Node version, arriving the same way (thrown or rejected). One subtest per site.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { compareShapes, sameMessage, shapeOf } from './compare.mjs';
import { divergenceFor, elsewhere } from './divergences.mjs';
import sites from './sites.mjs';

const major = Number(process.versions.node.split('.')[0]);
let bySite;

before(async () => {
  const rows = await compareShapes();
  bySite = new Map(rows.map((row) => [row.site, row]));
}, { timeout: 180_000 });

test('the catalog has more than 300 sites, and both runs saw all of them', () => {
  assert.ok(sites.length > 300, `${sites.length} sites`);
  assert.equal(bySite.size, sites.length);
  for (const row of bySite.values()) assert.ok(row.ours !== undefined, `${row.site}: missing under the preload`);
});

for (const { name } of sites) {
  const todo = elsewhere[name];
  test(name, { timeout: 5_000, todo }, () => {
    const { native, ours } = bySite.get(name);
    const divergence = divergenceFor(name, major);
    if (divergence !== undefined) {
      // A deliberate divergence changes what is thrown, so the message too.
      assert.equal(shapeOf(ours), divergence.ours, `deliberate divergence (${divergence.why})`);
      return;
    }
    assert.equal(shapeOf(ours), shapeOf(native), `native message: ${native.message}\nour message: ${ours.message}`);
    assert.ok(sameMessage(native, ours), `message differs from native's\nnative: ${JSON.stringify(native.message)}\n` +
      `ours:   ${JSON.stringify(ours.message)}`);
  });
}
