import Papa from 'papaparse';
import { EXPORT_COLUMNS, IMPORT_COLUMNS } from '../../shared/contracts/deviceImport';
import { csvZone } from '../audit/csv';
import { deviceBody, luhnCheckDigit, type Device } from '../../shared/contracts/devices';
import { AppError } from '../errors';
import {
  deviceTypeOf,
  exportHeader,
  exportLines,
  exportRecordOf,
  importTemplate,
  invalidRows,
  markTaken,
  parseImportCsv,
  parseImportTable,
  readImportCsv,
  validateImportRows,
} from './deviceCsv';
import { ADD_DEVICE_LABELS } from '../../shared/constants/addDeviceLabels';
import { INVENTORY_MESSAGES } from '../../shared/areaMessages/inventory';
import { IMPORT_MAX_ROWS } from '../../shared/constants/limits';

const imei = (n: number) => {
  const body = `35${String(n).padStart(12, '0')}`;
  return `${body}${luhnCheckDigit(body)}`;
};
const badCheckDigit = (n: number) => {
  const good = imei(n);
  return `${good.slice(0, 14)}${(Number(good[14]) + 1) % 10}`;
};

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

const GROUPS = new Map([
  ['sucursal centro cdmx', 7],
  ['tvs guadalajara', 9],
]);

describe('parseImportCsv', () => {
  test('comma file with BOM: header trimmed and lower-cased, cells trimmed, line numbers from the header', () => {
    const text = `\uFEFF IMEI , Tipo ,cliente\r\n${imei(1)}, 1 ,  José Pérez \r\n${imei(2)},2,Ana\r\n`;
    expect(parseImportCsv(text)).toEqual([
      { line: 2, cells: { imei: imei(1), tipo: '1', cliente: 'José Pérez' } },
      { line: 3, cells: { imei: imei(2), tipo: '2', cliente: 'Ana' } },
    ]);
  });

  test("';' and tab delimiters are detected from the header; commas inside cells stay in the cell", () => {
    const semi = parseImportCsv(`imei;tipo;cliente\n${imei(1)};1;Pérez, Juan\n`);
    expect(semi).toEqual([{ line: 2, cells: { imei: imei(1), tipo: '1', cliente: 'Pérez, Juan' } }]);
    const tab = parseImportCsv(`imei\ttipo\tmarca\n${imei(1)}\tTV\tTCL\n`);
    expect(tab[0]!.cells).toEqual({ imei: imei(1), tipo: 'TV', marca: 'TCL' });
  });

  test('quotes: delimiters, doubled quotes and line breaks inside a quoted cell; lines still counted', () => {
    const text = [
      'imei,tipo,cliente,modelo',
      `${imei(1)},1,"López, María","Galaxy ""A15"""`,
      `${imei(2)},1,"Dirección:`,
      `Calle 5",A25`,
      `${imei(3)},2,Núñez,55U6K`,
    ].join('\r\n');
    const rows = parseImportCsv(text);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 5]);
    expect(rows[0]!.cells).toMatchObject({ cliente: 'López, María', modelo: 'Galaxy "A15"' });
    expect(rows[1]!.cells.cliente).toBe('Dirección:\nCalle 5');
    expect(rows[2]!.cells.cliente).toBe('Núñez');
  });

  test('empty lines (and lines of empty cells) are skipped without shifting line numbers', () => {
    const text = `imei,tipo\n\n${imei(1)},1\n\n   \n,\n${imei(2)},2\n\n`;
    expect(parseImportCsv(text).map((r) => [r.line, r.cells.imei])).toEqual([
      [3, imei(1)],
      [7, imei(2)],
    ]);
  });

  test('accents survive (UTF-8 text) and unknown columns are ignored', () => {
    const rows = parseImportCsv(`imei,tipo,cliente,comentario\n${imei(1)},Móvil,Begoña Ibáñez Ñúñez,ignorado\n`);
    expect(rows[0]!.cells).toEqual({ imei: imei(1), tipo: 'Móvil', cliente: 'Begoña Ibáñez Ñúñez' });
  });

  test(`${IMPORT_MAX_ROWS.toLocaleString('en')} data rows pass; one more is refused`, () => {
    const lines = (n: number) => ['imei,tipo', ...Array.from({ length: n }, (_, i) => `${imei(i)},1`)].join('\n');
    expect(parseImportCsv(lines(IMPORT_MAX_ROWS))).toHaveLength(IMPORT_MAX_ROWS);
    const err = refusal(() => parseImportCsv(lines(IMPORT_MAX_ROWS + 1)));
    expect([err.status, err.message]).toEqual([400, 'El archivo CSV admite como máximo 10,000 filas']);
  });

  test('missing required columns and files without data rows are refused', () => {
    let err = refusal(() => parseImportCsv(`serie,marca\nA,B\n`));
    expect([err.status, err.code, err.message]).toEqual([400, 'CSV_MISSING_COLUMNS', 'Faltan columnas en el encabezado: imei, tipo']);
    err = refusal(() => parseImportCsv(`imei;marca\n${imei(1)};B\n`));
    expect(err.message).toBe('Faltan columnas en el encabezado: tipo');
    for (const empty of ['', '\uFEFF', 'imei,tipo\n', 'imei,tipo\n\n\n']) {
      err = refusal(() => parseImportCsv(empty));
      expect([err.status, err.message]).toEqual([400, 'El archivo CSV no tiene filas de datos']);
    }
  });

  test('a quote that never closes would swallow every later row: the file is refused naming the line where it opens', () => {
    let err = refusal(() => parseImportCsv(`imei,tipo\r\n${imei(1)},1\r\n\r\n"${imei(2)},1\r\n${imei(3)},1\r\n${imei(4)},1\r\n`));
    expect([err.status, err.code, err.message]).toEqual([400, 'CSV_UNCLOSED_QUOTE', 'El archivo CSV tiene comillas sin cerrar en la fila 4']);
    err = refusal(() => parseImportCsv(`imei,tipo,cliente\n${imei(1)},1,"Ana\nPérez"\n${imei(2)},1,"Luis\n`));
    expect(err.message).toBe('El archivo CSV tiene comillas sin cerrar en la fila 4');
    err = refusal(() => parseImportCsv(`\n"imei,tipo\n${imei(1)},1\n`));
    expect(err.message).toBe('El archivo CSV tiene comillas sin cerrar en la fila 2');
  });
});

