// POST /api/ai/responses: the same over the Responses API (openai(): POST /v1/responses).
import { convertToModelMessages, streamText } from 'ai';
import { MODEL, openai } from '../../../../lib/llm.js';

export const dynamic = 'force-dynamic';

export async function POST(request) {
  const { messages } = await request.json();
  const result = streamText({
    model: openai(MODEL),
    messages: await convertToModelMessages(messages),
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse();
}
