// React server rendering: a product page with a synchronous shell and two
// Suspense boundaries whose data arrives a moment later, rendered with
// renderToReadableStream (exported by react-dom/server under Node since React 19).
import { createElement as h, Suspense, use } from 'react';
import { renderToReadableStream } from 'react-dom/server';

const products = Array.from({ length: 120 }, (_, i) => ({
  id: i + 1,
  name: `Product ${i + 1}`,
  price: ((i * 37) % 200) + 0.99,
  tags: ['fast', 'streams', i % 2 ? 'odd' : 'even'],
}));

// Data that resolves on the next turn of the event loop, like a cache or a fast DB.
function later(value) {
  return new Promise((resolve) => setImmediate(resolve, value));
}

function Reviews({ data }) {
  const reviews = use(data);
  return h('section', { className: 'reviews' },
    h('h2', null, 'Reviews'),
    h('ul', null, reviews.map((r) => h('li', { key: r.id }, h('strong', null, r.author), ` ${r.text}`))));
}

function Recommendations({ data }) {
  const items = use(data);
  return h('aside', null, h('h2', null, 'You may also like'),
    h('ol', null, items.map((p) => h('li', { key: p.id }, h('a', { href: `/p/${p.id}` }, p.name)))));
}

function Page({ reviews, recommendations }) {
  return h('html', { lang: 'en' },
    h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, 'fast-webstreams example shop')),
    h('body', null,
      h('header', null, h('h1', null, 'Example shop'), h('nav', null, ['Home', 'Deals', 'Cart'].map((x) => h('a', { key: x, href: `/${x.toLowerCase()}` }, x)))),
      h('main', null,
        h('table', null,
          h('thead', null, h('tr', null, h('th', null, 'Name'), h('th', null, 'Price'), h('th', null, 'Tags'))),
          h('tbody', null, products.map((p) => h('tr', { key: p.id },
            h('td', null, h('a', { href: `/p/${p.id}` }, p.name)),
            h('td', null, `$${p.price.toFixed(2)}`),
            h('td', null, p.tags.join(', ')))))),
        h(Suspense, { fallback: h('p', null, 'Loading reviews...') }, h(Reviews, { data: reviews })),
        h(Suspense, { fallback: h('p', null, 'Loading recommendations...') }, h(Recommendations, { data: recommendations }))),
      h('footer', null, 'Rendered with React ', h('code', null, 'renderToReadableStream'))));
}

/** Renders the page; resolves to a byte ReadableStream once the shell is ready. */
export function renderPage({ signal } = {}) {
  const reviews = later(Array.from({ length: 30 }, (_, i) => ({ id: i, author: `user${i}`, text: 'Great product, streams quickly. '.repeat(3) })));
  const recommendations = later(products.slice(0, 24));
  return renderToReadableStream(h(Page, { reviews, recommendations }), { signal });
}