describe('readImportCsv: the encoding of the file', () => {
  const header = 'imei,tipo,cliente\r\n';
  const row = (cliente: string) => `${imei(1)},Móvil,${cliente}\r\n`;

  test('Windows-1252 (Excel «CSV delimitado por comas»): ñ and accents read correctly, encoding Windows-1252', () => {
    const bytes = new Uint8Array(Buffer.from(header + row('Peña Núñez'), 'latin1'));
    expect(bytes.includes(0xf1)).toBe(true); // ñ as one Windows-1252 byte
    const file = readImportCsv(bytes);
    expect(file.encoding).toBe('Windows-1252');
    expect(file.records[0]!.cells).toEqual({ imei: imei(1), tipo: 'Móvil', cliente: 'Peña Núñez' });
    // Bytes only Windows-1252 has (0x80-0x9F): € and curly quotes.
    const smart = readImportCsv(
      new Uint8Array([...Buffer.from(header, 'latin1'), ...Buffer.from(`${imei(1)},1,`), 0x93, 0x41, 0x94, 0x80, 0x0d, 0x0a]),
    );
    expect(smart.records[0]!.cells.cliente).toBe('\u201cA\u201d\u20ac');
  });

  test('UTF-8 with and without BOM: encoding UTF-8, the BOM dropped', () => {
    for (const prefix of ['\uFEFF', '']) {
      const file = readImportCsv(new Uint8Array(Buffer.from(prefix + header + row('Peña Núñez'), 'utf8')));
      expect(file.encoding).toBe('UTF-8');
      expect(file.records[0]!.cells).toEqual({ imei: imei(1), tipo: 'Móvil', cliente: 'Peña Núñez' });
    }
  });

  test('UTF-16 and bytes that are neither are refused (415), never read with a replacement character', () => {
    const M = INVENTORY_MESSAGES.csv;
    for (const bom of [
      [0xff, 0xfe],
      [0xfe, 0xff],
    ]) {
      const utf16 = refusal(() => readImportCsv(new Uint8Array([...bom, ...Buffer.from(header + row('Peña'), 'utf16le')])));
      expect([utf16.status, utf16.code, utf16.message]).toEqual([415, 'CSV_ENCODING', M.utf16]);
    }
    const cases = [
      Buffer.from(header + row('Peña'), 'utf16le'), // UTF-16 without BOM: NUL bytes
      Buffer.from([...Buffer.from(header), ...Buffer.from(`${imei(1)},1,A`), 0x81, 0x0a]), // undefined in Windows-1252
      Buffer.from([0xef, 0xbb, 0xbf, ...Buffer.from(header), ...Buffer.from(`${imei(1)},1,Pe`), 0xf1, 0x61, 0x0a]), // UTF-8 BOM, then not UTF-8
      Buffer.from(header + row('Pe\uFFFDa'), 'utf8'), // already damaged by a wrong conversion
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]), // a PNG
    ];
    for (const bytes of cases) {
      const err = refusal(() => readImportCsv(new Uint8Array(bytes)));
      expect([err.status, err.code, err.message]).toEqual([415, 'CSV_ENCODING', M.badEncoding]);
    }
  });

  test('unknown and repeated header names are listed as ignored, as written', () => {
    const table = parseImportTable(`IMEI,Tipo,Comentario,,imei,Vendedor\n${imei(1)},1,x,,${imei(2)},y\n`);
    expect(table.ignoredColumns).toEqual(['Comentario', 'imei', 'Vendedor']);
    expect(table.records[0]!.cells).toEqual({ imei: imei(1), tipo: '1' });
    expect(parseImportTable(`imei,tipo\n${imei(1)},1\n`).ignoredColumns).toEqual([]);
  });
});

