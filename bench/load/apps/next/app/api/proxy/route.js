// GET /api/proxy: fetch() of 64 KB from the upstream, its body returned as it comes.
export const dynamic = 'force-dynamic';

export async function GET(request) {
  const upstream = await fetch(`${process.env.UPSTREAM_URL}/data?kb=64`, { cache: 'no-store', signal: request.signal });
  return new Response(upstream.body, {
    status: upstream.status,
    headers: { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' },
  });
}
