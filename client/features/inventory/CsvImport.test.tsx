/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADD_DEVICE_LABELS } from '../../../shared/constants/addDeviceLabels';
import type { ImportResult } from '../../../shared/contracts/deviceImport';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { renderPortal, seriousViolations, stubApi, type ApiCall } from '../../testing/renderPortal';
import { csvFileProblem as fileProblem } from '../../components/CsvImportFlow';
import { CsvImport } from './CsvImport';
import { CsvImportPreview } from './CsvImportPreview';

beforeAll(() => {
  // jsdom's Blob has no text(): read it with FileReader as browsers do.
  if (typeof Blob.prototype.text !== 'function') {
    Blob.prototype.text = function text(this: Blob) {
      return new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error ?? new Error('read'));
        reader.readAsText(this);
      });
    };
  }
});

const L = ADD_DEVICE_LABELS;
const GROUPS = [{ id: 3, name: 'Norte' }];

const PREVIEW: ImportResult = {
  mode: 'preview',
  encoding: 'UTF-8',
  ignoredColumns: [],
  rows: 4,
  valid: 2,
  invalid: [
    {
      line: 3,
      imei: '490154203237519',
      errors: [
        { field: 'imei', message: M.field.imeiCheckDigit('imei') },
        { field: 'tipo', message: M.field.deviceType('tipo') },
      ],
    },
    { line: 5, imei: '356938035643809', errors: [{ field: 'imei', message: M.csv.duplicateInFile(2) }] },
  ],
  sample: [
    {
      imei: '356938035643809',
      imei2: null,
      serial: null,
      deviceType: 1,
      brand: 'Moto',
      model: 'G8',
      groupId: 3,
      customerName: null,
      creditReference: null,
    },
    {
      imei: '490154203237518',
      imei2: null,
      serial: 'S1',
      deviceType: 2,
      brand: null,
      model: null,
      groupId: null,
      customerName: 'Ana',
      creditReference: 'R-1',
    },
  ],
  imported: 0,
};

