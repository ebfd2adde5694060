// Node's builtin modules as require() gives them (their CommonJS exports, no
// ESM namespace: building one can load more of Node, and some load undici).
// process.getBuiltinModule where Node has it (20.16+, 22.3+), captured now;
// else one require() for the whole library.
import { createRequire } from 'node:module';

const getBuiltinModule = process.getBuiltinModule;

/** builtin('node:fs') -> Node's fs module. */
export const builtin = typeof getBuiltinModule === 'function'
  ? (id) => Reflect.apply(getBuiltinModule, process, [id])
  : createRequire(import.meta.url);
