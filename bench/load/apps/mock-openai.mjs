// A local stand-in for an OpenAI-compatible model server, for the AI routes of
// npm run load (--apps=ai). It streams Server-Sent Events the way a provider
// does: one event per token, each written on its own and in its own turn of
// the event loop, so the server under test reads many small chunks (50-200
// bytes) rather than one large one.
//
//   POST /v1/chat/completions  {"stream": true, ...}  chat.completion.chunk events, then data: [DONE]
//   POST /v1/responses         {"stream": true, ...}  response.* events (created, output_text.delta, completed)
//   GET  /health
//
//   PORT (default 8082; 0 = any free port), HOST (default 127.0.0.1),
//   MOCK_LLM_TOKENS (default 1000): tokens per answer
import { createServer } from 'node:http';

const port = Number(process.env.PORT ?? 8082);
const host = process.env.HOST ?? '127.0.0.1';
const TOKENS = Math.max(1, Number(process.env.MOCK_LLM_TOKENS) || 1000);
const WORDS = [' the', ' stream', 'ing', ' answer', ',', ' one', ' token', ' at a time', '.', ' Über', ' naïve', ' →', ' 42'];
const CREATED = 1767225600;

const tokenText = (i) => WORDS[(i * 7) % WORDS.length] + (i % 5 === 0 ? WORDS[(i * 3) % WORDS.length] : '');
const sse = (data, event) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

function* chatEvents(model) {
  const chunk = (delta, finish = null, extra = {}) => sse({
    id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: CREATED, model,
    choices: [{ index: 0, delta, finish_reason: finish }], ...extra,
  });
  yield chunk({ role: 'assistant', content: '' });
  for (let i = 0; i < TOKENS; i++) yield chunk({ content: tokenText(i) });
  yield chunk({}, 'stop');
  yield sse({
    id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: CREATED, model, choices: [],
    usage: { prompt_tokens: 12, completion_tokens: TOKENS, total_tokens: 12 + TOKENS },
  });
  yield 'data: [DONE]\n\n';
}

function* responsesEvents(model) {
  let seq = 0;
  const ev = (type, data) => sse({ type, sequence_number: seq++, ...data }, type);
  const response = { id: 'resp_mock', object: 'response', created_at: CREATED, model, status: 'in_progress', output: [] };
  const item = { type: 'message', id: 'msg_mock', role: 'assistant', status: 'in_progress', content: [] };
  yield ev('response.created', { response });
  yield ev('response.output_item.added', { output_index: 0, item });
  yield ev('response.content_part.added', { item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  let text = '';
  for (let i = 0; i < TOKENS; i++) {
    const delta = tokenText(i);
    text += delta;
    yield ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta, logprobs: [] });
  }
  yield ev('response.output_text.done', { item_id: item.id, output_index: 0, content_index: 0, text, logprobs: [] });
  const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
  yield ev('response.output_item.done', { output_index: 0, item: done });
  yield ev('response.completed', {
    response: { ...response, status: 'completed', output: [done], usage: { input_tokens: 12, output_tokens: TOKENS, total_tokens: 12 + TOKENS } },
  });
}

/** Writes each event on its own, one per turn of the event loop, waiting for 'drain' when asked to. */
async function stream(res, events) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const event of events) {
    if (res.destroyed) return;
    if (!res.write(event)) await new Promise((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
    else await new Promise((resolve) => setImmediate(resolve));
  }
  res.end();
}

async function readJson(req) {
  let text = '';
  for await (const chunk of req) text += chunk;
  return JSON.parse(text || '{}');
}

const server = createServer((req, res) => {
  const path = req.url.split('?')[0];
  if (path === '/health') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
    return;
  }
  const make = req.method === 'POST' && (path === '/v1/chat/completions' ? chatEvents : path === '/v1/responses' ? responsesEvents : null);
  if (!make) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end('{"error":{"message":"not found"}}');
    return;
  }
  readJson(req).then((body) => {
    if (body.stream !== true) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"this mock only streams: send stream: true"}}');
      return undefined;
    }
    return stream(res, make(String(body.model ?? 'mock-1')));
  }).catch((err) => {
    if (!res.headersSent) res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: err.message } }));
  });
});
server.keepAliveTimeout = 65000;
server.listen(port, host, () => {
  const { address, port: bound } = server.address();
  console.log(`mock OpenAI listening on http://${address}:${bound} (${TOKENS} tokens per answer)`);
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)).closeAllConnections?.());
