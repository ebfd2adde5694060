// What npm run load can drive: the apps (groups of routes, chosen with
// --apps), the servers that serve them (each started twice: natively and with
// the preload), and the backends those servers call (started once).
//
//   example  the example server (examples/server), no framework: ssr, proxy, forward, ndjson, sse
//   next     a Next.js 16 app (bench/load/apps/next) served by `next start`: route handlers and a page
//   hono     a Hono app on @hono/node-server (bench/load/apps/hono)
//   ai       AI chat routes of the same Next.js app, over a local OpenAI-compatible mock
//
// The framework apps' dependencies are installed on demand into
// .cache/load-apps/<dir> from the package.json and lock file beside their
// sources (bench/load/app-cache.mjs), so the project's npm ci stays light.

/** Tokens in each answer of the LLM mock (MOCK_LLM_TOKENS), and so in each AI route's response. */
export const LLM_TOKENS = 1000;
const TOKEN_CHUNKS = 200; // chunks of the token-stream routes (lib/tokens.js, tokens.mjs)
const PROXY_BYTES = 64 * 1024;

/** The processes the servers call: each started once, restarted on the same port. */
export const BACKENDS = {
  upstream: { name: 'upstream', script: 'examples/server/upstream.mjs' },
  llm: { name: 'LLM mock', script: 'bench/load/apps/mock-openai.mjs', env: { MOCK_LLM_TOKENS: String(LLM_TOKENS) } },
};

/**
 * The servers under test. `source`: the app's folder in the repository, copied
 * with its package.json and lock file into .cache/load-apps/<name>, where its
 * dependencies are installed and `build` runs; `argv`: what follows the node
 * binary (and the preloads) to start it there; `ready`: the stdout line that
 * says it serves (its first group, if any, is its URL); `minNode`: what its
 * framework needs.
 */
export const SERVERS = {
  example: {
    name: 'server', // "native server", "fast server", as before the framework apps
    label: 'the example server (node:http)',
    argv: () => ['examples/server/server.mjs'],
    ready: /listening on (http:\/\/\S+)/,
    health: '/health',
  },
  next: {
    name: 'Next.js server',
    label: 'Next.js 16, next start',
    source: 'bench/load/apps/next',
    build: ['node_modules/next/dist/bin/next', 'build'],
    builtMarker: '.next/BUILD_ID',
    argv: (port) => ['node_modules/next/dist/bin/next', 'start', '-H', '127.0.0.1', '-p', String(port)],
    needsPort: true,
    ready: /Ready in/,
    health: '/api/health',
    minNode: '20.9.0',
  },
  hono: {
    name: 'Hono server',
    label: 'Hono 4 on @hono/node-server 2',
    source: 'bench/load/apps/hono',
    argv: () => ['server.mjs'],
    ready: /listening on (http:\/\/\S+)/,
    health: '/health',
  },
};

const count = (text, needle) => text.split(needle).length - 1;
const lines = (n) => (text) => (count(text, '\n') === n ? null : `${count(text, '\n')} lines, expected ${n}`);
const bytes = (n) => (text) => (Buffer.byteLength(text) === n ? null : `${Buffer.byteLength(text)} bytes, expected ${n}`);
/** A UI-message stream (AI SDK's format) with every token and no error part. */
function uiMessageStream(text) {
  if (text.includes('"type":"error"')) return `an error part: ${text.slice(text.indexOf('"type":"error"'), 300)}`;
  const deltas = count(text, '"type":"text-delta"');
  if (deltas !== LLM_TOKENS) return `${deltas} text-delta parts, expected ${LLM_TOKENS}`;
  return text.trimEnd().endsWith('data: [DONE]') ? null : 'no data: [DONE] at the end';
}
function page(text) {
  return text.includes('item 119') && text.trimEnd().endsWith('</html>') ? null : 'not the whole page';
}

const CHAT = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Tell me about streams.' }] }] }),
};

/** The apps, each a list of routes: `check(body)` says what is wrong with a response (null: nothing). */
export const APPS = {
  example: {
    server: 'example',
    routes: {
      ssr: { path: '/ssr', label: 'React SSR (renderToReadableStream + inject transform)' },
      proxy: { path: '/proxy', label: 'fetch proxy, 64 KB through 3 TransformStreams', backends: ['upstream'] },
      forward: { path: '/forward', label: 'Response forwarding (fetch-style handler)' },
      ndjson: { path: '/ndjson', label: 'NDJSON streaming, 500 rows' },
      sse: { path: '/sse', label: 'SSE relay, 200 events (TextDecoderStream, TextEncoderStream)', backends: ['upstream'] },
    },
  },
  next: {
    server: 'next',
    routes: {
      'next-stream': { path: '/api/tokens', label: 'Next.js route handler: new Response(stream), 200 chunks of 50-200 bytes', check: lines(TOKEN_CHUNKS) },
      'next-proxy': { path: '/api/proxy', label: 'Next.js route handler: fetch() of 64 KB, its body returned', backends: ['upstream'], check: bytes(PROXY_BYTES) },
      'next-page': { path: '/', label: 'Next.js page (server components, rendered per request)', check: page },
    },
  },
  hono: {
    server: 'hono',
    routes: {
      'hono-stream': { path: '/stream', label: 'Hono: new Response(stream), 200 chunks of 50-200 bytes', check: lines(TOKEN_CHUNKS) },
      'hono-helper': { path: '/helper', label: 'Hono: the same chunks through stream() of hono/streaming', check: lines(TOKEN_CHUNKS) },
      'hono-proxy': { path: '/proxy', label: 'Hono: fetch() of 64 KB, its body returned', backends: ['upstream'], check: bytes(PROXY_BYTES) },
    },
  },
  ai: {
    server: 'next',
    routes: {
      'ai-chat': {
        path: '/api/ai/chat', label: `AI SDK streamText().toUIMessageStreamResponse(), chat completions, ${LLM_TOKENS} tokens (Next.js)`,
        backends: ['llm'], ...CHAT, check: uiMessageStream, tokens: LLM_TOKENS,
      },
      'ai-responses': {
        path: '/api/ai/responses', label: `AI SDK streamText().toUIMessageStreamResponse(), Responses API, ${LLM_TOKENS} tokens (Next.js)`,
        backends: ['llm'], ...CHAT, check: uiMessageStream, tokens: LLM_TOKENS,
      },
      'ai-chain': {
        path: '/api/ai/chain', label: `fetch -> TextDecoderStream -> EventSourceParserStream -> JSON -> reframe -> TextEncoderStream, ${LLM_TOKENS} tokens (Next.js)`,
        backends: ['llm'], ...CHAT, check: uiMessageStream, tokens: LLM_TOKENS,
      },
    },
  },
};

/** Every route by name, with its app and server, and the backends it calls (none: []). */
export const ALL_ROUTES = Object.fromEntries(Object.entries(APPS).flatMap(([app, def]) => Object.entries(def.routes)
  .map(([name, route]) => [name, { ...route, app, server: def.server, backends: route.backends ?? [] }])));
