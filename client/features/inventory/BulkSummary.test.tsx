/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import { DEVICE_STATUS } from '../../../shared/constants/domain';
import type { BulkPreview } from '../../../shared/contracts/jobs';
import { BulkSummary } from './BulkSummary';

const preview: BulkPreview = {
  total: 12_500,
  eligible: 9_000,
  byStatus: [
    { status: DEVICE_STATUS.activo, count: 9_000 },
    { status: DEVICE_STATUS.liberado, count: 3_000 },
    { status: DEVICE_STATUS.sin_conexion, count: 500 },
  ],
  skipped: [
    { reason: 'La acción Bloquear no está disponible para dispositivos en estado Liberado', count: 3_000 },
    { reason: 'El dispositivo tiene un comando pendiente (Desbloquear); espere la respuesta o cancélelo', count: 500 },
  ],
  offline: 420,
  overLimit: false,
};

test('the dry run: totals, per-status counts with the status labels, skipped reasons with counts, offline', () => {
  render(<BulkSummary preview={preview} />);
  expect(screen.getByTestId('bulk-total').textContent).toBe('12,500');
  expect(screen.getByTestId('bulk-eligible').textContent).toBe('9,000');
  expect(screen.getByTestId('bulk-offline').textContent).toBe('420');
  const rows = within(screen.getByTestId('bulk-by-status')).getAllByRole('row');
  expect(rows.map((r) => [...r.children].map((c) => c.textContent))).toEqual([
    ['Activo', '9,000'],
    ['Liberado', '3,000'],
    ['Sin conexión', '500'],
  ]);
  const skipped = within(screen.getByTestId('bulk-skipped')).getAllByRole('listitem');
  expect(skipped.map((li) => li.textContent)).toEqual([
    'La acción Bloquear no está disponible para dispositivos en estado Liberado3,000',
    'El dispositivo tiene un comando pendiente (Desbloquear); espere la respuesta o cancélelo500',
  ]);
  expect(screen.queryByTestId('bulk-over-limit')).toBeNull();
});

test('over the limit: the error names the maximum', () => {
  render(<BulkSummary preview={{ ...preview, total: 20_000, overLimit: true }} />);
  expect(screen.getByTestId('bulk-over-limit').textContent).toBe(
    'La selección supera el máximo de 10,000 dispositivos por acción masiva; acote los filtros.',
  );
});

test('nothing skipped, nothing eligible', () => {
  render(<BulkSummary preview={{ ...preview, eligible: 0, skipped: [] }} />);
  expect(screen.getByText('Ninguno se omitirá')).toBeTruthy();
  expect(screen.getByText('Ningún dispositivo de la selección admite esta acción')).toBeTruthy();
});
