// Drops the comments and indentation of a module's text for the bundle
// (tools/bundle.mjs), keeping every line break, so the bundle's line map to
// src/ stays exact and automatic semicolon insertion sees the same code.
// Why: V8 keeps a module's whole source text on the heap for the life of the
// process (lazy compilation reads it again), and src/'s comments and
// indentation are about a third of the bundle; every process started with the
// preload carries that text (docs/interop.md, "Memory at rest").
//
// Only what lies between two tokens is touched: whitespace becomes one space
// (or the line breaks it held), a comment becomes nothing. Strings, template
// text and regular expressions are tokens, so they are never changed. The
// tokenizer leaves a template's opening backquote and a substitution's
// closing brace between tokens; those are kept.
import { tokenize } from './tokenize.mjs';

const SPACE = /[ \t\r\f\v\ufeff\u00a0]/;

/** `text` without comments and indentation, with the same lines. */
export function compact(text) {
  let out = '';
  let pos = 0;
  const between = (s, e) => {
    let breaks = 0;
    let blank = false;
    const flush = () => {
      if (breaks > 0) out += '\n'.repeat(breaks);
      else if (blank && out !== '' && out[out.length - 1] !== '\n') out += ' ';
      breaks = 0;
      blank = false;
    };
    for (let i = s; i < e;) {
      const c = text[i];
      if (c === '\n') { breaks++; i++; continue; }
      if (SPACE.test(c)) { blank = true; i++; continue; }
      if (c === '/' && text[i + 1] === '/') {
        const nl = text.indexOf('\n', i);
        i = nl < 0 || nl > e ? e : nl;
        blank = true;
        continue;
      }
      if (c === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2) + 2;
        for (let j = i; j < end; j++) if (text[j] === '\n') breaks++;
        i = end;
        blank = true;
        continue;
      }
      if (c !== '`' && c !== '}') throw new Error(`compact: unexpected ${JSON.stringify(c)} between tokens`);
      flush();
      out += c;
      i++;
    }
    flush();
  };
  for (const tok of tokenize(text)) {
    between(pos, tok.s);
    out += text.slice(tok.s, tok.e);
    pos = tok.e;
  }
  between(pos, text.length);
  return out;
}
