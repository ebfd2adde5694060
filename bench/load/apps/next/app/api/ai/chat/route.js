// POST /api/ai/chat: the AI SDK's chat route as its docs write it, over chat
// completions (openai.chat(): POST /v1/chat/completions, stream: true).
import { convertToModelMessages, streamText } from 'ai';
import { MODEL, openai } from '../../../../lib/llm.js';

export const dynamic = 'force-dynamic';

export async function POST(request) {
  const { messages } = await request.json();
  const result = streamText({
    model: openai.chat(MODEL),
    messages: await convertToModelMessages(messages),
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse();
}
