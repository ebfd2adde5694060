import { webStreamsInUse } from '../../../lib/web-streams.js';

export const dynamic = 'force-dynamic';

export async function GET() {
  return Response.json({ ok: true, webStreams: await webStreamsInUse(), node: process.version, pid: process.pid });
}