describe('CsvImportPreview', () => {
  test('counts, the invalid rows with each error by field, a sample of the valid rows; import enabled', async () => {
    const onImport = jest.fn();
    const onCancel = jest.fn();
    const user = userEvent.setup();
    render(<CsvImportPreview preview={PREVIEW} groups={GROUPS} importing={false} onImport={onImport} onCancel={onCancel} />);

    const counts = screen.getByTestId('csv-counts');
    expect(counts.textContent).toContain(`${L.rows}4`);
    expect(counts.textContent).toContain(`${L.valid}2`);
    expect(counts.textContent).toContain(`${L.invalid}2`);

    const invalid = screen.getByRole('table', { name: L.invalidTitle });
    const rows = within(invalid).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('3');
    expect(rows[0]!.textContent).toContain('490154203237519');
    const errors = within(rows[0]!)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(errors).toEqual([`imei: ${M.field.imeiCheckDigit('imei')}`, `tipo: ${M.field.deviceType('tipo')}`]);
    expect(rows[1]!.textContent).toContain(M.csv.duplicateInFile(2));

    const sample = screen.getByRole('table', { name: L.sampleTitle });
    const sampleRows = within(sample).getAllByRole('row').slice(1);
    expect(sampleRows.map((r) => r.querySelector('td')?.textContent)).toEqual(['356938035643809', '490154203237518']);
    expect(sampleRows[0]!.textContent).toContain('Norte');
    expect(sampleRows[1]!.textContent).toContain('TV');

    const importButton = screen.getByRole('button', { name: L.importValid(2) });
    expect((importButton as HTMLButtonElement).disabled).toBe(false);
    await user.click(importButton);
    expect(onImport).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: L.cancel }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  test('the encoding the server read and the columns it ignored are shown', () => {
    const ansi: ImportResult = { ...PREVIEW, encoding: 'Windows-1252', ignoredColumns: ['Vendedor', 'comentario'] };
    const { unmount } = render(
      <CsvImportPreview preview={ansi} groups={GROUPS} importing={false} onImport={() => undefined} onCancel={() => undefined} />,
    );
    expect(screen.getByTestId('csv-counts').textContent).toContain(`${L.encoding}Windows-1252`);
    const ignored = screen.getByTestId('csv-ignored-columns');
    expect(ignored.textContent).toBe(`${L.ignoredColumns(2)} Vendedor, comentario`);
    expect(
      within(ignored)
        .getAllByText(/Vendedor|comentario/)
        .map((e) => e.tagName),
    ).toEqual(['CODE', 'CODE']);
    unmount();
    render(<CsvImportPreview preview={PREVIEW} groups={GROUPS} importing={false} onImport={() => undefined} onCancel={() => undefined} />);
    expect(screen.getByTestId('csv-counts').textContent).toContain(`${L.encoding}UTF-8`);
    expect(screen.queryByTestId('csv-ignored-columns')).toBeNull();
  });

  test('no valid rows: the import button is disabled and says why', () => {
    const onImport = jest.fn();
    const none: ImportResult = { ...PREVIEW, rows: 2, valid: 0, sample: [] };
    render(<CsvImportPreview preview={none} groups={GROUPS} importing={false} onImport={onImport} onCancel={() => undefined} />);
    const button = screen.getByRole('button', { name: L.importValid(0) }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText(L.noValidRows)).toBeTruthy();
    expect(screen.queryByRole('table', { name: L.sampleTitle })).toBeNull();
  });
});

test('fileProblem: over 2 MB is refused with the server message; a non-CSV too', () => {
  expect(fileProblem({ name: 'a.csv', size: 2 * 1024 * 1024 + 1, type: 'text/csv' })).toBe(M.csv.tooLarge(2));
  expect(fileProblem({ name: 'a.csv', size: 2 * 1024 * 1024, type: 'text/csv' })).toBeUndefined();
  expect(fileProblem({ name: 'A.CSV', size: 10, type: '' })).toBeUndefined();
  expect(fileProblem({ name: 'a.xlsx', size: 10, type: 'application/vnd.ms-excel' })).toBe(M.csv.notCsv);
});

describe('CsvImport', () => {
  let calls: ApiCall[] = [];
  let resolveCommit: (() => void) | undefined;

  beforeEach(() => {
    calls = stubApi(async (call) => {
      const mode = (call.params as { mode: string }).mode;
      if (mode === 'commit') {
        await new Promise<void>((r) => (resolveCommit = r));
        return { ...PREVIEW, mode: 'commit', imported: 2, invalid: [], sample: [] };
      }
      return PREVIEW;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  function setup() {
    return renderPortal(<CsvImport groups={GROUPS} preEnrolledPath="/inventory-management/devices-pre-enrolled" />).user;
  }

  test('a file is previewed, nothing is imported until the explicit click, then the commit shows progress and the result', async () => {
    const user = setup();
    // Windows-1252 bytes (ñ = 0xF1): sent untouched, the server decodes them.
    const file = new File(
      [new Uint8Array([...new TextEncoder().encode('imei,tipo,cliente\n356938035643809,1,Pe'), 0xf1, 0x61, 0x0a])],
      'equipos.csv',
      {
        type: 'text/csv',
      },
    );
    await user.upload(screen.getByLabelText(L.file), file);

    await screen.findByRole('table', { name: L.invalidTitle });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      url: '/v5/devices/import',
      method: 'POST',
      params: { mode: 'preview' },
      headers: { 'Content-Type': 'text/csv' },
    });
    expect(calls[0]!.data).toBe(file);

    await user.click(screen.getByRole('button', { name: L.importValid(2) }));
    expect(await screen.findByText(L.importing(2))).toBeTruthy();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toMatchObject({ params: { mode: 'commit' } });
    expect(calls[1]!.data).toBe(file);

    expect(await seriousViolations()).toEqual([]);

    resolveCommit?.();
    const result = await screen.findByTestId('csv-result');
    expect(result.textContent).toContain(L.imported(2));
    expect(within(result).getByRole('link', { name: L.viewPreEnrolled }).getAttribute('href')).toBe('/inventory-management/devices-pre-enrolled');
  });

  test('Cancelar drops the preview without importing', async () => {
    const user = setup();
    await user.upload(screen.getByLabelText(L.file), new File(['imei,tipo\n'], 'equipos.csv', { type: 'text/csv' }));
    await screen.findByTestId('csv-preview');
    await user.click(screen.getByRole('button', { name: L.cancel }));
    await waitFor(() => expect(screen.queryByTestId('csv-preview')).toBeNull());
    expect(calls.map((c) => (c.params as { mode: string }).mode)).toEqual(['preview']);
  });

  test('a file over 2 MB is refused under the input and never sent', async () => {
    const user = setup();
    const big = new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'grande.csv', { type: 'text/csv' });
    const input = screen.getByLabelText(L.file);
    await user.upload(input, big);
    await waitFor(() => expect(input.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(M.csv.tooLarge(2));
    expect(calls).toHaveLength(0);
  });
});
