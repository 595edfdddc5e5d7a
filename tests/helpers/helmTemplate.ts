/**
 * A small Go text/template engine with the Helm/Sprig functions the portal chart uses.
 *
 * It is not Helm. It implements exactly the subset of the template language found in
 * helm/portal/templates, with Go's semantics where they matter for the output:
 * - actions with `{{-` / `-}}` whitespace trimming and `{{/* comments *\/}}`;
 * - `if` / `else if` / `else`, `with`, `range` (lists and maps, sorted keys), `define`,
 *   `template`, variables (`$x :=`, `$x =`, `$`), parenthesised pipelines;
 * - values: YAML numbers are float64 (as in Helm, so 1000000 prints as 1e+06) and the
 *   results of `int`/`add`/`div` are int64 (bigint here); comparing the two kinds is an
 *   error, as it is in Go;
 * - a field of a missing value is an error ("nil pointer evaluating"), a missing field
 *   of .Chart/.Release/.Template is an error ("can't evaluate field"), unknown
 *   functions are rejected when parsing.
 * Anything outside the subset throws instead of rendering something plausible.
 *
 * renderChart() mimics `helm template`: it merges values over values.yaml, validates
 * them against values.schema.json, renders every template except partials
 * (`_*.tpl`) and NOTES.txt, and returns the output per template file.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}

/** Raised by the `fail` template function; message is the template's own. */
export class TemplateFailError extends TemplateError {
  constructor(readonly reason: string) {
    super(`execution error: ${reason}`);
    this.name = 'TemplateFailError';
  }
}

// ---------------------------------------------------------------------------
// Values

type Dict = Record<string, unknown>;

const structs = new WeakSet<object>();

/** Marks an object as a Go struct (.Chart, .Release, ...): unknown fields are errors. */
export function goStruct<T extends object>(value: T): T {
  structs.add(value);
  return value;
}

function isStruct(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && structs.has(v);
}

function isMap(v: unknown): v is Dict {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !structs.has(v);
}

type Kind = 'nil' | 'bool' | 'int' | 'float' | 'string' | 'slice' | 'map' | 'struct';

function kindOf(v: unknown): Kind {
  if (v === undefined || v === null) return 'nil';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'float';
  if (typeof v === 'string') return 'string';
  if (Array.isArray(v)) return 'slice';
  if (isStruct(v)) return 'struct';
  if (isMap(v)) return 'map';
  throw new TemplateError(`unsupported value type: ${typeof v}`);
}

/** Go's template truth: false, 0, nil and empty strings/collections are false. */
export function truth(v: unknown): boolean {
  switch (kindOf(v)) {
    case 'nil':
      return false;
    case 'bool':
      return v as boolean;
    case 'int':
      return (v as bigint) !== 0n;
    case 'float':
      return (v as number) !== 0;
    case 'string':
      return (v as string).length > 0;
    case 'slice':
      return (v as unknown[]).length > 0;
    case 'map':
      return Object.keys(v as Dict).length > 0;
    case 'struct':
      return true;
  }
}

/** fmt's %v for a float64: shortest representation, exponent form from 1e+06 up. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa = '', expText = '0'] = x.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const sign = exp < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(x);
}

/** fmt.Sprint of one value (%v); nil prints as "" the way Helm post-processes it. */
export function formatValue(v: unknown, nil = ''): string {
  switch (kindOf(v)) {
    case 'nil':
      return nil;
    case 'bool':
      return v ? 'true' : 'false';
    case 'int':
      return (v as bigint).toString();
    case 'float':
      return formatFloat(v as number);
    case 'string':
      return v as string;
    case 'slice':
      return `[${(v as unknown[]).map((e) => formatValue(e, '<nil>')).join(' ')}]`;
    case 'map':
    case 'struct': {
      const d = v as Dict;
      const body = Object.keys(d)
        .sort()
        .map((k) => `${k}:${formatValue(d[k], '<nil>')}`)
        .join(' ');
      return `map[${body}]`;
    }
  }
}

/** Go's %q for a string. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** cast.ToInt64 as Sprig uses it (errors become 0). */
function toInt(v: unknown): bigint {
  switch (kindOf(v)) {
    case 'int':
      return v as bigint;
    case 'float':
      return BigInt(Math.trunc(v as number));
    case 'bool':
      return v ? 1n : 0n;
    case 'string': {
      const s = (v as string).trim();
      const m = /^([+-]?\d+)(\.0*)?$/.exec(s);
      return m ? BigInt(m[1]!) : 0n;
    }
    default:
      return 0n;
  }
}

