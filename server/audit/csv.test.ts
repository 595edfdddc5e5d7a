import fs from 'node:fs';
import path from 'node:path';
import { UTF8_BOM, csvLines, csvRow, csvZone, type CsvValue } from './csv';

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
    // The device export's lines written by the database are this writer's rules in SQL
    // (papaparse's quoting and formula guard, taking every label from csvRow), and
    // tests/integration/deviceExportCsv.test.ts holds them byte for byte to csvLines on both engines.
    const sameRulesInSql = path.join(root, 'devices/deviceExportSql.ts');
    const files = (fs.readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f))
      .map((f) => path.join(root, f))
      .filter((f) => f !== path.join(__dirname, 'csv.ts') && f !== sameRulesInSql);
    const writers = files.filter((f) => /\.unparse\(|\\uFEFF/.test(fs.readFileSync(f, 'utf8')));
    expect(writers.map((f) => path.relative(root, f))).toEqual([]);
  });
});

describe("CSV dates in the browser's zone", () => {
  test('without a zone: UTC as the database gives it, the header says (UTC)', () => {
    const zone = csvZone();
    expect(zone.name).toBe('UTC');
    expect(zone.instant('2026-11-23T20:05:00.120Z')).toBe('2026-11-23T20:05:00.120Z');
    expect(zone.instant(new Date('2026-11-23T20:05:00Z'))).toBe('2026-11-23T20:05:00.000Z');
    expect(zone.instant(null)).toBeNull();
    expect(zone.instant(undefined)).toBeNull();
    expect(zone.header(['id', 'fecha', 'detalle'], ['fecha'])).toEqual(['id', 'fecha (UTC)', 'detalle']);
  });

  test('with a zone: ISO 8601 with the offset of that instant (daylight saving, half hours, west and east)', () => {
    const mx = csvZone('America/Mexico_City');
    expect(mx.instant('2026-11-23T20:05:00.000Z')).toBe('2026-11-23T14:05:00.000-06:00');
    expect(mx.header(['fecha'], ['fecha'])).toEqual(['fecha (America/Mexico_City)']);
    const ny = csvZone('America/New_York');
    expect(ny.instant('2026-01-15T12:00:00.000Z')).toBe('2026-01-15T07:00:00.000-05:00');
    expect(ny.instant('2026-07-15T12:00:00.000Z')).toBe('2026-07-15T08:00:00.000-04:00');
    expect(csvZone('Asia/Kolkata').instant('2026-03-01T00:00:00.250Z')).toBe('2026-03-01T05:30:00.250+05:30');
    expect(csvZone('America/St_Johns').instant('2026-01-01T00:00:00.000Z')).toBe('2025-12-31T20:30:00.000-03:30');
    expect(csvZone('Europe/London').instant('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00.000Z');
    // The same instant, whatever the zone it is written in.
    for (const tz of ['America/Mexico_City', 'America/New_York', 'Asia/Kolkata', 'America/St_Johns', 'Pacific/Auckland']) {
      const written = csvZone(tz).instant('2026-05-05T05:05:05.005Z')!;
      expect(new Date(written).toISOString()).toBe('2026-05-05T05:05:05.005Z');
    }
  });
});
