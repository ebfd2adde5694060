// A local eslint plugin (eslint.config.js): two rules that keep the stream
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
// whether the receiver is one is not known without types (no-patchable-iteration,
// below, catches those on arrays the file visibly made).
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

// fast-webstreams/no-patchable-iteration: what a program can still reach in
// code that takes no global, because the language looks it up on a prototype
// each time (test/interop/hostile-globals.test.mjs patches each after load):
//   - array destructuring, spread into an array or a call, and for-of run
//     %ArrayIteratorPrototype%.next through Array.prototype[Symbol.iterator]:
//     index the array;
//   - a derived class without a constructor: Node 20's V8 passes its arguments
//     on to super() through the array iterator: write the constructor;
//   - a TypedArray made from an array literal iterates it: set its elements;
//   - a method of Array.prototype (push, shift, slice, ...) called on what
//     this file visibly made an array (a variable or `this.x` given `[...]`),
//     or of Map.prototype / Set.prototype / WeakMap.prototype on what it made
//     with new Map(), new MapCtor(), ...: write `a[a.length] = x`, or use the
//     uncurried capture of src/intrinsics.js (mapGet(map, key), ...).
// Only where the code runs after load, as no-patchable-builtins; the derived
// class wherever it is. A receiver whose kind the file does not show (an
// argument, another module's array) is not seen: types would be needed.
const ARRAY_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'slice', 'indexOf', 'lastIndexOf',
  'includes', 'map', 'forEach', 'filter', 'concat', 'join', 'at', 'some', 'every', 'find', 'findIndex', 'reduce',
  'fill', 'sort', 'reverse', 'flat', 'flatMap', 'entries', 'keys', 'values']);
const COLLECTION_METHODS = new Set(['get', 'set', 'has', 'delete', 'add', 'clear', 'forEach', 'keys', 'values', 'entries']);
const COLLECTIONS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet', 'MapCtor', 'SetCtor', 'WeakMapCtor', 'WeakSetCtor']);
const TYPED_ARRAY_CTOR = /^(Int8|Uint8|Uint8Clamped|Int16|Uint16|Int32|Uint32|Float16|Float32|Float64|BigInt64|BigUint64)Array(Ctor)?$/;

/** 'array', 'collection' or null: what `init` visibly makes. */
function kindOfValue(init) {
  if (init === null || init === undefined) return null;
  if (init.type === 'ArrayExpression') return 'array';
  if (init.type === 'NewExpression' && init.callee.type === 'Identifier') {
    if (COLLECTIONS.has(init.callee.name)) return 'collection';
    if (init.callee.name === 'Array' || init.callee.name === 'ArrayCtor') return 'array';
  }
  return null;
}