/** Sprig's strval (toString, quote). */
function strval(v: unknown): string {
  return typeof v === 'string' ? v : formatValue(v, '<nil>');
}

function empty(v: unknown): boolean {
  return kindOf(v) === 'struct' ? false : !truth(v);
}

function requireString(fn: string, v: unknown): string {
  if (typeof v !== 'string') {
    throw new TemplateError(`${fn}: wrong type for value; expected string; got ${kindOf(v)}`);
  }
  return v;
}

function basicKind(fn: string, v: unknown): Kind {
  const k = kindOf(v);
  if (k === 'slice' || k === 'map' || k === 'struct') throw new TemplateError(`${fn}: non-comparable type ${k}`);
  return k;
}

function goEqual(a: unknown, b: unknown): boolean {
  const ka = basicKind('eq', a);
  const kb = basicKind('eq', b);
  if (ka === 'nil' || kb === 'nil') return ka === kb;
  if (ka !== kb) throw new TemplateError(`eq: incompatible types for comparison (${ka} and ${kb})`);
  return a === b;
}

function goLess(fn: string, a: unknown, b: unknown): boolean {
  const ka = basicKind(fn, a);
  const kb = basicKind(fn, b);
  if (ka !== kb || ka === 'nil' || ka === 'bool') {
    throw new TemplateError(`${fn}: incompatible types for comparison (${ka} and ${kb})`);
  }
  return (a as string | number | bigint) < (b as string | number | bigint);
}

function indent(n: unknown, s: unknown): string {
  const pad = ' '.repeat(Number(toInt(n)));
  return pad + requireString('indent', s).replace(/\n/g, `\n${pad}`);
}

function goTypeName(v: unknown): string {
  const names: Record<Kind, string> = {
    nil: '<nil>',
    bool: 'bool',
    int: 'int64',
    float: 'float64',
    string: 'string',
    slice: '[]interface {}',
    map: 'map[string]interface {}',
    struct: 'struct',
  };
  return names[kindOf(v)];
}

function sprintf(format: string, args: unknown[]): string {
  let i = 0;
  return format.replace(/%([%sdvq])/g, (_m, verb: string) => {
    if (verb === '%') return '%';
    if (i >= args.length) return `%!${verb}(MISSING)`;
    const arg = args[i++];
    switch (verb) {
      case 'd':
        return typeof arg === 'bigint' ? arg.toString() : `%!d(${goTypeName(arg)}=${formatValue(arg, '<nil>')})`;
      case 'q':
        return goQuote(strval(arg));
      default:
        return formatValue(arg, '<nil>');
    }
  });
}

function toYaml(v: unknown): string {
  if (v === undefined || v === null) return 'null';
  // YAML 1.1 like go-yaml: strings such as y, on or yes stay quoted.
  const text = stringifyYaml(v, { version: '1.1', sortMapEntries: true, indentSeq: false, lineWidth: 0 });
  return text.replace(/\n$/, '');
}

type Fn = (args: unknown[], exec: Executor) => unknown;

