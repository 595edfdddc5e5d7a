import { UTF8_BOM, csvCell, csvRow } from './csv';

describe('CSV', () => {
  test('plain values stay as they are; empty for null and undefined', () => {
    expect(csvCell('texto simple')).toBe('texto simple');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('Auditoría ñ €')).toBe('Auditoría ñ €');
  });

  test('commas, quotes and line breaks: quoted, quotes doubled', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('dijo "hola"')).toBe('"dijo ""hola"""');
    expect(csvCell('línea 1\nlínea 2')).toBe('"línea 1\nlínea 2"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
    expect(csvCell('{"nombre":"Soporte","paths":["/a","/b"]}')).toBe('"{""nombre"":""Soporte"",""paths"":[""/a"",""/b""]}"');
  });

  test('formula-looking text is neutralised (CSV injection)', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell(-1)).toBe('-1');
  });

  test('rows end in CRLF; the BOM is U+FEFF', () => {
    expect(csvRow(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
    expect(Buffer.from(UTF8_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
