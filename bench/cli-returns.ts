/**
 * How often the flow of a CLI verb crosses back into the CLI (issue 37, item 4): from the verb's
 * commander action (the function `.action(action(…))` is given), a static walk of the call graph in source order,
 * with the TypeScript compiler API:
 *
 * - a call whose callee is declared in `src/cli/` is a CLI event (`C`); its body is walked in place
 *   (once per function: the first call site expands it);
 * - a call whose callee is declared elsewhere in `src/` is a library event (`L`); its body is not
 *   walked (the library's work), but every function the CLI hands it — an arrow or function argument,
 *   a function-valued property or method of an object argument, a CLI function passed by name, or the
 *   object a CLI variable or CLI function returns — is a callback: a `C` event right after the `L`
 *   (the library calls back into the CLI), its body walked;
 * - calls into node_modules or Node itself are not events, nor what a `throw` builds;
 * - a CLI object literal handed to a CLI function (`runVerb(f, evalVerb)`) binds its parameter, so
 *   that calls through it (`v.print(…)`) resolve to the literal's functions.
 *
 * "Returns into the CLI" are the `L` → `C` transitions of the event sequence: each time the flow,
 * having left the CLI for the library, comes back into CLI code (a helper that works on the options,
 * a callback, the printer). The CLI functions entered after the first library call are listed, so
 * one sees what the returns are (work on the options, or progress and printing).
 *
 * `node dist/bench/cli-returns.js [repo root, default: this checkout]` — run it on two checkouts to
 * compare (before / after).
 */