describe('validateImportRows', () => {
  const validate = (text: string) => validateImportRows(parseImportCsv(text), GROUPS);

  test('tipo: 1/2, Móvil/Movil/TV in any case', () => {
    expect(['1', '2', 'Móvil', 'MOVIL', 'movil', 'móvil', 'tv', 'Tv', ' TV '].map(deviceTypeOf)).toEqual([1, 2, 1, 1, 1, 1, 2, 2, 2]);
    expect(deviceTypeOf('Tableta')).toBe('Tableta');
    const rows = validate(`imei,tipo\n${imei(1)},Movil\n${imei(2)},tv\n${imei(3)},3\n`);
    expect(rows.map((r) => r.body?.deviceType)).toEqual([1, 2, undefined]);
    expect(rows[2]!.errors).toEqual([{ field: 'tipo', message: 'El campo Tipo debe ser 1 (Móvil) o 2 (TV)' }]);
  });

  test('a valid row becomes the body the API would register (group by name, empty cells null)', () => {
    const [row] = validate(
      `imei,imei2,serie,tipo,marca,modelo,grupo,cliente,referencia_credito\n${imei(1)},,SN1,1,Samsung,A15,SUCURSAL centro cdmx,Ana,CR-1\n`,
    );
    expect(row).toEqual({
      line: 2,
      imei: imei(1),
      errors: [],
      body: deviceBody.parse({
        imei: imei(1),
        serial: 'SN1',
        deviceType: 1,
        brand: 'Samsung',
        model: 'A15',
        groupId: 7,
        customerName: 'Ana',
        creditReference: 'CR-1',
      }),
    });
  });

  test('every error of a row is reported under its CSV column, in Spanish, naming the field by its label', () => {
    const [row] = validate(`imei,imei2,tipo,marca,grupo,cliente\n${badCheckDigit(1)},123,5,${'x'.repeat(61)},Norte,"a\u0001b"\n`);
    expect(row!.body).toBeUndefined();
    expect(row!.errors).toEqual(
      expect.arrayContaining([
        { field: 'grupo', message: 'El grupo "Norte" no existe' },
        { field: 'imei', message: 'El campo IMEI no es un IMEI válido (dígito verificador incorrecto)' },
        { field: 'imei2', message: 'El campo IMEI 2 debe tener 15 dígitos' },
        { field: 'tipo', message: 'El campo Tipo debe ser 1 (Móvil) o 2 (TV)' },
        { field: 'marca', message: 'El campo Marca admite como máximo 60 caracteres' },
        { field: 'cliente', message: 'El campo Cliente contiene caracteres no permitidos' },
      ]),
    );
    expect(row!.errors).toHaveLength(6);
    const [empty] = validate(`imei,tipo,cliente\n,,Ana\n${imei(2)},1,Luis\n`);
    expect(empty!.errors).toEqual([
      { field: 'imei', message: 'El campo IMEI es obligatorio' },
      { field: 'tipo', message: 'El campo Tipo es obligatorio' },
    ]);
  });

  test('IMEIs repeated in the file: the later rows are refused with the first line (spaces and dashes ignored)', () => {
    const spaced = `${imei(1).slice(0, 5)} ${imei(1).slice(5, 10)}-${imei(1).slice(10)}`;
    const rows = validate(`imei,tipo\n${imei(1)},1\n${imei(2)},1\n${spaced},2\n${imei(1)},9\n`);
    expect(rows.map((r) => r.body !== undefined)).toEqual([true, true, false, false]);
    expect(rows[2]!.errors).toEqual([{ field: 'imei', message: 'IMEI repetido en el archivo (fila 2)' }]);
    expect(rows[3]!.errors).toEqual([
      { field: 'tipo', message: 'El campo Tipo debe ser 1 (Móvil) o 2 (TV)' },
      { field: 'imei', message: 'IMEI repetido en el archivo (fila 2)' },
    ]);
  });

  test('IMEIs live devices have are refused; the report lists invalid rows only', () => {
    const rows = validate(`imei,tipo\n${imei(1)},1\n${imei(2)},1\nmal,1\n`);
    markTaken(rows, new Set([imei(2)]));
    expect(invalidRows(rows)).toEqual([
      { line: 3, imei: imei(2), errors: [{ field: 'imei', message: 'Ya existe un dispositivo con este IMEI' }] },
      { line: 4, imei: 'mal', errors: [{ field: 'imei', message: 'El campo IMEI debe tener 15 dígitos' }] },
    ]);
  });
});

