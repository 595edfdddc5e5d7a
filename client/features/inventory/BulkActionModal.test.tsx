/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, waitFor, within } from '@testing-library/react';
import type { Job, JobCommandProgress } from '../../../shared/contracts/jobs';
import { renderPortal, stubRoutes } from '../../testing/renderPortal';
import { BulkJobProgress } from './BulkActionModal';

function job(status: Job['status'], commands: JobCommandProgress | null): Job {
  return {
    id: 77,
    kind: 'bulk_action',
    action: 0,
    status,
    total: 58,
    processed: status === 'running' ? 20 : 58,
    succeeded: 56,
    skipped: 2,
    failed: 0,
    createdAt: '2026-03-01T10:00:00Z',
    createdBy: 'admin@demo.local',
    startedAt: '2026-03-01T10:00:01Z',
    finishedAt: status === 'running' ? null : '2026-03-01T10:00:05Z',
    error: null,
    commands,
  };
}

const STOP = 'Dejar de seguir los comandos';

afterEach(() => jest.restoreAllMocks());

test('a finished job keeps refreshing while its commands are on their way, with the commands line, until all are answered', async () => {
  let answer = job('completed', { waiting: 30, delivered: 6, acknowledged: 18, rejected: 1, cancelled: 1 });
  const calls = stubRoutes({ 'GET /v5/jobs/77': () => answer });
  renderPortal(<BulkJobProgress jobId={77} />);
  const line = await screen.findByTestId('bulk-commands');
  expect(line.querySelector('p')!.textContent).toBe('Comandos: 18 confirmados, 6 recibidos, 30 en espera, 1 rechazados, 1 cancelados');
  // A button that says what it does (not a second ×, which read as closing the dialog).
  expect(within(line).getByRole('button', { name: STOP }).textContent).toBe(STOP);
  expect(line.querySelector('.btn-close')).toBeNull();

  // The devices answer: the next refresh shows it, and nothing is left to follow.
  answer = job('completed', { waiting: 0, delivered: 0, acknowledged: 52, rejected: 3, cancelled: 1 });
  await waitFor(
    () =>
      expect(screen.getByTestId('bulk-commands').querySelector('p')!.textContent).toBe(
        'Comandos: 52 confirmados, 0 recibidos, 0 en espera, 3 rechazados, 1 cancelados',
      ),
    { timeout: 5000 },
  );
  expect(screen.queryByRole('button', { name: STOP })).toBeNull();
  expect(calls.filter((c) => c.url === '/v5/jobs/77').length).toBeGreaterThanOrEqual(2);
});

test('while the job runs there is no commands line; "Dejar de seguir los comandos" closes it once finished', async () => {
  let answer = job('running', { waiting: 20, delivered: 0, acknowledged: 0, rejected: 0, cancelled: 0 });
  stubRoutes({ 'GET /v5/jobs/77': () => answer });
  const { user } = renderPortal(<BulkJobProgress jobId={77} />);
  expect((await screen.findByTestId('bulk-job')).textContent).toContain('20 de 58 procesados');
  expect(screen.queryByTestId('bulk-commands')).toBeNull();

  answer = job('completed', { waiting: 40, delivered: 10, acknowledged: 6, rejected: 0, cancelled: 0 });
  const line = await screen.findByTestId('bulk-commands', undefined, { timeout: 5000 });
  expect(line.querySelector('p')!.textContent).toBe('Comandos: 6 confirmados, 10 recibidos, 40 en espera, 0 rechazados, 0 cancelados');
  await user.click(within(line).getByRole('button', { name: STOP }));
  expect(screen.queryByTestId('bulk-commands')).toBeNull();
  // The job's own result stays.
  expect(screen.getByTestId('bulk-result')).toBeTruthy();
});

test('a job answered without command progress (null) shows no commands line', async () => {
  stubRoutes({ 'GET /v5/jobs/77': () => job('completed', null) });
  renderPortal(<BulkJobProgress jobId={77} />);
  expect(await screen.findByTestId('bulk-result')).toBeTruthy();
  expect(screen.queryByTestId('bulk-commands')).toBeNull();
});