const FUNCS: Record<string, Fn> = {
  // Go text/template builtins (and/or are evaluated lazily by the executor).
  not: ([v]) => !truth(v),
  eq: ([a, ...rest]) => {
    if (rest.length === 0) throw new TemplateError('eq: missing argument for comparison');
    return rest.some((b) => goEqual(a, b));
  },
  ne: ([a, b]) => !goEqual(a, b),
  lt: ([a, b]) => goLess('lt', a, b),
  le: ([a, b]) => goLess('le', a, b) || goEqual(a, b),
  gt: ([a, b]) => goLess('gt', b, a),
  ge: ([a, b]) => goLess('ge', b, a) || goEqual(a, b),
  len: ([v]) => {
    const k = kindOf(v);
    if (k === 'string' || k === 'slice') return BigInt((v as string | unknown[]).length);
    if (k === 'map') return BigInt(Object.keys(v as Dict).length);
    throw new TemplateError(`len of type ${k}`);
  },
  print: (args) => {
    let out = '';
    args.forEach((a, idx) => {
      if (idx > 0 && typeof a !== 'string' && typeof args[idx - 1] !== 'string') out += ' ';
      out += formatValue(a, '<nil>');
    });
    return out;
  },
  printf: ([format, ...args]) => sprintf(requireString('printf', format), args),
  // Helm
  include: ([name, data], exec) => exec.set.execute(requireString('include', name), data),
  toYaml: ([v]) => toYaml(v),
  fail: ([msg]) => {
    throw new TemplateFailError(strval(msg));
  },
  // Sprig
  default: ([def, ...given]) => (given.length === 0 || empty(given[0]) ? def : given[0]),
  empty: ([v]) => empty(v),
  quote: (args) => args.filter((a) => a !== undefined && a !== null).map((a) => goQuote(strval(a))).join(' '),
  toString: (args: unknown[]) => strval(args[0]),
  int: ([v]) => toInt(v),
  add: (args) => args.reduce<bigint>((sum, a) => sum + toInt(a), 0n),
  div: ([a, b]) => {
    const d = toInt(b);
    if (d === 0n) throw new TemplateError('div: integer divide by zero');
    return toInt(a) / d;
  },
  ternary: ([vt, vf, cond]) => {
    if (typeof cond !== 'boolean') throw new TemplateError(`ternary: wrong type for value; expected bool; got ${kindOf(cond)}`);
    return cond ? vt : vf;
  },
  trunc: ([n, s]) => {
    const c = Number(toInt(n));
    const str = requireString('trunc', s);
    if (c < 0 && str.length + c > 0) return str.slice(str.length + c);
    if (c >= 0 && str.length > c) return str.slice(0, c);
    return str;
  },
  trimSuffix: ([suffix, s]) => {
    const str = requireString('trimSuffix', s);
    const suf = requireString('trimSuffix', suffix);
    return suf && str.endsWith(suf) ? str.slice(0, -suf.length) : str;
  },
  replace: ([from, to, s]) => requireString('replace', s).split(requireString('replace', from)).join(requireString('replace', to)),
  contains: ([sub, s]) => requireString('contains', s).includes(requireString('contains', sub)),
  indent: ([n, s]) => indent(n, s),
  nindent: ([n, s]) => `\n${indent(n, s)}`,
  sha256sum: ([s]) => createHash('sha256').update(requireString('sha256sum', s)).digest('hex'),
};

const LAZY = new Set(['and', 'or']);

// ---------------------------------------------------------------------------
// Lexer

type Tok =
  | { t: 'field'; names: string[] } // `.` (names empty) or `.a.b`
  | { t: 'var'; name: string; fields: string[] } // `$`, `$x`, `$x.a`
  | { t: 'ident'; name: string }
  | { t: 'string'; value: string }
  | { t: 'number'; value: number | bigint }
  | { t: 'bool'; value: boolean }
  | { t: 'nil' }
  | { t: '|' | '(' | ')' | ':=' | '=' | ',' };

type Item = { kind: 'text'; text: string } | { kind: 'action'; toks: Tok[]; line: number } | { kind: 'comment' };

const IDENT = /[A-Za-z0-9_]/;

function tokenize(src: string, where: string): Tok[] {
  const toks: Tok[] = [];
  let i = 0;
  const readIdent = (): string => {
    const start = i;
    while (i < src.length && IDENT.test(src[i]!)) i++;
    return src.slice(start, i);
  };
  const readFields = (): string[] => {
    const names: string[] = [];
    while (src[i] === '.' && i + 1 < src.length && /[A-Za-z_]/.test(src[i + 1]!)) {
      i++;
      names.push(readIdent());
    }
    return names;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '|' || c === '(' || c === ',' || c === '=') {
      toks.push({ t: c });
      i++;
    } else if (c === ')') {
      toks.push({ t: ')' });
      i++;
      if (src[i] === '.') throw new TemplateError(`${where}: field access on a parenthesised pipeline is not supported`);
    } else if (c === ':' && src[i + 1] === '=') {
      toks.push({ t: ':=' });
      i += 2;
    } else if (c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      if (j >= src.length) throw new TemplateError(`${where}: unterminated quoted string`);
      toks.push({ t: 'string', value: JSON.parse(src.slice(i, j + 1)) as string });
      i = j + 1;
    } else if (c === '`') {
      const j = src.indexOf('`', i + 1);
      if (j < 0) throw new TemplateError(`${where}: unterminated raw string`);
      toks.push({ t: 'string', value: src.slice(i + 1, j) });
      i = j + 1;
    } else if (c === '.') {
      const names = readFields();
      if (names.length === 0) i++;
      toks.push({ t: 'field', names });
    } else if (c === '$') {
      i++;
      const name = `$${readIdent()}`;
      toks.push({ t: 'var', name, fields: readFields() });
    } else if (/[0-9]/.test(c) || ((c === '-' || c === '+') && /[0-9]/.test(src[i + 1] ?? ''))) {
      const m = /^[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(src.slice(i))!;
      const text = m[0];
      toks.push({ t: 'number', value: m[1] || m[2] ? Number(text) : BigInt(text) });
      i += text.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const name = readIdent();
      if (name === 'true' || name === 'false') toks.push({ t: 'bool', value: name === 'true' });
      else if (name === 'nil') toks.push({ t: 'nil' });
      else toks.push({ t: 'ident', name });
    } else {
      throw new TemplateError(`${where}: unexpected character ${JSON.stringify(c)} in action`);
    }
  }
  return toks;
}

