import { creditBody, creditListQuery, paymentBody, paymentParams } from './credits';

const valid = {
  customerName: 'María López',
  installments: [
    { number: 1, dueDate: '2026-12-01', amount: '1250.00' },
    { number: 2, dueDate: '2027-01-01', amount: '1250.5' },
  ],
};

/** The path and message of the first issue. */
const firstIssue = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const issue = result.error?.issues[0];
  return issue && { field: issue.path.join('.'), message: issue.message };
};

describe('the credit body', () => {
  test('amounts become cents, the currency defaults to MXN, the phone loses its separators', () => {
    const body = creditBody.parse({ ...valid, customerPhone: '+52 (55) 1234-5678' });
    expect(body).toEqual({
      customerName: 'María López',
      customerPhone: '+525512345678',
      currency: 'MXN',
      cancelled: false,
      imeis: [],
      installments: [
        { number: 1, dueDate: '2026-12-01', amount: 125000 },
        { number: 2, dueDate: '2027-01-01', amount: 125050 },
      ],
    });
    expect(creditBody.parse({ ...valid, customerPhone: '' }).customerPhone).toBeNull();
  });

  test.each<[string, object, string, RegExp]>([
    ['no installments', { installments: [] }, 'installments', /Cuotas/],
    [
      'a gap in the numbers',
      { installments: [valid.installments[0], { ...valid.installments[1], number: 3 }] },
      'installments.1.number',
      /debe ser 2/,
    ],
    [
      'a due date not after the previous one',
      { installments: [valid.installments[0], { ...valid.installments[1], dueDate: '2026-12-01' }] },
      'installments.1.dueDate',
      /posterior/,
    ],
    ['no such day', { installments: [{ ...valid.installments[0], dueDate: '2026-02-29' }] }, 'installments.0.dueDate', /fecha AAAA-MM-DD real/],
    ['an amount as a number', { installments: [{ ...valid.installments[0], amount: 1250 }] }, 'installments.0.amount', /Importe de la cuota/],
    ['a zero amount', { installments: [{ ...valid.installments[0], amount: '0.00' }] }, 'installments.0.amount', /mayor que cero/],
    ['three decimals', { installments: [{ ...valid.installments[0], amount: '1.005' }] }, 'installments.0.amount', /dos decimales/],
    ['a lower-case currency', { currency: 'mxn' }, 'currency', /ISO 4217/],
    ['a short phone', { customerPhone: '12345' }, 'customerPhone', /Teléfono del cliente/],
    ['a repeated IMEI', { imeis: ['356938035643809', '35693803564380-9'] }, 'imeis.1', /repite el IMEI/],
    ['an empty name', { customerName: '  ' }, 'customerName', /Cliente/],
  ])('%s: refused, naming the field', (_label, change, field, message) => {
    const issue = firstIssue(creditBody.safeParse({ ...valid, ...change }));
    expect(issue?.field).toBe(field);
    expect(issue?.message).toMatch(message);
  });
});

describe('the payment body and parameters', () => {
  test('an amount in cents and an instant', () => {
    expect(paymentBody.parse({ externalId: 'pago-1', amount: '99.9', paidAt: '2026-11-30T23:30:00-06:00' })).toEqual({
      externalId: 'pago-1',
      amount: 9990,
      paidAt: new Date('2026-12-01T05:30:00Z'),
    });
  });

  test.each<[object, string]>([
    [{ externalId: '', amount: '1', paidAt: '2026-01-01T00:00:00Z' }, 'externalId'],
    [{ externalId: 'a b', amount: '1', paidAt: '2026-01-01T00:00:00Z' }, 'externalId'],
    [{ externalId: 'x', amount: '-1', paidAt: '2026-01-01T00:00:00Z' }, 'amount'],
    [{ externalId: 'x', amount: '1', paidAt: '2026-01-01' }, 'paidAt'],
    [{ externalId: 'x', amount: '1', paidAt: '1999-12-31T23:59:59Z' }, 'paidAt'],
  ])('%j: refused at %s', (body, field) => {
    expect(firstIssue(paymentBody.safeParse(body))?.field).toBe(field);
  });

  test('path parameters: a reference is trimmed; an external id with a space is refused', () => {
    expect(paymentParams.parse({ reference: ' CR-1 ', externalId: 'portal-1' })).toEqual({ reference: 'CR-1', externalId: 'portal-1' });
    expect(firstIssue(paymentParams.safeParse({ reference: 'CR-1', externalId: 'a b' }))?.field).toBe('externalId');
  });
});

test('the list query: defaults, filters and their refusals', () => {
  expect(creditListQuery.parse({})).toEqual({ sort: 'dueDate', order: 'asc', page: 1, perPage: 25 });
  expect(creditListQuery.parse({ state: 'overdue', overdue: '8-30', dueThisWeek: 'true', groupId: 'none', search: ' Peña ' })).toMatchObject({
    state: 'overdue',
    overdue: '8-30',
    dueThisWeek: true,
    groupId: 'none',
    search: 'Peña',
  });
  expect(firstIssue(creditListQuery.safeParse({ overdue: '9+' }))?.field).toBe('overdue');
  expect(firstIssue(creditListQuery.safeParse({ sort: 'id' }))?.field).toBe('sort');
});
