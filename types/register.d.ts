/**
 * `fast-webstreams/register`: a side-effect-only preload.
 *
 * Importing it arranges for `install()` from `fast-webstreams` to run before
 * the program's first stream (on the first use of a Web Streams global,
 * `fetch()`, `node:stream` and the like; at once on Node 20), replacing the
 * global Web Streams classes (`ReadableStream`, `WritableStream`,
 * `TransformStream`, their readers, writers and controllers, and the two
 * queuing strategies) with this package's, and makes `node:stream/web`,
 * `Response`/`Request` bodies, `instanceof` and Node's stream consumers work
 * with them (docs/interop.md, "Start-up"). Importing it again does nothing
 * more. With the environment variable `FAST_WEBSTREAMS=0` (the kill switch) it
 * changes nothing; `FAST_WEBSTREAMS_LAZY=0` installs at start;
 * `FAST_WEBSTREAMS_FAST_PATHS=0` runs every stream on the spec path; variables
 * `FAST_WEBSTREAMS_<FEATURE>=0` turn single features off (STREAM_WEB,
 * INSTANCEOF, NODE_CONSUMERS, BODY_SHELLS, TRANSFER, CODECS), and the
 * `FAST_WEBSTREAMS_METRICS*` variables start the metrics outputs
 * (docs/metrics.md in the package). Off is `0`, `false`, `off` or `no`.
 *
 * Prefer an absolute path in `NODE_OPTIONS`; `npx fast-webstreams` prints the
 * one for this installation.
 *
 * ```sh
 * node --import fast-webstreams/register app.js
 * ```
 *
 * or, from code, as the very first import: `import 'fast-webstreams/register';`
 *
 * It exports nothing. The global *types* are unchanged: they remain whatever
 * `lib.dom` / `@types/node` declare, which describe the same API.
 *
 * @packageDocumentation
 */
export {};