/** Splits a template into text and actions, applying the `{{-` / `-}}` trim markers. */
function lex(src: string, name: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let trimNext = false;
  const lineAt = (p: number): number => src.slice(0, p).split('\n').length;
  while (pos < src.length) {
    const open = src.indexOf('{{', pos);
    let text = src.slice(pos, open < 0 ? src.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open < 0) {
      if (text) items.push({ kind: 'text', text });
      break;
    }
    let start = open + 2;
    if (src[start] === '-' && /\s/.test(src[start + 1] ?? '')) {
      text = text.replace(/\s+$/, '');
      start += 2;
    }
    if (text) items.push({ kind: 'text', text });
    // Find the closing braces, skipping quoted strings and comments.
    let j = start;
    let close = -1;
    while (j < src.length) {
      const c = src[j]!;
      if (c === '"') {
        j++;
        while (j < src.length && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
        j++;
      } else if (c === '`') {
        j = src.indexOf('`', j + 1) + 1;
        if (j === 0) break;
      } else if (src.startsWith('/*', j)) {
        const end = src.indexOf('*/', j + 2);
        if (end < 0) break;
        j = end + 2;
      } else if (src.startsWith('}}', j)) {
        close = j;
        break;
      } else {
        j++;
      }
    }
    const line = lineAt(open);
    if (close < 0) throw new TemplateError(`${name}:${line}: unclosed action`);
    let body = src.slice(start, close);
    const rightTrim = /\s-$/.test(body);
    if (rightTrim) body = body.slice(0, -1);
    const trimmed = body.trim();
    if (trimmed.startsWith('/*')) {
      if (!trimmed.endsWith('*/')) throw new TemplateError(`${name}:${line}: comment ends before closing delimiter`);
      items.push({ kind: 'comment' });
    } else {
      const toks = tokenize(body, `${name}:${line}`);
      if (toks.length === 0) throw new TemplateError(`${name}:${line}: missing value for command`);
      items.push({ kind: 'action', toks, line });
    }
    trimNext = rightTrim;
    pos = close + 2;
  }
  return items;
}

// ---------------------------------------------------------------------------
// Parser

type Arg =
  | { k: 'field'; names: string[] }
  | { k: 'var'; name: string; fields: string[] }
  | { k: 'fn'; name: string }
  | { k: 'const'; value: unknown }
  | { k: 'pipe'; pipe: Pipe };

interface Pipe {
  decl: string[];
  assign: boolean;
  cmds: Arg[][];
}

type Node =
  | { k: 'text'; text: string }
  | { k: 'action'; pipe: Pipe; line: number }
  | { k: 'if' | 'with' | 'range'; pipe: Pipe; list: Node[]; elseList: Node[] | null; line: number }
  | { k: 'template'; name: string; pipe: Pipe | null; line: number };

class Parser {
  private i = 0;
  constructor(
    private readonly items: Item[],
    private readonly name: string,
    private readonly define: (name: string, nodes: Node[]) => void,
  ) {}

  parseTop(): Node[] {
    const { nodes, stop } = this.parseList(true);
    if (stop) this.error(stop.line, `unexpected {{${this.keyword(stop)}}}`);
    return nodes;
  }

  private error(line: number, msg: string): never {
    throw new TemplateError(`${this.name}:${line}: ${msg}`);
  }

  private keyword(item: { toks: Tok[] }): string {
    const first = item.toks[0]!;
    return first.t === 'ident' ? first.name : '';
  }

  /** Parses nodes until {{end}} or {{else ...}}, which it returns unconsumed-in-output. */
  private parseList(top: boolean): { nodes: Node[]; stop: { toks: Tok[]; line: number } | null } {
    const nodes: Node[] = [];
    while (this.i < this.items.length) {
      const item = this.items[this.i++]!;
      if (item.kind === 'text') {
        nodes.push({ k: 'text', text: item.text });
        continue;
      }
      if (item.kind === 'comment') continue;
      const kw = this.keyword(item);
      const rest = item.toks.slice(1);
      switch (kw) {
        case 'end':
        case 'else':
          if (top) this.error(item.line, `unexpected {{${kw}}}`);
          return { nodes, stop: item };
        case 'if':
        case 'with':
        case 'range':
          nodes.push(this.parseControl(kw, rest, item.line));
          break;
        case 'define': {
          if (!top) this.error(item.line, 'define is only allowed at the top level');
          const nameTok = rest[0];
          if (!nameTok || nameTok.t !== 'string' || rest.length !== 1) this.error(item.line, 'define needs one quoted name');
          const body = this.parseList(false);
          if (!body.stop || this.keyword(body.stop) !== 'end' || body.stop.toks.length !== 1) {
            this.error(item.line, `define "${nameTok.value}" is not closed by {{end}}`);
          }
          this.define(nameTok.value, body.nodes);
          break;
        }
        case 'template': {
          const nameTok = rest[0];
          if (!nameTok || nameTok.t !== 'string') this.error(item.line, 'template needs a quoted name');
          const pipeToks = rest.slice(1);
          nodes.push({
            k: 'template',
            name: nameTok.value,
            pipe: pipeToks.length ? this.parsePipe(pipeToks, item.line, false) : null,
            line: item.line,
          });
          break;
        }
        case 'block':
        case 'break':
        case 'continue':
          this.error(item.line, `{{${kw}}} is not supported by this renderer`);
          break;
        default:
          nodes.push({ k: 'action', pipe: this.parsePipe(item.toks, item.line, false), line: item.line });
      }
    }
    return { nodes, stop: null };
  }

  private parseControl(kw: 'if' | 'with' | 'range', toks: Tok[], line: number): Node {
    const pipe = this.parsePipe(toks, line, kw === 'range');
    if (pipe.cmds.length === 0) this.error(line, `missing value for ${kw}`);
    const body = this.parseList(false);
    if (!body.stop) this.error(line, `unexpected EOF: {{${kw}}} is not closed`);
    let elseList: Node[] | null = null;
    if (this.keyword(body.stop) === 'else') {
      const after = body.stop.toks.slice(1);
      const chained = after[0];
      if (chained && chained.t === 'ident' && (chained.name === 'if' || chained.name === 'with')) {
        // {{else if x}} ... {{end}}: a nested control that shares our {{end}}.
        elseList = [this.parseControl(chained.name, after.slice(1), body.stop.line)];
      } else {
        if (after.length) this.error(body.stop.line, 'unexpected tokens after else');
        const tail = this.parseList(false);
        if (!tail.stop || this.keyword(tail.stop) !== 'end') this.error(line, `{{${kw}}}: expected {{end}} after {{else}}`);
        elseList = tail.nodes;
      }
    } else if (body.stop.toks.length !== 1) {
      this.error(body.stop.line, 'unexpected tokens after end');
    }
    return { k: kw, pipe, list: body.nodes, elseList, line };
  }

  private parsePipe(toks: Tok[], line: number, allowTwoVars: boolean): Pipe {
    let decl: string[] = [];
    let assign = false;
    let rest = toks;
    const [a, b, c, d] = toks;
    if (a?.t === 'var' && a.fields.length === 0 && (b?.t === ':=' || b?.t === '=')) {
      decl = [a.name];
      assign = b.t === '=';
      rest = toks.slice(2);
    } else if (
      allowTwoVars &&
      a?.t === 'var' &&
      b?.t === ',' &&
      c?.t === 'var' &&
      d?.t === ':='
    ) {
      decl = [a.name, c.name];
      rest = toks.slice(4);
    }
    const cmds: Arg[][] = [];
    let cmd: Arg[] = [];
    let i = 0;
    while (i < rest.length) {
      const tok = rest[i]!;
      if (tok.t === '|') {
        if (cmd.length === 0) this.error(line, 'missing command before |');
        cmds.push(cmd);
        cmd = [];
        i++;
        continue;
      }
      if (tok.t === '(') {
        let depth = 1;
        let j = i + 1;
        while (j < rest.length && depth > 0) {
          const t = rest[j]!.t;
          if (t === '(') depth++;
          else if (t === ')') depth--;
          j++;
        }
        if (depth !== 0) this.error(line, 'unclosed left paren');
        const inner = this.parsePipe(rest.slice(i + 1, j - 1), line, false);
        if (inner.cmds.length === 0) this.error(line, 'missing value in parentheses');
        cmd.push({ k: 'pipe', pipe: inner });
        i = j;
        continue;
      }
      cmd.push(this.parseArg(tok, line));
      i++;
    }
    if (cmd.length) cmds.push(cmd);
    else if (cmds.length) this.error(line, 'missing command after |');
    return { decl, assign, cmds };
  }

  private parseArg(tok: Tok, line: number): Arg {
    switch (tok.t) {
      case 'field':
        return { k: 'field', names: tok.names };
      case 'var':
        return { k: 'var', name: tok.name, fields: tok.fields };
      case 'string':
      case 'number':
      case 'bool':
        return { k: 'const', value: tok.value };
      case 'nil':
        return { k: 'const', value: null };
      case 'ident':
        if (!Object.prototype.hasOwnProperty.call(FUNCS, tok.name) && !LAZY.has(tok.name)) this.error(line, `function "${tok.name}" not defined`);
        return { k: 'fn', name: tok.name };
      default:
        this.error(line, `unexpected "${tok.t}"`);
    }
  }
}

// ---------------------------------------------------------------------------
// Executor

interface Executor {
  set: TemplateSet;
}

class Execution implements Executor {
  private readonly vars: { name: string; value: unknown }[];
  private out = '';
  constructor(
    readonly set: TemplateSet,
    private readonly templateName: string,
    root: unknown,
  ) {
    this.vars = [{ name: '$', value: root }];
  }

  run(nodes: Node[], dot: unknown): string {
    this.walk(nodes, dot);
    return this.out;
  }

  private error(line: number, msg: string): never {
    throw new TemplateError(`${this.templateName}:${line}: ${msg}`);
  }

  private walk(nodes: Node[], dot: unknown): void {
    for (const node of nodes) {
      switch (node.k) {
        case 'text':
          this.out += node.text;
          break;
        case 'action': {
          const value = this.evalPipe(node.pipe, dot, node.line);
          if (node.pipe.decl.length === 0) this.out += formatValue(value);
          break;
        }
        case 'template': {
          const data = node.pipe ? this.evalPipe(node.pipe, dot, node.line) : null;
          this.out += this.set.execute(node.name, data);
          break;
        }
        case 'if':
        case 'with':
        case 'range':
          this.control(node, dot);
          break;
      }
    }
  }

  private scoped(fn: () => void): void {
    const mark = this.vars.length;
    try {
      fn();
    } finally {
      this.vars.length = mark;
    }
  }

  private control(node: Extract<Node, { k: 'if' | 'with' | 'range' }>, dot: unknown): void {
    this.scoped(() => {
      if (node.k === 'range') {
        const decl = node.pipe.decl;
        const value = this.evalPipe({ ...node.pipe, decl: [] }, dot, node.line);
        const kind = kindOf(value);
        let entries: [unknown, unknown][];
        if (kind === 'nil') entries = [];
        else if (kind === 'slice') entries = (value as unknown[]).map((v, idx) => [BigInt(idx), v]);
        else if (kind === 'map') entries = Object.keys(value as Dict).sort().map((k) => [k, (value as Dict)[k]]);
        else this.error(node.line, `range can't iterate over ${formatValue(value, '<nil>')}`);
        if (entries.length === 0) {
          if (node.elseList) this.walk(node.elseList, dot);
          return;
        }
        for (const [key, elem] of entries) {
          this.scoped(() => {
            if (decl.length === 1) this.vars.push({ name: decl[0]!, value: elem });
            if (decl.length === 2) this.vars.push({ name: decl[0]!, value: key }, { name: decl[1]!, value: elem });
            this.walk(node.list, elem);
          });
        }
        return;
      }
      const value = this.evalPipe(node.pipe, dot, node.line);
      if (truth(value)) this.scoped(() => this.walk(node.list, node.k === 'with' ? value : dot));
      else if (node.elseList) this.scoped(() => this.walk(node.elseList!, dot));
    });
  }

  private lookupVar(name: string, line: number): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i]!.name === name) return this.vars[i]!.value;
    }
    this.error(line, `undefined variable: ${name}`);
  }

  private evalPipe(pipe: Pipe, dot: unknown, line: number): unknown {
    let value: unknown = undefined;
    pipe.cmds.forEach((cmd, idx) => {
      value = this.evalCommand(cmd, dot, line, idx === 0 ? [] : [value]);
    });
    if (pipe.decl.length === 1) {
      const name = pipe.decl[0]!;
      if (pipe.assign) {
        const slot = [...this.vars].reverse().find((v) => v.name === name);
        if (!slot) this.error(line, `undefined variable: ${name}`);
        slot.value = value;
      } else {
        this.vars.push({ name, value });
      }
    }
    return value;
  }

  private evalCommand(cmd: Arg[], dot: unknown, line: number, final: unknown[]): unknown {
    const [head, ...rest] = cmd;
    if (!head) this.error(line, 'empty command');
    if (head.k === 'fn') {
      if (LAZY.has(head.name)) {
        const thunks = [...rest.map((a) => () => this.evalArg(a, dot, line)), ...final.map((v) => () => v)];
        if (thunks.length === 0) this.error(line, `${head.name}: wrong number of args`);
        let last: unknown;
        for (const thunk of thunks) {
          last = thunk();
          if (head.name === 'and' ? !truth(last) : truth(last)) return last;
        }
        return last;
      }
      const args = [...rest.map((a) => this.evalArg(a, dot, line)), ...final];
      try {
        return FUNCS[head.name]!(args, this);
      } catch (err) {
        if (err instanceof TemplateFailError) throw err;
        if (err instanceof TemplateError) {
          throw new TemplateError(`${this.templateName}:${line}: error calling ${head.name}: ${err.message}`);
        }
        throw err;
      }
    }
    if (rest.length || final.length) this.error(line, `can't give argument to non-function ${this.describe(head)}`);
    return this.evalArg(head, dot, line);
  }

  private describe(arg: Arg): string {
    if (arg.k === 'field') return `.${arg.names.join('.')}`;
    if (arg.k === 'var') return [arg.name, ...arg.fields].join('.');
    return arg.k;
  }

  private evalArg(arg: Arg, dot: unknown, line: number): unknown {
    switch (arg.k) {
      case 'const':
        return arg.value;
      case 'pipe':
        return this.evalPipe(arg.pipe, dot, line);
      case 'field':
        return this.fields(dot, arg.names, line);
      case 'var':
        return this.fields(this.lookupVar(arg.name, line), arg.fields, line);
      case 'fn':
        return this.evalCommand([arg], dot, line, []);
    }
  }

  private fields(receiver: unknown, names: string[], line: number): unknown {
    let value = receiver;
    for (const name of names) {
      if (value === undefined || value === null) this.error(line, `nil pointer evaluating interface {}.${name}`);
      if (isStruct(value)) {
        if (!Object.prototype.hasOwnProperty.call(value, name)) this.error(line, `can't evaluate field ${name}`);
        value = value[name];
      } else if (isMap(value)) {
        value = Object.prototype.hasOwnProperty.call(value, name) ? value[name] : undefined;
      } else {
        this.error(line, `can't evaluate field ${name} in type ${kindOf(value)}`);
      }
    }
    return value;
  }
}

