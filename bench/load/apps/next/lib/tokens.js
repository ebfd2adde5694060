// ~200 text chunks of 50-200 bytes, made one by one as a model's tokens would be.
const WORDS = ['stream', 'ing ', 'the ', 'answer', ', one ', 'token ', 'at a ', 'time', '. ', 'Über', 'näive ', '→ '];

export const TOKEN_COUNT = 200;

export function tokenText(i) {
  const size = 50 + ((i * 37) % 151); // 50..200 bytes, the same sequence on every request
  let text = `${i}:`;
  for (let k = 0; Buffer.byteLength(text) < size - 8; k++) text += WORDS[(i + k) % WORDS.length];
  return `${text}\n`;
}

export async function* tokens(count = TOKEN_COUNT) {
  for (let i = 0; i < count; i++) {
    await null; // the producer is asynchronous, as a model client is
    yield tokenText(i);
  }
}
