import iconv from 'iconv-lite';
import { CREDIT_MESSAGES } from '../../shared/areaMessages/credit';
import { PAYMENT_COLUMNS, SCHEDULE_COLUMNS } from '../../shared/contracts/creditImport';
import { AppError } from '../errors';
import { creditImportTemplate, parseCsvAmount, parseCsvDate, parseCsvInstant, readPaymentCsv, readScheduleCsv, splitImeis } from './creditCsv';

const M = CREDIT_MESSAGES.csvImport;
const ZONE = 'America/Mexico_City';
const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));
const cp1252 = (text: string) => new Uint8Array(iconv.encode(text, 'windows1252'));

const SCHEDULE_HEADER = 'referencia,cliente,telefono,moneda,imeis,numero,vencimiento,monto\n';
const PAYMENT_HEADER = 'referencia,id_externo,monto,fecha_pago\n';

describe('cells as Mexican spreadsheets write them', () => {
  test('amounts: plain, thousands with commas, a dollar sign; cents exact', () => {
    expect(parseCsvAmount('1250.00')).toBe(125000);
    expect(parseCsvAmount('1250')).toBe(125000);
    expect(parseCsvAmount('1,250.00')).toBe(125000);
    expect(parseCsvAmount('$1,250.00')).toBe(125000);
    expect(parseCsvAmount('$ 1,234,567.5')).toBe(123456750);
    expect(parseCsvAmount(' 0.05 ')).toBe(5);
  });

  test('amounts that are not one: decimal comma, misplaced groups, three decimals, negative, text', () => {
    for (const bad of ['1250,00', '1,25.00', '12,50', '1250.001', '-10.00', 'mil', '', '$']) expect(parseCsvAmount(bad)).toBeNull();
  });

  test('due dates: YYYY-MM-DD and DD/MM/YYYY (day first), real days only', () => {
    expect(parseCsvDate('2026-03-15')).toBe('2026-03-15');
    expect(parseCsvDate('15/03/2026')).toBe('2026-03-15');
    expect(parseCsvDate('5/3/2026')).toBe('2026-03-05');
    expect(parseCsvDate('29/02/2028')).toBe('2028-02-29');
    for (const bad of ['29/02/2026', '31/04/2026', '2026-13-01', '03/15/2026', '15-03-2026', '15/03/26', '']) expect(parseCsvDate(bad)).toBeNull();
  });

  test('payment instants: ISO 8601 with its zone, or a local date and time of the company', () => {
    expect(parseCsvInstant('2026-03-01T10:30:00Z', ZONE)?.toISOString()).toBe('2026-03-01T10:30:00.000Z');
    expect(parseCsvInstant('2026-03-01T10:30:00-06:00', ZONE)?.toISOString()).toBe('2026-03-01T16:30:00.000Z');
    // Mexico City is UTC-6 all year (no daylight saving since 2022).
    expect(parseCsvInstant('01/03/2026 10:30', ZONE)?.toISOString()).toBe('2026-03-01T16:30:00.000Z');
    expect(parseCsvInstant('1/3/2026 9:05:30', ZONE)?.toISOString()).toBe('2026-03-01T15:05:30.000Z');
    expect(parseCsvInstant('2026-03-01 10:30', ZONE)?.toISOString()).toBe('2026-03-01T16:30:00.000Z');
    expect(parseCsvInstant('01/03/2026', ZONE)?.toISOString()).toBe('2026-03-01T06:00:00.000Z');
    for (const bad of ['01/03/2026 24:00', '01/03/2026 10:61', '31/02/2026 10:00', '2026-02-31T10:00:00Z', 'ayer', '01/03/2026 10:30 pm', '']) {
      expect(parseCsvInstant(bad, ZONE)).toBeNull();
    }
  });

  test('IMEIs separated by semicolons or spaces', () => {
    expect(splitImeis('356938035643809; 356938035643817')).toEqual(['356938035643809', '356938035643817']);
    expect(splitImeis('356938035643809 356938035643817')).toEqual(['356938035643809', '356938035643817']);
    expect(splitImeis('  ')).toEqual([]);
  });
});

