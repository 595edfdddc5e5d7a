import fs from 'node:fs';
import path from 'node:path';
import { UTF8_BOM, csvLines, csvRow, type CsvValue } from './csv';

/** One cell as it is written (without the line end). */
const csvCell = (value: CsvValue) => csvRow([value]).slice(0, -2);

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

  test('formula-looking text is neutralised (CSV injection): apostrophe first, quoted', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1')).toBe(`"'+1"`);
    expect(csvCell('-1')).toBe(`"'-1"`);
    expect(csvCell('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvCell('\tx')).toBe(`"'\tx"`);
    expect(csvCell(-1)).toBe('-1');
  });

  test('rows end in CRLF; the BOM is U+FEFF', () => {
    expect(csvRow(['a', 1, null, 'b,c'])).toBe('a,1,,"b,c"\r\n');
    expect(Buffer.from(UTF8_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(
      csvLines([
        ['a', 'b'],
        [1, '=x'],
      ]),
    ).toBe(`a,b\r\n1,"'=x"\r\n`);
    expect(csvLines([])).toBe('');
  });

  test('the one CSV writer: no other server file writes CSV with papaparse or its own BOM', () => {
    const root = path.resolve(__dirname, '..');
    const files = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))
      .map((f) => path.join(root, f))
      .filter((f) => f !== path.join(__dirname, 'csv.ts'));
    const writers = files.filter((f) => /\.unparse\(|\\uFEFF/.test(fs.readFileSync(f, 'utf8')));
    expect(writers.map((f) => path.relative(root, f))).toEqual([]);
  });
});
