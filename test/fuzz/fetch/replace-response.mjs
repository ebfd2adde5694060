// A library that puts its own Response class in the global's place, its
// accessors not configurable, and hands bodies over to the original (what
// @hono/node-server 2.x does; a copy of that shape, not of its code).
const Original = globalThis.Response;
const inner = Symbol('inner');
class Response {
  constructor(body, init) {
    this[inner] = new Original(body, init);
  }
  static [Symbol.hasInstance](value) {
    return value instanceof Original || Object.prototype.isPrototypeOf.call(Response.prototype, value);
  }
}
for (const key of ['body', 'bodyUsed', 'headers', 'ok', 'redirected', 'status', 'statusText', 'type', 'url']) {
  Object.defineProperty(Response.prototype, key, { get() { return this[inner][key]; } });
}
for (const key of ['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text']) {
  Object.defineProperty(Response.prototype, key, { value() { return this[inner][key](); } });
}
Object.defineProperty(globalThis, 'Response', { value: Response, writable: true, configurable: true });
