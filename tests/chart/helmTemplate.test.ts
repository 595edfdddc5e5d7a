import { createHash } from 'node:crypto';
import {
  TemplateError,
  TemplateFailError,
  TemplateSet,
  formatFloat,
  goStruct,
  mergeValues,
  parseManifests,
  renderString,
  truth,
} from '../helpers/helmTemplate';

const render = (text: string, data: unknown = {}, partials: Record<string, string> = {}): string =>
  renderString(text, data, partials);

describe('helmTemplate: text and whitespace', () => {
  it('copies plain text and prints fields', () => {
    expect(render('a {{ .x }} b {{ .y.z }}', { x: 'X', y: { z: 'Z' } })).toBe('a X b Z');
  });

  it('applies {{- and -}} trim markers to the neighbouring text only', () => {
    expect(render('a  \n  {{- .x }}  \n  b', { x: 1 })).toBe('a1  \n  b');
    expect(render('a  \n  {{ .x -}}  \n  b', { x: 1 })).toBe('a  \n  1b');
    expect(render('a \n{{- .x -}}\n b', { x: 'X' })).toBe('aXb');
  });

  it('drops comments, honouring trim markers', () => {
    expect(render('a\n{{- /* note {{ not an action }} */ -}}\nb')).toBe('ab');
    expect(render('{{/* c */}}x')).toBe('x');
  });

  it('does not treat "}}" inside a string as the end of the action', () => {
    expect(render('{{ "}}" }}')).toBe('}}');
  });

  it('prints nil as an empty string and numbers the way Go does', () => {
    expect(render('[{{ .missing }}]', {})).toBe('[]');
    expect(render('{{ .n }}', { n: 3000 })).toBe('3000');
    expect(render('{{ .n }}', { n: 1000000 })).toBe('1e+06');
    expect(render('{{ .n | int }}', { n: 1000000 })).toBe('1000000');
    expect(render('{{ .n }}', { n: 0.5 })).toBe('0.5');
  });
});

describe('helmTemplate: control structures', () => {
  const ifElse = '{{ if .a }}A{{ else if .b }}B{{ else }}C{{ end }}';

  it('if / else if / else follow Go truthiness', () => {
    expect(render(ifElse, { a: true })).toBe('A');
    expect(render(ifElse, { a: '', b: 1 })).toBe('B');
    expect(render(ifElse, { a: [], b: {} })).toBe('C');
    expect(render(ifElse, { a: 0, b: false })).toBe('C');
  });

  it('with rebinds the dot and has an else branch', () => {
    expect(render('{{ with .m }}{{ .k }}{{ else }}none{{ end }}', { m: { k: 'v' } })).toBe('v');
    expect(render('{{ with .m }}{{ .k }}{{ else }}none{{ end }}', { m: {} })).toBe('none');
  });

  it('range iterates lists in order and maps by sorted key, with variables', () => {
    expect(render('{{ range .l }}<{{ . }}>{{ end }}', { l: ['a', 'b'] })).toBe('<a><b>');
    expect(render('{{ range $i, $v := .l }}{{ $i }}={{ $v }};{{ end }}', { l: ['a', 'b'] })).toBe('0=a;1=b;');
    expect(render('{{ range $k, $v := .m }}{{ $k }}={{ $v }};{{ end }}', { m: { b: 2, a: 1 } })).toBe('a=1;b=2;');
    expect(render('{{ range .l }}x{{ else }}empty{{ end }}', { l: [] })).toBe('empty');
  });

  it('keeps $ bound to the root inside range and with', () => {
    expect(render('{{ range .l }}{{ $.p }}{{ . }} {{ end }}', { p: '#', l: [1, 2] })).toBe('#1 #2 ');
  });

  it('scopes variables to their block and supports reassignment', () => {
    expect(render('{{ $x := "a" }}{{ if true }}{{ $x = "b" }}{{ $y := 1 }}{{ end }}{{ $x }}')).toBe('b');
    expect(() => render('{{ if true }}{{ $y := 1 }}{{ end }}{{ $y }}')).toThrow(/undefined variable: \$y/);
  });

  it('defines templates and runs them with include and template', () => {
    const partials = { helpers: '{{- define "greet" -}}hi {{ .name }}{{- end }}' };
    expect(render('{{ include "greet" . | quote }}', { name: 'ana' }, partials)).toBe('"hi ana"');
    expect(render('{{ template "greet" . }}', { name: 'ana' }, partials)).toBe('hi ana');
    expect(() => render('{{ include "nope" . }}')).toThrow(/no template "nope"/);
  });

  it('includes a whole file template by name, as Helm does for checksums', () => {
    const set = new TemplateSet().add('chart/templates/cm.yaml', 'k: {{ .v }}\n');
    set.add('chart/templates/dep.yaml', '{{ include "chart/templates/cm.yaml" . | sha256sum }}');
    const expected = createHash('sha256').update('k: 1\n').digest('hex');
    expect(set.execute('chart/templates/dep.yaml', { v: 1 })).toBe(expected);
  });
});

