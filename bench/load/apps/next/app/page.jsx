// GET /: a page rendered on every request (a 120-row table and a Suspense
// boundary). Next.js 16.3+ renders pages with Node streams, so this route
// shows what the preload does to a page: nothing, if it makes no web stream.
import { Suspense } from 'react';

export const dynamic = 'force-dynamic';

const ROWS = Array.from({ length: 120 }, (_, i) => ({ id: i, name: `item ${i}`, price: ((i * 7919) % 10000) / 100 }));

async function Recommendations() {
  await new Promise((resolve) => setImmediate(resolve)); // a data fetch
  return <ul>{ROWS.slice(0, 8).map((r) => <li key={r.id}>{r.name}</li>)}</ul>;
}

export default function Page() {
  return (
    <main>
      <h1>Shop</h1>
      <table>
        <tbody>
          {ROWS.map((r) => (
            <tr key={r.id}><td>{r.id}</td><td>{r.name}</td><td>{r.price.toFixed(2)}</td></tr>
          ))}
        </tbody>
      </table>
      <Suspense fallback={<p>loading...</p>}>
        <Recommendations />
      </Suspense>
    </main>
  );
}
