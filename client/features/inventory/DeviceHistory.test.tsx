/** @jest-environment jsdom */
import { cleanup, render, screen } from '@testing-library/react';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { Command } from '../../../shared/contracts/deviceActions';
import { HistoryEntry } from './DeviceHistory';

afterEach(cleanup);

const command = (id: number, action: number, payload: Record<string, unknown>): Command => ({
  id,
  deviceId: 1,
  action,
  payload,
  origin: null,
  status: 'acknowledged',
  requestedAt: '2026-11-02T16:00:00Z',
  requestedBy: 'Política de cobranza',
  deliverAfter: '2026-11-02T16:00:00Z',
  deliveredAt: '2026-11-02T16:00:20Z',
  acknowledgedAt: '2026-11-02T16:00:30Z',
  result: 'ok',
  expiresAt: null,
  cancellable: false,
  jobId: null,
});

test('the history names the collection restrictions’ rung and their lift apart, and a plain RESTRICTIONS as before', () => {
  render(
    <ul>
      <HistoryEntry entry={command(1, DEVICE_ACTION.RESTRICTIONS, { collection: true })} />
      <HistoryEntry entry={command(2, DEVICE_ACTION.RESTRICTIONS, { collection: false })} />
      <HistoryEntry entry={command(3, DEVICE_ACTION.RESTRICTIONS, {})} />
    </ul>,
  );
  const names = screen.getAllByTestId('history-entry').map((e) => e.querySelector('.fw-semibold')?.textContent);
  expect(names).toEqual(['Aplicar restricciones de cobranza', 'Quitar restricciones de cobranza', 'Aplicar restricciones']);
});
