// @types/node 20 under the name "node", for the /// <reference types="node" /> lines of undici-types.
/// <reference path="../../../../../node_modules/@types/node-20/index.d.ts" />
