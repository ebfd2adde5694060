// A small JavaScript tokenizer: enough to tell code from comments, strings,
// template text and regular expressions. Used by the build of the bundle
// (tools/bundle.mjs) and of the bench's "counters off" copy
// (bench/impls/strip-counters.mjs).

const PUNCTUATORS = [
  '>>>=', '...', '===', '!==', '**=', '<<=', '>>=', '>>>', '&&=', '||=', '??=',
  '=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '%=',
  '&=', '|=', '^=', '**', '<<', '>>',
];
// After these keywords a `/` starts a regular expression, not a division.
const REGEX_AFTER_WORD = new Set(['return', 'typeof', 'instanceof', 'in', 'of', 'new', 'delete', 'void',
  'throw', 'case', 'do', 'else', 'yield', 'await']);
const ID_START = /[A-Za-z_$#\u0080-\uffff]/;
const ID_PART = /[\w$\u0080-\uffff]/;

/**
 * Tokens of `src`: { t: 'id' | 'num' | 'str' | 'tpl' | 're' | 'p', v, s, e }
 * (identifier, number, string, template text, regex, punctuator), with
 * offsets s..e. Comments and whitespace are dropped.
 */
export function tokenize(src) {
  const toks = [];
  const braces = []; // '{' for a block or object, '${' for a template substitution
  let i = 0;
  const n = src.length;
  const fail = (why) => {
    const line = src.slice(0, i).split('\n').length;
    throw new Error(`cannot tokenize (${why}) at line ${line}`);
  };
  const regexAllowed = () => {
    const prev = toks[toks.length - 1];
    if (!prev) return true;
    if (prev.t === 'id') return REGEX_AFTER_WORD.has(prev.v);
    if (prev.t === 'p') return ![')', ']', '}'].includes(prev.v);
    return false;
  };
  // Template text from i (just after ` or the } closing a substitution).
  const template = () => {
    const s = i;
    for (;;) {
      if (i >= n) fail('unterminated template');
      const c = src[i];
      if (c === '\\') { i += 2; continue; }
      if (c === '`') { i++; toks.push({ t: 'tpl', v: src.slice(s, i), s, e: i }); return; }
      if (c === '$' && src[i + 1] === '{') {
        i += 2;
        toks.push({ t: 'tpl', v: src.slice(s, i), s, e: i });
        braces.push('${');
        return;
      }
      i++;
    }
  };
  while (i < n) {
    const c = src[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\ufeff' || c === '\u00a0') { i++; continue; }
    const s = i;
    if (c === '/' && src[i + 1] === '/') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      if (end < 0) fail('unterminated comment');
      i = end + 2;
      continue;
    }
    if (c === '#' && i === 0 && src[1] === '!') { while (i < n && src[i] !== '\n') i++; continue; }
    if (c === '\'' || c === '"') {
      i++;
      while (i < n && src[i] !== c) {
        if (src[i] === '\n') fail('newline in string');
        i += src[i] === '\\' ? 2 : 1;
      }
      if (i >= n) fail('unterminated string');
      i++;
      toks.push({ t: 'str', v: src.slice(s, i), s, e: i });
      continue;
    }
    if (c === '`') { i++; template(); continue; }
    if (ID_START.test(c)) {
      i++;
      while (i < n && ID_PART.test(src[i])) i++;
      toks.push({ t: 'id', v: src.slice(s, i), s, e: i });
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1]))) {
      i++;
      while (i < n && /[\w.]/.test(src[i])) {
        if ((src[i] === 'e' || src[i] === 'E') && (src[i + 1] === '+' || src[i + 1] === '-') && !/^0[xX]/.test(src.slice(s, i))) i++;
        i++;
      }
      toks.push({ t: 'num', v: src.slice(s, i), s, e: i });
      continue;
    }
    if (c === '/' && regexAllowed()) {
      i++;
      let inClass = false;
      while (i < n) {
        const d = src[i];
        if (d === '\n') fail('newline in regular expression');
        if (d === '\\') { i += 2; continue; }
        if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        i++;
      }
      if (i >= n) fail('unterminated regular expression');
      i++;
      while (i < n && ID_PART.test(src[i])) i++;
      toks.push({ t: 're', v: src.slice(s, i), s, e: i });
      continue;
    }
    if (c === '{') { braces.push('{'); i++; toks.push({ t: 'p', v: '{', s, e: i }); continue; }
    if (c === '}') {
      const open = braces.pop();
      if (open === '${') { i++; template(); continue; }
      i++;
      toks.push({ t: 'p', v: '}', s, e: i });
      continue;
    }
    const p = PUNCTUATORS.find((q) => src.startsWith(q, i)) ?? c;
    // `a ?.5 : b` is a conditional, not optional chaining.
    const v = p === '?.' && /[0-9]/.test(src[i + 2] ?? '') ? '?' : p;
    i += v.length;
    toks.push({ t: 'p', v, s, e: i });
  }
  return toks;
}