describe('helmTemplate: functions', () => {
  it('default, empty, quote, toString, ternary', () => {
    expect(render('{{ .a | default "d" }}|{{ .b | default "d" }}', { a: '', b: 'x' })).toBe('d|x');
    expect(render('{{ .n | default 5 }}', { n: 0 })).toBe('5');
    expect(render('{{ .s | quote }}|{{ .missing | quote }}', { s: 'say "hi"' })).toBe('"say \\"hi\\""|');
    expect(render('{{ .n | quote }}', { n: 10000 })).toBe('"10000"');
    expect(render('{{ toString .n }}', { n: 2 })).toBe('2');
    expect(render('{{ ternary "y" "n" .b }}', { b: false })).toBe('n');
    expect(() => render('{{ ternary "y" "n" .b }}', { b: 'yes' })).toThrow(/expected bool/);
  });

  it('string helpers used by the name templates', () => {
    expect(render('{{ printf "%s-%s" "a" "b" }}')).toBe('a-b');
    expect(render('{{ printf "%d" (int 7) }}|{{ printf "%d" 7.0 }}')).toBe('7|%!d(float64=7)');
    expect(render('{{ "abcdef" | trunc 3 }}|{{ "abc-" | trimSuffix "-" }}')).toBe('abc|abc');
    expect(render('{{ "1.0+b" | replace "+" "_" }}|{{ contains "or" "portal" }}')).toBe('1.0_b|true');
    expect(render('{{ print "a" 1 2 "b" }}')).toBe('a1 2b');
  });

  it('toYaml | nindent produces sorted, re-indented YAML', () => {
    const out = render('x:{{ toYaml .v | nindent 2 }}', { v: { b: [1, 2], a: 'q' } });
    expect(out).toBe('x:\n  a: q\n  b:\n  - 1\n  - 2');
    expect(render('{{ toYaml .e }}', { e: {} })).toBe('{}');
    // go-yaml writes YAML 1.1, where y, on and yes are booleans unless quoted.
    expect(render('{{ toYaml .v }}', { v: { a: 'y', b: 'on', c: 'plain' } })).toBe('a: "y"\nb: "on"\nc: plain');
  });

  it('integer arithmetic returns int64 and comparisons refuse mixed kinds', () => {
    expect(render('{{ div (add 5000 10000 999) 1000 }}')).toBe('15');
    expect(render('{{ if gt (int .n) 1 }}many{{ end }}', { n: 3 })).toBe('many');
    expect(render('{{ if le (int .n) 15 }}le{{ end }}', { n: 15 })).toBe('le');
    expect(render('{{ eq .s "auto" }}', { s: 'auto' })).toBe('true');
    expect(() => render('{{ gt .n 1 }}', { n: 3 })).toThrow(/incompatible types for comparison/);
    expect(() => render('{{ eq .n 1 }}', { n: 1 })).toThrow(/incompatible types for comparison/);
    expect(() => render('{{ div 1 0 }}')).toThrow(/divide by zero/);
  });

  it('and / or short-circuit like Go 1.18+', () => {
    expect(render('{{ if and false (fail "evaluated") }}x{{ else }}y{{ end }}')).toBe('y');
    expect(render('{{ or "" "b" }}|{{ and "a" "b" }}')).toBe('b|b');
    expect(render('{{ not .x }}', { x: '' })).toBe('true');
  });

  it('fail aborts rendering with the template message', () => {
    expect(() => render('{{ if .bad }}{{ fail "bad values" }}{{ end }}', { bad: true })).toThrow(TemplateFailError);
    expect(() => render('{{ fail "bad values" }}')).toThrow(/bad values/);
  });
});

describe('helmTemplate: errors instead of silent output', () => {
  it('rejects unknown functions at parse time, even in branches never taken', () => {
    expect(() => render('{{ if false }}{{ nosuchfn 1 }}{{ end }}')).toThrow(/function "nosuchfn" not defined/);
  });

  it('fails on fields of a missing value, like Go', () => {
    expect(() => render('{{ .a.b }}', {})).toThrow(/nil pointer evaluating interface \{\}\.b/);
  });

  it('fails on unknown fields of structs (.Chart, .Release)', () => {
    const data = { Chart: goStruct({ Name: 'portal' }) };
    expect(render('{{ .Chart.Name }}', data)).toBe('portal');
    expect(() => render('{{ .Chart.Nmae }}', data)).toThrow(/can't evaluate field Nmae/);
  });

  it('reports unbalanced blocks and unsupported actions', () => {
    expect(() => render('{{ if true }}x')).toThrow(TemplateError);
    expect(() => render('x{{ end }}')).toThrow(/unexpected \{\{end\}\}/);
    expect(() => render('{{ .x ')).toThrow(/unclosed action/);
    expect(() => render('{{ block "b" . }}{{ end }}')).toThrow(/not supported/);
    expect(() => render('{{ (.x).y }}', { x: {} })).toThrow(/not supported/);
    expect(() => render('{{ .x 1 }}', { x: 'a' })).toThrow(/can't give argument to non-function/);
  });
});

describe('helmTemplate: helpers', () => {
  it('truth follows Go template rules', () => {
    expect([0, 0n, '', [], {}, null, undefined, false].map(truth)).toEqual(Array(8).fill(false));
    expect([1, 1n, 'a', [0], { a: 1 }, true].map(truth)).toEqual(Array(6).fill(true));
  });

  it('formatFloat matches fmt %v for float64', () => {
    expect(formatFloat(123456)).toBe('123456');
    expect(formatFloat(1234567)).toBe('1.234567e+06');
    expect(formatFloat(0.0001)).toBe('0.0001');
    expect(formatFloat(0.00001)).toBe('1e-05');
  });

  it('mergeValues merges maps, replaces lists and deletes on null', () => {
    const base = { a: { b: 1, c: 2 }, l: [1, 2], d: 'x' };
    expect(mergeValues(base, { a: { c: 3 }, l: [9], d: null })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
    expect(base).toEqual({ a: { b: 1, c: 2 }, l: [1, 2], d: 'x' });
  });

  it('parseManifests splits documents and skips empty ones', () => {
    const docs = parseManifests('\n---\nkind: A\n---\n# only a comment\n---\nkind: B\n');
    expect(docs.map((d) => d['kind'])).toEqual(['A', 'B']);
    expect(() => parseManifests('a: [')).toThrow(/invalid YAML/);
  });
});