const noPatchableIteration = {
  meta: {
    type: 'problem',
    docs: { description: 'no array iteration or prototype method a program can replace, in code that runs after load' },
    schema: [],
    messages: {
      destructuring: 'array destructuring runs the array iterator, which a program can replace: index the array.',
      spread: 'spreading runs the iterator, which a program can replace: copy or pass by index.',
      forOf: 'for-of runs the iterator, which a program can replace: use an indexed loop.',
      derivedClass: 'a derived class without a constructor: Node 20 passes its arguments to super() through the array iterator; write constructor() { super(); }.',
      typedArrayFromArray: 'a TypedArray made from an array literal iterates it: make it by length and set its elements.',
      arrayMethod: '.{{name}}() is Array.prototype.{{name}}, which a program can replace: index the array ({{hint}}).',
      collectionMethod: '.{{name}}() is looked up on the collection\'s prototype, which a program can replace: use the uncurried capture in src/intrinsics.js.',
    },
  },
  create(context) {
    const kinds = new Map(); // eslint variable -> 'array' | 'collection'
    const thisKinds = new Map(); // property name given to `this.x` (or a class field) -> kind
    const calls = [];
    const later = (node) => runsLater(context, node);
    const variableOf = (identifier) => {
      let scope = context.sourceCode.getScope(identifier);
      while (scope !== null) {
        const variable = scope.set.get(identifier.name);
        if (variable !== undefined) return variable;
        scope = scope.upper;
      }
      return undefined;
    };
    const noteThis = (member, value) => {
      const kind = kindOfValue(value);
      if (kind !== null && member.type === 'MemberExpression' && member.object.type === 'ThisExpression') {
        const name = staticName(member);
        if (name !== null) thisKinds.set(name, kind);
      }
    };
    return {
      VariableDeclarator(node) {
        if (node.id.type === 'ArrayPattern' && later(node)) context.report({ node: node.id, messageId: 'destructuring' });
        const kind = kindOfValue(node.init);
        if (kind !== null && node.id.type === 'Identifier') {
          const variable = variableOf(node.id);
          if (variable !== undefined) kinds.set(variable, kind);
        }
      },
      AssignmentExpression(node) {
        if (node.left.type === 'ArrayPattern' && later(node)) context.report({ node: node.left, messageId: 'destructuring' });
        noteThis(node.left, node.right);
      },
      PropertyDefinition(node) {
        const kind = kindOfValue(node.value);
        if (kind !== null && !node.computed && node.key.type === 'Identifier') thisKinds.set(node.key.name, kind);
      },
      'ArrayPattern'(node) {
        // Parameters: `function f([a, b])`, `([a]) => ...`.
        const parent = node.parent;
        if (FUNCTIONS.has(parent.type) && parent.params.includes(node)) context.report({ node, messageId: 'destructuring' });
      },
      SpreadElement(node) {
        const parent = node.parent;
        if ((parent.type === 'ArrayExpression' || parent.type === 'CallExpression' || parent.type === 'NewExpression') && later(node)) {
          context.report({ node, messageId: 'spread' });
        }
      },
      ForOfStatement(node) {
        if (later(node)) context.report({ node, messageId: 'forOf' });
      },
      'ClassDeclaration, ClassExpression'(node) {
        if (node.superClass === null) return;
        if (!node.body.body.some((m) => m.type === 'MethodDefinition' && m.kind === 'constructor')) {
          context.report({ node: node.id ?? node, messageId: 'derivedClass' });
        }
      },
      NewExpression(node) {
        if (node.callee.type === 'Identifier' && TYPED_ARRAY_CTOR.test(node.callee.name) &&
            node.arguments[0]?.type === 'ArrayExpression' && later(node)) {
          context.report({ node: node.arguments[0], messageId: 'typedArrayFromArray' });
        }
      },
      CallExpression(node) {
        const callee = node.callee.type === 'ChainExpression' ? node.callee.expression : node.callee;
        if (callee.type === 'MemberExpression' && later(node)) calls.push(callee);
      },
      'Program:exit'() {
        // Receivers are known once the whole file was seen (a class field may follow its use).
        for (const callee of calls) {
          const name = staticName(callee);
          if (name === null) continue;
          let kind = null;
          if (callee.object.type === 'Identifier') {
            const variable = variableOf(callee.object);
            kind = variable === undefined ? null : kinds.get(variable) ?? null;
          } else if (callee.object.type === 'MemberExpression' && callee.object.object.type === 'ThisExpression') {
            const field = staticName(callee.object);
            kind = field === null ? null : thisKinds.get(field) ?? null;
          }
          if (kind === 'array' && ARRAY_METHODS.has(name)) {
            const hint = name === 'push' ? 'a[a.length] = x' : 'a loop over a[i]';
            context.report({ node: callee.property, messageId: 'arrayMethod', data: { name, hint } });
          } else if (kind === 'collection' && COLLECTION_METHODS.has(name)) {
            context.report({ node: callee.property, messageId: 'collectionMethod', data: { name } });
          }
        }
      },
    };
  },
};

export default {
  meta: { name: 'fast-webstreams' },
  rules: { 'no-patchable-builtins': noPatchableBuiltins, 'no-patchable-iteration': noPatchableIteration },
};
