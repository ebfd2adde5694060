// GET /api/tokens: a route handler that streams ~200 small chunks, the way
// Next.js' docs stream from an async iterator (a pull() per chunk).
import { tokens } from '../../../lib/tokens.js';

export const dynamic = 'force-dynamic';

export async function GET() {
  const encoder = new TextEncoder();
  const iterator = tokens();
  const stream = new ReadableStream({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(encoder.encode(value));
    },
  });
  return new Response(stream, { headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}
