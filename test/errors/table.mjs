// Prints the markdown table of error shapes (site | native | ours | match) for
// the Node binary running it, then a summary line. --filter=TEXT as in probe.mjs.
import { compareShapes, shapeOf } from './compare.mjs';
import { divergenceFor, elsewhere } from './divergences.mjs';

const major = Number(process.versions.node.split('.')[0]);

const rows = await compareShapes(process.argv.slice(2));
let matches = 0;
let deliberate = 0;
let todo = 0;
const cell = (s) => s.replaceAll('|', '\\|');
console.log(`### Node ${process.version}\n`);
console.log('| site | native ctor/code | ours ctor/code | match |');
console.log('|---|---|---|---|');
for (const { site, native, ours } of rows) {
  const n = shapeOf(native);
  const o = shapeOf(ours);
  const divergence = divergenceFor(site, major);
  let verdict;
  if (n === o) {
    matches++;
    verdict = 'yes';
  } else if (divergence !== undefined && divergence.ours === o) {
    deliberate++;
    verdict = `deliberate: ${divergence.why}`;
  } else if (elsewhere[site] !== undefined) {
    todo++;
    verdict = `**NO** (todo: ${elsewhere[site]})`;
  } else {
    verdict = '**NO**';
  }
  console.log(`| ${cell(site)} | ${cell(n)} | ${cell(o)} | ${cell(verdict)} |`);
}
const wrong = rows.length - matches - deliberate - todo;
console.log(`\nNode ${process.version}: ${rows.length} sites: ${matches} match, ${deliberate} deliberate divergences, ` +
  `${todo} todo elsewhere, ${wrong} wrong`);
