// The OpenAI-compatible endpoint the AI routes call: the runner's local mock
// (bench/load/apps/mock-openai.mjs), at LLM_URL.
import { createOpenAI } from '@ai-sdk/openai';

export const MODEL = 'mock-1';

export const openai = createOpenAI({ baseURL: `${process.env.LLM_URL}/v1`, apiKey: 'mock-key' });

/** The prompt of a chat request: the last user message's text. */
export function lastUserText(messages) {
  const last = messages.findLast((m) => m.role === 'user');
  return last?.parts?.filter((p) => p.type === 'text').map((p) => p.text).join('') ?? '';
}