/** A set of named templates, like Go's template.Template with its associated templates. */
export class TemplateSet {
  private readonly templates = new Map<string, Node[]>();
  private depth = 0;

  /** Parses `text` as the template `name`; its {{define}}s become templates too. */
  add(name: string, text: string): this {
    const nodes = new Parser(lex(text, name), name, (defName, body) => {
      this.templates.set(defName, body);
    }).parseTop();
    this.templates.set(name, nodes);
    return this;
  }

  has(name: string): boolean {
    return this.templates.has(name);
  }

  execute(name: string, data: unknown): string {
    const nodes = this.templates.get(name);
    if (!nodes) throw new TemplateError(`template: no template "${name}" associated with template set`);
    if (++this.depth > 100) {
      this.depth = 0;
      throw new TemplateError(`template: exceeded maximum template depth executing "${name}"`);
    }
    try {
      return new Execution(this, name, data).run(nodes, data);
    } finally {
      this.depth--;
    }
  }
}

/** Parses and executes one template (plus optional partials) against `data`. */
export function renderString(text: string, data: unknown, partials: Record<string, string> = {}): string {
  const set = new TemplateSet();
  for (const [name, body] of Object.entries(partials)) set.add(name, body);
  return set.add('inline', text).execute('inline', data);
}

// ---------------------------------------------------------------------------
// Helm-like chart rendering

