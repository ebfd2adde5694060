// Every public object (stream, reader, writer, controller, request) is a thin
// WebIDL facade over an internal record ("Impl") that holds the spec's slots.
// Internal code builds facades by passing this key to the public constructor;
// user code cannot obtain it, so `new ReadableStreamDefaultController()` still
// throws "Illegal constructor" for them.
export const kWrap = Symbol('fast-webstreams.wrap');