describe('schedules file', () => {
  test('rows of one reference form one credit: numbered in order whatever the file order, customer from its first row', () => {
    const file = utf8(
      SCHEDULE_HEADER +
        'CR-1,Ana Pérez,55 1234 5678,,356938035643809,2,15/02/2026,"$1,250.00"\n' +
        'CR-1,,,,,1,15/01/2026,1250.00\n' +
        'cr-1,Ana Pérez,,MXN,356938035643817,3,2026-03-15,"1,250.50"\n' +
        'CR-2,Luis Gómez,,usd,,1,2026-01-31,999\n',
    );
    const read = readScheduleCsv(file);
    expect(read).toMatchObject({ encoding: 'UTF-8', rows: 4, invalid: [], ignoredColumns: [] });
    expect(read.groups).toHaveLength(2);
    const [one, two] = read.groups;
    expect(one!.reference).toBe('CR-1');
    expect(one!.body).toEqual({
      customerName: 'Ana Pérez',
      customerPhone: '5512345678',
      currency: 'MXN',
      cancelled: false,
      imeis: ['356938035643809', '356938035643817'],
      installments: [
        { number: 1, dueDate: '2026-01-15', amount: 125000 },
        { number: 2, dueDate: '2026-02-15', amount: 125000 },
        { number: 3, dueDate: '2026-03-15', amount: 125050 },
      ],
    });
    expect(one!.imeiLines.get('356938035643817')).toBe(4);
    expect(two!.body.currency).toBe('USD');
    expect(two!.body.customerPhone).toBeNull();
  });

  test('Windows-1252 with an accented customer name (Excel «CSV delimitado por comas», semicolons)', () => {
    const file = cp1252('referencia;cliente;numero;vencimiento;monto\r\nCR-Ñ;José Muñoz Peña;1;15/01/2026;$1,250.00\r\n');
    expect(file.includes(0xf1)).toBe(true);
    const read = readScheduleCsv(file);
    expect(read.encoding).toBe('Windows-1252');
    expect(read.groups[0]!.reference).toBe('CR-Ñ');
    expect(read.groups[0]!.body.customerName).toBe('José Muñoz Peña');
    expect(read.groups[0]!.body.installments[0]!.amount).toBe(125000);
  });

  test('per-row errors name the column and the line; a reference with any error yields no credit', () => {
    const file = utf8(
      SCHEDULE_HEADER +
        'CR-1,Ana,,,,1,2026-01-15,100\n' + // line 2
        'CR-1,Ana,,,,2,31/02/2026,100\n' + // line 3: no such day
        'CR-2,Luis,,,,1,2026-01-15,"1,25"\n' + // line 4: decimal comma
        ',Sin referencia,,,,1,2026-01-15,100\n' + // line 5
        'CR-3,,,,,uno,2026-01-15,100\n' + // line 6: no customer, bad number
        'CR-4,Eva,,,,1,2026-01-15,100\n' + // line 7: valid
        'CR-5,Eva,,,,1,2026-01-15,100\n' + // line 8
        'CR-5,Otra,,,,1,2026-02-15,100\n', // line 9: customer differs, number repeated
    );
    const read = readScheduleCsv(file);
    expect(read.groups.map((g) => g.reference)).toEqual(['CR-4']);
    expect(read.invalid).toEqual([
      { line: 3, reference: 'CR-1', errors: [{ field: 'vencimiento', message: M.date('vencimiento', '2000-01-01', '2100-12-31') }] },
      { line: 4, reference: 'CR-2', errors: [{ field: 'monto', message: M.amount('monto') }] },
      { line: 5, reference: '', errors: [{ field: 'referencia', message: M.required('referencia') }] },
      {
        line: 6,
        reference: 'CR-3',
        errors: [
          { field: 'numero', message: M.number('numero') },
          { field: 'cliente', message: M.required('cliente') },
        ],
      },
      {
        line: 9,
        reference: 'CR-5',
        errors: [
          { field: 'cliente', message: M.differs('cliente', 8) },
          { field: 'numero', message: M.numberRepeated('numero', 8) },
        ],
      },
    ]);
  });

  test("the API's own rules: numbering without gaps, due dates increasing, the phone, the IMEI", () => {
    const file = utf8(
      SCHEDULE_HEADER +
        'CR-1,Ana,,,,1,2026-01-15,100\n' +
        'CR-1,Ana,,,,3,2026-03-15,100\n' + // line 3: 2 expected
        'CR-2,Luis,123,,,1,2026-02-15,100\n' + // line 4: phone too short
        'CR-2,Luis,,,,2,2026-01-15,100\n' + // line 5: due before the previous one
        'CR-3,Eva,,,12345,1,2026-01-15,100\n', // line 6: not an IMEI
    );
    const read = readScheduleCsv(file);
    expect(read.groups).toEqual([]);
    expect(read.invalid.map((r) => [r.line, r.errors.map((e) => e.field)])).toEqual([
      [3, ['numero']],
      [4, ['telefono']],
      [5, ['vencimiento']],
      [6, ['imeis']],
    ]);
    expect(read.invalid[0]!.errors[0]!.message).toContain('debe ser 2');
  });

  test('a file without the required columns is refused as a whole, naming them', () => {
    const err = (() => {
      try {
        readScheduleCsv(utf8('referencia,cliente,monto\nCR-1,Ana,100\n'));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).message).toContain('numero, vencimiento');
  });
});

describe('payments file', () => {
  test('ISO and local dates, amounts with thousands and a dollar sign, per-row errors by column', () => {
    const file = utf8(
      PAYMENT_HEADER +
        'CR-1,P-1,"$1,250.00",01/03/2026 10:30\n' +
        'CR-1,P-2,500,2026-03-02T12:00:00Z\n' +
        'CR-1,,500,2026-03-02T12:00:00Z\n' + // line 4
        'CR-1,P 3,500,2026-03-02T12:00:00Z\n' + // line 5: a space in the id
        'CR-1,P-4,0,1999-12-31T00:00:00Z\n', // line 6
    );
    const read = readPaymentCsv(file, ZONE);
    expect(read.payments).toEqual([
      { line: 2, reference: 'CR-1', body: { externalId: 'P-1', amount: 125000, paidAt: new Date('2026-03-01T16:30:00Z') } },
      { line: 3, reference: 'CR-1', body: { externalId: 'P-2', amount: 50000, paidAt: new Date('2026-03-02T12:00:00Z') } },
    ]);
    expect(read.invalid).toEqual([
      { line: 4, reference: 'CR-1', errors: [{ field: 'id_externo', message: M.required('id_externo') }] },
      { line: 5, reference: 'CR-1', errors: [{ field: 'id_externo', message: expect.stringContaining('Id externo del pago') }] },
      {
        line: 6,
        reference: 'CR-1',
        errors: [
          { field: 'monto', message: M.amount('monto') },
          { field: 'fecha_pago', message: M.instant('fecha_pago', '2000-01-01T00:00:00Z') },
        ],
      },
    ]);
  });

  test('Windows-1252 file is read as such', () => {
    const read = readPaymentCsv(cp1252(`${PAYMENT_HEADER}CR-Ñ,PAGO-1,100,15/01/2026 08:00\n`), ZONE);
    expect(read.encoding).toBe('Windows-1252');
    expect(read.payments[0]!.reference).toBe('CR-Ñ');
  });
});

describe('templates', () => {
  test('each template has its header and example rows that read without errors', () => {
    const schedules = creditImportTemplate('schedules');
    expect(schedules.startsWith('\uFEFF' + SCHEDULE_COLUMNS.join(','))).toBe(true);
    const s = readScheduleCsv(utf8(schedules));
    expect(s.invalid).toEqual([]);
    expect(s.groups[0]!.body.installments).toHaveLength(3);
    const payments = creditImportTemplate('payments');
    expect(payments.startsWith('\uFEFF' + PAYMENT_COLUMNS.join(','))).toBe(true);
    const p = readPaymentCsv(utf8(payments), ZONE);
    expect(p.invalid).toEqual([]);
    expect(p.payments).toHaveLength(1);
  });
});