/** Helm's value coalescing: maps merge recursively, null deletes, anything else replaces. */
export function mergeValues(base: Dict, override: Dict): Dict {
  const out: Dict = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete out[key];
    else if (isMap(value) && isMap(out[key])) out[key] = mergeValues(out[key] as Dict, value);
    else out[key] = value;
  }
  return out;
}

export interface RenderOptions {
  /** Values merged over values.yaml, like `-f extra.yaml` or `--set`. */
  values?: Dict;
  releaseName?: string;
  namespace?: string;
  /** Validate the merged values against values.schema.json (Helm does). Default true. */
  validateSchema?: boolean;
  /**
   * Execute only these templates (file names inside templates/). Unlike
   * `helm template --show-only`, the other templates are not executed at all, so a
   * single template's own guards can be tested in isolation.
   */
  only?: string[];
}

export interface RenderedChart {
  /** Output per template, keyed by its path inside the chart (e.g. templates/deployment.yaml). */
  files: Record<string, string>;
  notes: string;
  values: Dict;
}

/** Helm's .Chart field names for Chart.yaml keys. */
function chartObject(meta: Dict): Dict {
  const special: Record<string, string> = { apiVersion: 'APIVersion', appVersion: 'AppVersion', kubeVersion: 'KubeVersion' };
  const out: Dict = {};
  for (const [k, v] of Object.entries(meta)) out[special[k] ?? k.charAt(0).toUpperCase() + k.slice(1)] = v;
  for (const k of ['Name', 'Version', 'AppVersion', 'Description', 'Type', 'KubeVersion']) if (!(k in out)) out[k] = '';
  return goStruct(out);
}