import ts from 'typescript';
import { join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(process.argv[2] ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', '..'));
const cliDir = join(root, 'src', 'cli') + sep;
const srcDir = join(root, 'src') + sep;
const VERBS: readonly [string, string][] = [
  ['eval', 'src/cli/commands/eval.ts'],
  ['benchmark', 'src/cli/commands/benchmark.ts'],
  ['evaluate', 'src/cli/commands/evaluate.ts'],
];

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
if (!config) throw new Error(`${root}/tsconfig.json could not be read`);
const program = ts.createProgram(VERBS.map(([, f]) => join(root, f)), { ...config.options, noEmit: true });
const checker = program.getTypeChecker();

type Fn = ts.FunctionLikeDeclaration;
interface Event {
  readonly kind: 'L' | 'C';
  readonly name: string;
  readonly callback: boolean;
  /** A CLI event that receives the options or a value made from them (an argument, or a callback's body, mentions one). */
  readonly options?: boolean;
}

const isFn = (n: ts.Node): n is Fn => ts.isFunctionDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n) || ts.isMethodDeclaration(n);

/** Parameters of CLI functions bound, at the call the walk expanded, to a CLI object literal (e.g. `runVerb(f, evalVerb)`: v → evalVerb's literal). */
const bindings = new Map<ts.Symbol, ts.ObjectLiteralExpression>();

/** The object literal an expression stands for through a bound parameter (`v`, `v.hooks`). */
function boundObject(e: ts.Expression): ts.ObjectLiteralExpression | undefined {
  if (ts.isIdentifier(e)) {
    const sym = checker.getSymbolAtLocation(e);
    return sym ? bindings.get(sym) : undefined;
  }
  if (ts.isPropertyAccessExpression(e)) {
    const o = boundObject(e.expression);
    const p = o?.properties.find((q) => q.name?.getText() === e.name.text);
    if (p && ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(p.initializer)) return p.initializer;
  }
  return undefined;
}

function declOf(e: ts.Expression): ts.Declaration | undefined {
  if (ts.isPropertyAccessExpression(e)) {
    // A member of a bound object literal: the property itself (its function, or what it names).
    const o = boundObject(e.expression);
    const p = o?.properties.find((q) => q.name?.getText() === e.name.text);
    if (p && ts.isPropertyAssignment(p) && ts.isIdentifier(p.initializer)) return declOf(p.initializer);
    if (p && ts.isShorthandPropertyAssignment(p)) return checker.getShorthandAssignmentValueSymbol(p)?.declarations?.[0];
    if (p) return p;
  }
  const at = ts.isPropertyAccessExpression(e) ? e.name : e;
  let s = ts.isShorthandPropertyAssignment(at.parent) && at.parent.name === at ? checker.getShorthandAssignmentValueSymbol(at.parent) : checker.getSymbolAtLocation(at);
  if (s && s.flags & ts.SymbolFlags.Alias) s = checker.getAliasedSymbol(s);
  return s?.declarations?.[0];
}

/** The function a declaration stands for (a function, a method, a const = arrow), if any. */
function fnOf(d: ts.Declaration | undefined): Fn | undefined {
  if (!d) return undefined;
  if (isFn(d)) return d;
  if (ts.isPropertyAssignment(d) && isFn(d.initializer)) return d.initializer;
  if (ts.isVariableDeclaration(d) && d.initializer && isFn(d.initializer)) return d.initializer;
  if ((ts.isPropertyAssignment(d) || ts.isPropertyDeclaration(d)) && d.initializer && isFn(d.initializer)) return d.initializer;
  return undefined;
}

const where = (n: ts.Node): string => n.getSourceFile().fileName;
const inCli = (n: ts.Node): boolean => where(n).startsWith(cliDir);
const inSrc = (n: ts.Node): boolean => where(n).startsWith(srcDir) && !where(n).includes(`${sep}node_modules${sep}`);

function nameOf(e: ts.Expression): string {
  return e.getText().replace(/\s+/g, '').slice(0, 60);
}

/** The object literal a CLI variable holds: its initializer, the object a CLI function returns, or a property of either (destructured). */
function valueOf(d: ts.Declaration, depth: number): ts.ObjectLiteralExpression | undefined {
  if (depth > 5) return undefined;
  const ofExpr = (e: ts.Expression): ts.ObjectLiteralExpression | undefined => {
    if (ts.isObjectLiteralExpression(e)) return e;
    if (ts.isCallExpression(e)) {
      const g = fnOf(declOf(e.expression));
      let found: ts.ObjectLiteralExpression | undefined;
      g?.body?.forEachChild(function ret(n): void {
        if (found) return;
        if (ts.isReturnStatement(n) && n.expression) found = ofExpr(n.expression);
        else if (!isFn(n)) n.forEachChild(ret);
      });
      return found;
    }
    if (ts.isIdentifier(e)) {
      const x = declOf(e);
      return x && inCli(x) ? valueOf(x, depth + 1) : undefined;
    }
    return undefined;
  };
  if (ts.isVariableDeclaration(d) && d.initializer) return ofExpr(d.initializer);
  if (ts.isBindingElement(d) && ts.isObjectBindingPattern(d.parent) && ts.isVariableDeclaration(d.parent.parent) && d.parent.parent.initializer) {
    const whole = ofExpr(d.parent.parent.initializer);
    const key = (d.propertyName ?? d.name).getText();
    const p = whole?.properties.find((q) => q.name?.getText() === key);
    if (p && ts.isPropertyAssignment(p)) return ofExpr(p.initializer);
    if (p && ts.isShorthandPropertyAssignment(p)) {
      const x = checker.getShorthandAssignmentValueSymbol(p)?.declarations?.[0];
      return x ? valueOf(x, depth + 1) : undefined;
    }
  }
  return undefined;
}

function walkVerb(file: string): Event[] {
  const sf = program.getSourceFile(join(root, file));
  if (!sf) throw new Error(`${file} not found`);
  // The function the verb's commander action runs: `.action(action((o) => …))`.
  let start: Fn | undefined;
  sf.forEachChild(function find(n): void {
    if (start) return;
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'action') {
      const a = n.arguments[0];
      const inner = a && ts.isCallExpression(a) ? a.arguments[0] : a;
      if (inner && isFn(inner)) start = inner;
    }
    n.forEachChild(find);
  });
  if (!start) throw new Error(`${file}: no .action(…) callback`);
  const events: Event[] = [];
  const expanded = new Set<ts.Node>();
  // The options and what is made from them: the parameters of run, then every variable initialised
  // from an expression that mentions one, and the parameters of a CLI function that receives one.
  const tainted = new Set<ts.Symbol>();
  const symbolAt = (id: ts.Node): ts.Symbol | undefined => (ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id ? checker.getShorthandAssignmentValueSymbol(id.parent) : checker.getSymbolAtLocation(id));
  const mentions = (n: ts.Node): boolean => {
    let found = false;
    const look = (m: ts.Node): void => {
      if (found) return;
      if (ts.isIdentifier(m)) {
        const sym = symbolAt(m);
        if (sym && tainted.has(sym)) found = true;
      }
      m.forEachChild(look);
    };
    look(n);
    return found;
  };
  const taintNames = (b: ts.BindingName): void => {
    if (ts.isIdentifier(b)) {
      const sym = checker.getSymbolAtLocation(b);
      if (sym) tainted.add(sym);
    } else for (const e of b.elements) if (!ts.isOmittedExpression(e)) taintNames(e.name);
  };
  for (const p of start.parameters) taintNames(p.name);
  const expand = (f: Fn): void => {
    if (expanded.has(f) || !f.body) return;
    expanded.add(f);
    visit(f.body);
  };
  /** The callbacks an argument of a library call hands over. */
  const callbacks = (a: ts.Expression, label: string): void => {
    if (isFn(a)) {
      events.push({ kind: 'C', name: `${label} (callback)`, callback: true, options: mentions(a) });
      expand(a);
    } else if (ts.isObjectLiteralExpression(a)) {
      for (const p of a.properties) {
        const v = ts.isPropertyAssignment(p) ? p.initializer : ts.isMethodDeclaration(p) ? p : ts.isShorthandPropertyAssignment(p) ? p.name : undefined;
        if (v) callbacks(v as ts.Expression, `${label}.${p.name?.getText() ?? '?'}`);
        else if (ts.isSpreadAssignment(p)) {
          const o = boundObject(p.expression);
          if (o) callbacks(o, `${label}.${p.expression.getText()}`);
          else visit(p.expression);
        }
      }
    } else if (ts.isIdentifier(a) || ts.isPropertyAccessExpression(a)) {
      const d = declOf(a);
      if (!d || !inCli(d)) return;
      const f = fnOf(d);
      if (f) {
        events.push({ kind: 'C', name: `${nameOf(a)} (callback)`, callback: true, options: mentions(f) });
        expand(f);
        return;
      }
      const v = valueOf(d, 0);
      if (v) callbacks(v, nameOf(a));
    } else visit(a);
  };
  const visit = (n: ts.Node): void => {
    if (ts.isThrowStatement(n)) return; // building an error is not the flow
    if (ts.isVariableDeclaration(n) && n.initializer) {
      visit(n.initializer);
      if (mentions(n.initializer)) taintNames(n.name);
      return;
    }
    if (ts.isCallExpression(n) || ts.isNewExpression(n)) {
      const d = declOf(n.expression);
      const args = n.arguments ?? ts.factory.createNodeArray();
      if (d && inCli(d)) {
        const f = fnOf(d);
        const given = args.map(mentions);
        events.push({ kind: 'C', name: nameOf(n.expression), callback: false, options: given.some((x) => x) || mentions(n.expression) });
        n.expression.forEachChild(visit);
        args.forEach(visit);
        given.forEach((x, i) => {
          const param = f?.parameters[Math.min(i, (f?.parameters.length ?? 1) - 1)];
          if (x && param) taintNames(param.name);
        });
        args.forEach((a, i) => {
          const param = f?.parameters[i];
          const x = ts.isIdentifier(a) ? declOf(a) : undefined;
          const lit = x && inCli(x) && ts.isVariableDeclaration(x) && x.initializer && ts.isObjectLiteralExpression(x.initializer) ? x.initializer : undefined;
          const sym = param && ts.isIdentifier(param.name) ? checker.getSymbolAtLocation(param.name) : undefined;
          if (lit && sym) bindings.set(sym, lit);
        });
        if (f) expand(f);
        return;
      }
      if (d && inSrc(d)) {
        n.expression.forEachChild(visit);
        events.push({ kind: 'L', name: nameOf(n.expression), callback: false });
        args.forEach((a) => callbacks(a, nameOf(n.expression)));
        return;
      }
    }
    n.forEachChild(visit);
  };
  expand(start);
  return events;
}

for (const [verb, file] of VERBS) {
  const events = walkVerb(file);
  let returns = 0;
  let left = false;
  const back: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as Event;
    if (e.kind === 'L') left = true;
    else if (left) back.push(e.name);
    if (e.kind === 'C' && i > 0 && events[i - 1]?.kind === 'L') returns++;
  }
  const cliCalls = events.filter((e) => e.kind === 'C' && !e.callback).length;
  const withOptions = [...new Set(events.filter((e, i) => e.kind === 'C' && e.options && events.slice(0, i).some((x) => x.kind === 'L')).map((e) => e.name))];
  const optionSites = events.filter((e, i) => e.kind === 'C' && e.options && events.slice(0, i).some((x) => x.kind === 'L')).length;
  const cbs = events.filter((e) => e.callback).length;
  console.log(`${verb}: ${returns} returns into the CLI (L→C), ${events.filter((e) => e.kind === 'L').length} library calls, ${cliCalls} CLI call sites, ${cbs} callbacks`);
  console.log(`  options back in the CLI after the first library call: ${optionSites} call sites and callbacks (${withOptions.join(', ')})`);
  console.log(`  CLI code entered after the first library call: ${[...new Set(back)].join(', ')}`);
}
