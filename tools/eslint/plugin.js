// A local eslint plugin (eslint.config.js): one rule that keeps the stream
// core off what a program can patch after we load.
//
// fast-webstreams/no-patchable-builtins: src/intrinsics.js captures the
// built-ins the spec algorithms need (Promise.prototype.then, Reflect.apply,
// Object.defineProperty, the ArrayBuffer accessors, ...) when the library
// loads. Code that reaches a built-in any other way sees what a program put
// there later (a patched Promise.prototype.then, a replaced globalThis.Promise),
// and the Web Platform Tests check that streams do not. Statically we can see
// two such ways, and the rule reports exactly those:
//   - a call of a method named then, catch or finally (`p.then(f)`, also
//     `p['then'](f)`): it goes through Promise.prototype, or through whatever
//     object p is; use promiseThen(p, f, r) (or a helper of src/promise.js);
//   - a read of a listed global (`Promise`, `Object.keys`, `new TypeError`,
//     `globalThis.Reflect`) that is not shadowed by a local name: use the
//     captured constant from src/intrinsics.js (add one there if none exists).
// Both only where they run after the module has loaded (in a function, a
// method, an instance field's initialiser): code that runs while the module
// loads (`const kTag = Symbol('tag')` at the top level, a static block) sees
// the same built-ins src/intrinsics.js captured, a moment earlier.
// Not seen: a method call on an array or a typed array (`.push(`, `.set(`):
// whether the receiver is one is not known without types.
// (Node's own core has the same idea as its primordials rule.)

const DEFAULT_METHODS = ['then', 'catch', 'finally'];
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Does `node` run after its module has loaded: inside a function or an instance field's initialiser? */
function runsLater(context, node) {
  let child = node;
  for (const parent of context.sourceCode.getAncestors(node).reverse()) {
    if (FUNCTIONS.has(parent.type)) return true;
    if (parent.type === 'PropertyDefinition' && !parent.static && parent.value === child) return true;
    child = parent;
  }
  return false;
}

/** The property name of a member expression when it is static (`a.b`, `a['b']`), else null. */
function staticName(member) {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.computed && member.property.type === 'Literal' && typeof member.property.value === 'string') {
    return member.property.value;
  }
  return null;
}

const noPatchableBuiltins = {
  meta: {
    type: 'problem',
    docs: { description: 'use the intrinsics captured in src/intrinsics.js, not built-ins a program can patch' },
    schema: [{
      type: 'object',
      properties: {
        methods: { type: 'array', items: { type: 'string' } },
        globals: { type: 'object', additionalProperties: { type: 'string' } },
      },
      additionalProperties: false,
    }],
    messages: {
      method: '.{{name}}() looks {{name}} up on the receiver (Promise.prototype.{{name}} for a promise), which a program can replace: use promiseThen from src/intrinsics.js (or a helper of src/promise.js).',
      global: 'the global {{name}} is what a program has made of it by now: use {{instead}} from src/intrinsics.js.',
    },
  },
  create(context) {
    const options = context.options[0] ?? {};
    const methods = new Set(options.methods ?? DEFAULT_METHODS);
    const globals = options.globals ?? {};
    const report = (node, name) => {
      if (runsLater(context, node)) context.report({ node, messageId: 'global', data: { name, instead: globals[name] } });
    };
    return {
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type !== 'MemberExpression') return;
        const name = staticName(callee);
        if (name !== null && methods.has(name) && runsLater(context, node)) {
          context.report({ node: callee.property, messageId: 'method', data: { name } });
        }
      },
      // globalThis.Promise and friends.
      MemberExpression(node) {
        if (node.object.type !== 'Identifier' || node.object.name !== 'globalThis') return;
        const name = staticName(node);
        if (name !== null && Object.hasOwn(globals, name) && isGlobal(context, node.object)) report(node, name);
      },
      'Program:exit'(program) {
        const scope = context.sourceCode.getScope(program);
        const seen = new Set();
        const check = (ref) => {
          const name = ref.identifier.name;
          if (!Object.hasOwn(globals, name) || seen.has(ref.identifier)) return;
          seen.add(ref.identifier);
          report(ref.identifier, name);
        };
        // Declared globals (ecmaVersion built-ins, languageOptions.globals) and undeclared ones.
        for (const name of Object.keys(globals)) {
          const variable = scope.set.get(name);
          if (variable !== undefined && variable.defs.length === 0) variable.references.forEach(check);
        }
        scope.through.forEach(check);
      },
    };
  },
};

/** Does `identifier` name the global variable (not a local of the same name)? */
function isGlobal(context, identifier) {
  let scope = context.sourceCode.getScope(identifier);
  while (scope !== null) {
    const variable = scope.set.get(identifier.name);
    if (variable !== undefined) return scope.type === 'global' && variable.defs.length === 0;
    scope = scope.upper;
  }
  return true;
}

export default {
  meta: { name: 'fast-webstreams' },
  rules: { 'no-patchable-builtins': noPatchableBuiltins },
};