describe('CSV writing', () => {
  const device = (over: Partial<Device>): Device => ({
    id: 1,
    imei: imei(1),
    imei2: null,
    serial: null,
    deviceType: 1,
    brand: 'Samsung',
    model: 'A15',
    osVersion: null,
    agentVersion: '3.4.1',
    groupId: null,
    groupName: null,
    customerName: null,
    creditReference: null,
    status: 5,
    lockType: null,
    lockMessage: null,
    temporaryUntil: null,
    pendingCommand: null,
    failureReason: null,
    lastSeenAt: '2026-01-02T03:04:05.000Z',
    enrolledAt: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    simIccid: null,
    simCarrier: null,
    ...over,
  });

  test('export: BOM + header, Spanish labels, ISO dates, quoting and formula cells neutralised', () => {
    const header = EXPORT_COLUMNS.map((c) => (['ultima_conexion', 'enrolado', 'creado'].includes(c) ? `${c} (UTC)` : c));
    expect(exportHeader()).toBe(`\uFEFF${header.join(',')}\r\n`);
    const text = exportLines(
      [
        device({}),
        device({
          id: 2,
          deviceType: 2,
          status: 3,
          lockType: 'PorCambioSIM',
          customerName: '=HYPERLINK("x")',
          creditReference: '+52, "A"',
          groupName: 'Sucursal Centro',
        }),
      ].map(exportRecordOf),
    );
    const parsed = Papa.parse<string[]>(text.trimEnd(), { newline: '\r\n' }).data;
    expect(parsed[0]).toEqual([
      '1',
      imei(1),
      '',
      '',
      'Móvil',
      'Samsung',
      'A15',
      'Activo',
      '',
      '',
      '',
      '',
      '2026-01-02T03:04:05.000Z',
      '3.4.1',
      '',
      '2026-01-01T00:00:00.000Z',
    ]);
    expect(parsed[1]!.slice(4, 12)).toEqual([
      'TV',
      'Samsung',
      'A15',
      'Bloqueado',
      'Por Cambio SIM',
      'Sucursal Centro',
      `'=HYPERLINK("x")`,
      `'+52, "A"`,
    ]);
    expect(exportLines([])).toBe('');
  });

  test("export in the browser's zone: the date columns carry its offset and their header names it", () => {
    const zone = csvZone('America/Mexico_City');
    expect(exportHeader(zone)).toContain(
      ',ultima_conexion (America/Mexico_City),version_agente,enrolado (America/Mexico_City),creado (America/Mexico_City)\r\n',
    );
    const [line] = Papa.parse<string[]>(
      exportLines([exportRecordOf(device({ lastSeenAt: '2026-11-23T20:05:00.000Z', enrolledAt: '2026-07-01T05:00:00.000Z' }))], zone).trimEnd(),
      { newline: '\r\n' },
    ).data;
    expect([line![12], line![14], line![15]]).toEqual([
      '2026-11-23T14:05:00.000-06:00',
      '2026-06-30T23:00:00.000-06:00',
      '2025-12-31T18:00:00.000-06:00',
    ]);
  });

  test('the template has the import header and one example row that imports cleanly', () => {
    const text = importTemplate();
    expect(text.startsWith(`\uFEFF${IMPORT_COLUMNS.join(',')}\r\n`)).toBe(true);
    const rows = validateImportRows(parseImportCsv(text), GROUPS);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.errors).toEqual([]);
    expect(rows[0]!.body).toMatchObject({ deviceType: 1, brand: 'Samsung' });
  });

  test("the template's example tipo is one of the values its instructions name", () => {
    const [, example] = Papa.parse<string[]>(importTemplate().slice(1).trim()).data;
    const tipo = example![IMPORT_COLUMNS.indexOf('tipo')]!;
    const intro = ADD_DEVICE_LABELS.csvIntro('10,000', 2);
    const named = /tipo es (.+?) \(o su código, (.+?)\)/.exec(intro);
    expect(named).not.toBeNull();
    const values = [...named![1]!.split(' o '), ...named![2]!.split(' o ')];
    expect(values).toContain(tipo);
    // Every value the instructions name is accepted.
    for (const v of values) expect([1, 2]).toContain(deviceTypeOf(v));
  });
});