export class SchemaError extends Error {
  constructor(readonly errors: string[]) {
    super(`values don't meet the specifications of the schema:\n- ${errors.join('\n- ')}`);
    this.name = 'SchemaError';
  }
}

/** Renders a chart directory the way `helm template` would, for the supported subset. */
export function renderChart(chartDir: string, options: RenderOptions = {}): RenderedChart {
  const meta = parseYaml(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as Dict;
  const defaults = (parseYaml(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) ?? {}) as Dict;
  const values = mergeValues(defaults, options.values ?? {});

  const schemaPath = path.join(chartDir, 'values.schema.json');
  if (options.validateSchema !== false && existsSync(schemaPath)) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')) as object);
    if (!validate(values)) {
      throw new SchemaError((validate.errors ?? []).map((e) => `${e.instancePath || '(root)'}: ${e.message ?? e.keyword}`));
    }
  }

  const chartName = String(meta['name']);
  const basePath = `${chartName}/templates`;
  const templateDir = path.join(chartDir, 'templates');
  const names = readdirSync(templateDir)
    .filter((f) => /\.(ya?ml|tpl|txt)$/.test(f))
    .sort();
  const set = new TemplateSet();
  for (const file of names) set.add(`${basePath}/${file}`, readFileSync(path.join(templateDir, file), 'utf8'));

  const data = (file: string): Dict =>
    goStruct({
      Values: values,
      Chart: chartObject(meta),
      Release: goStruct({
        Name: options.releaseName ?? 'portal',
        Namespace: options.namespace ?? 'default',
        Service: 'Helm',
        IsInstall: true,
        IsUpgrade: false,
        Revision: 1,
      }),
      Template: goStruct({ Name: `${basePath}/${file}`, BasePath: basePath }),
    });

  const files: Record<string, string> = {};
  let notes = '';
  for (const file of names) {
    if (file.startsWith('_') || (options.only && !options.only.includes(file))) continue;
    const out = set.execute(`${basePath}/${file}`, data(file));
    if (file === 'NOTES.txt') notes = out;
    else files[`templates/${file}`] = out;
  }
  return { files, notes, values };
}

/** Parses rendered YAML (possibly several documents) into objects, dropping empty documents. */
export function parseManifests(text: string): Dict[] {
  const docs = parseAllDocuments(text);
  const out: Dict[] = [];
  for (const doc of docs) {
    if (doc.errors.length) throw new Error(`invalid YAML: ${doc.errors.map((e) => e.message).join('; ')}\n${text}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (!isMap(value)) throw new Error(`a manifest must be a mapping, got: ${JSON.stringify(value)}`);
    out.push(value);
  }
  return out;
}
