// @types/node 26 under the name "node", for the /// <reference types="node" /> lines of undici-types.
/// <reference path="../../../../../node_modules/@types/node-26/index.d.ts" />
