// TEST ONLY. Preloaded (--import) into one of the load runner's children when
// LOAD_TEST_CRASH is set (see run.mjs and docs/load.md), so the runner's
// handling of a dying server can be tested without a real bug: the Nth request
// to a path makes the process die the way a real crash would.
//
//   LOAD_TEST_CRASH_PATH=/proxy  LOAD_TEST_CRASH_AFTER=50  LOAD_TEST_CRASH_HOW=rejection|signal|exit:<code>
import { Server } from 'node:http';

const path = process.env.LOAD_TEST_CRASH_PATH;
const after = Number(process.env.LOAD_TEST_CRASH_AFTER) || 1;
const how = process.env.LOAD_TEST_CRASH_HOW || 'rejection';
let seen = 0;

const emit = Server.prototype.emit;
Server.prototype.emit = function (event, req, ...rest) {
  if (event === 'request' && path && req.url.split('?')[0] === path && ++seen === after) {
    process.stderr.write(`crash-hook: request ${seen} to ${path}, crashing (${how})\n`);
    if (how === 'signal') process.kill(process.pid, 'SIGKILL');
    else if (how.startsWith('exit:')) process.exit(Number(how.slice(5)));
    // What the real bug did: a rejection nobody handles, which ends Node with code 1.
    else Promise.reject(new Error('crash-hook: unhandled rejection on purpose'));
  }
  return emit.call(this, event, req, ...rest);
};
