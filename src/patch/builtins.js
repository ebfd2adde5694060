// Node's builtin modules as require() gives them (their CommonJS exports, no
// ESM namespace: building one can load more of Node, and some load undici).
// process.getBuiltinModule where Node has it (20.16+, 22.3+), captured now;
// else one require() for the whole library. Some calls come late (the first
// codec stream, a metrics output): Reflect.apply is the captured one, which a
// program's patch cannot reach.
import { createRequire } from 'node:module';
import { ReflectApply } from '../intrinsics.js';

const getBuiltinModule = process.getBuiltinModule;

/** builtin('node:fs') -> Node's fs module. */
export const builtin = typeof getBuiltinModule === 'function'
  ? (id) => ReflectApply(getBuiltinModule, process, [id])
  : createRequire(import.meta.url);
