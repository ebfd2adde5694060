// POST /api/ai/chain: the chain by hand, as code without the AI SDK writes it:
// fetch() of the model's SSE -> TextDecoderStream -> EventSourceParserStream ->
// JSON (the text deltas) -> reframing as UI-message SSE -> TextEncoderStream -> Response.
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { MODEL, lastUserText } from '../../../../lib/llm.js';

export const dynamic = 'force-dynamic';

function textDeltas() {
  return new TransformStream({
    transform(event, controller) {
      if (event.data === '[DONE]') return;
      const text = JSON.parse(event.data).choices?.[0]?.delta?.content;
      if (text) controller.enqueue(text);
    },
  });
}

/** Each delta as one UI-message stream event, between a start and a finish. */
function uiMessageEvents() {
  const frame = (part) => `data: ${JSON.stringify(part)}\n\n`;
  return new TransformStream({
    start(controller) {
      controller.enqueue(frame({ type: 'start' }) + frame({ type: 'text-start', id: '0' }));
    },
    transform(delta, controller) {
      controller.enqueue(frame({ type: 'text-delta', id: '0', delta }));
    },
    flush(controller) {
      controller.enqueue(`${frame({ type: 'text-end', id: '0' })}${frame({ type: 'finish' })}data: [DONE]\n\n`);
    },
  });
}

export async function POST(request) {
  const { messages } = await request.json();
  const upstream = await fetch(`${process.env.LLM_URL}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer mock-key' },
    body: JSON.stringify({ model: MODEL, stream: true, messages: [{ role: 'user', content: lastUserText(messages) }] }),
    signal: request.signal,
  });
  if (!upstream.ok || !upstream.body) return new Response(`upstream answered ${upstream.status}`, { status: 502 });
  const body = upstream.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(textDeltas())
    .pipeThrough(uiMessageEvents())
    .pipeThrough(new TextEncoderStream());
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'x-vercel-ai-ui-message-stream': 'v1' },
  });
}
