import { serializeJson } from './serializeJson';

describe('serializeJson', () => {
  test('escapes <, U+2028 and U+2029 and stays valid JSON', () => {
    const value = { a: '</script><!--', b: 'x\u2028y\u2029z', c: [1, null, true] };
    const out = serializeJson(value);
    expect(out).not.toMatch(/[<\u2028\u2029]/);
    expect(out).toContain('\\u003c/script>\\u003c!--');
    expect(JSON.parse(out)).toEqual(value);
  });
});
