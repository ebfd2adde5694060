// @types/node 22 under the name "node", for the /// <reference types="node" /> lines of undici-types.
/// <reference path="../../../../../node_modules/@types/node-22/index.d.ts" />
