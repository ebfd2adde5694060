// Prints the markdown table of errors (site | native | ours | shape | message)
// for the Node binary running it, then a summary line. --filter=TEXT as in
// probe.mjs. "shape" is how the error arrives, its constructor, code and name;
// "message" whether its text is native's.
import { compareShapes, sameMessage, shapeOf } from './compare.mjs';
import { divergenceFor, elsewhere } from './divergences.mjs';

const major = Number(process.versions.node.split('.')[0]);

const rows = await compareShapes(process.argv.slice(2));
let matches = 0;
let messages = 0;
let deliberate = 0;
let todo = 0;
const cell = (s) => s.replaceAll('|', '\\|').replaceAll('\n', '\\n');
console.log(`### Node ${process.version}\n`);
console.log('| site | native ctor/code | ours ctor/code | shape | message |');
console.log('|---|---|---|---|---|');
for (const { site, native, ours } of rows) {
  const n = shapeOf(native);
  const o = shapeOf(ours);
  const divergence = divergenceFor(site, major);
  const message = sameMessage(native, ours);
  let verdict;
  let messageVerdict = message ? 'yes' : `**NO**: ${JSON.stringify(ours?.message)}, native ${JSON.stringify(native.message)}`;
  if (n === o) {
    matches++;
    verdict = 'yes';
    if (message) messages++;
  } else if (divergence !== undefined && divergence.ours === o) {
    deliberate++;
    verdict = `deliberate: ${divergence.why}`;
    const nativeErrs = native.how !== 'none' && native.how !== 'timeout';
    messageVerdict = message && nativeErrs ? 'yes' : '(follows the divergence)';
  } else if (elsewhere[site] !== undefined) {
    todo++;
    verdict = `**NO** (todo: ${elsewhere[site]})`;
  } else {
    verdict = '**NO**';
  }
  console.log(`| ${cell(site)} | ${cell(n)} | ${cell(o)} | ${cell(verdict)} | ${cell(messageVerdict)} |`);
}
const wrong = rows.length - matches - deliberate - todo;
console.log(`\nNode ${process.version}: ${rows.length} sites: ${matches} match (${messages} with native's message, ` +
  `${matches - messages} without), ${deliberate} deliberate divergences, ${todo} todo elsewhere, ${wrong} wrong`);
