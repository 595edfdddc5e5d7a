/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'react-toastify/unstyled';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';
import { PATHS } from '../../../shared/constants/routes';
import type { Webhook, WebhookDelivery } from '../../../shared/contracts/webhooks';
import { INTEGRATION_MESSAGES } from '../../../shared/areaMessages/integration';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { apiError, renderPortal, seriousViolations, stubRoutes, type ApiCall, loadDialogs } from '../../testing/renderPortal';
import WebhooksPage from './WebhooksPage';

beforeAll(loadDialogs);

const L = INTEGRATION_LABELS.webhooks;
const C = INTEGRATION_LABELS.common;
const D = L.deliveryColumns;
const F = FIELD_LABELS.webhooks;
const M = INTEGRATION_MESSAGES;
const URL_LIST = '/v5/webhooks';
const at = '2025-03-01T12:00:00.000Z';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const hook = (over: Partial<Webhook>): Webhook => ({
  id: 1,
  name: 'ERP',
  url: 'https://erp.example.com/hooks',
  events: ['device.status_changed', 'command.acknowledged'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  createdBy: 'admin@demo.local',
  createdAt: at,
  updatedAt: at,
  pending: 2,
  lastDeliveryAt: null,
  ...over,
});
const ERP = hook({});
const FAILING = hook({
  id: 2,
  name: 'Cobranza',
  url: 'https://cobranza.example.com/in',
  events: ['job.finished'],
  enabled: false,
  disabledReason: 'failing',
  disabledAt: at,
  failingSince: '2025-02-28T12:00:00.000Z',
  pending: 0,
});
const delivery = (over: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 10,
  eventId: 100,
  eventType: 'device.status_changed',
  occurredAt: at,
  status: 'delivered',
  attempts: 1,
  nextAttemptAt: null,
  lastAttemptAt: at,
  responseStatus: 200,
  durationMs: 1234,
  error: null,
  deliveredAt: at,
  payload: { type: 'device.status_changed', data: { imei: '356938035643809', status: 'Bloqueado' } },
  ...over,
});
const DELIVERED = delivery({});
const FAILED = delivery({
  id: 11,
  eventType: 'command.acknowledged',
  status: 'failed',
  attempts: 3,
  responseStatus: 503,
  durationMs: 87,
  error: 'HTTP 503',
  nextAttemptAt: '2025-03-01T12:30:00.000Z',
  deliveredAt: null,
});

let hooks: Webhook[] = [];
let deliveries: WebhookDelivery[] = [];
let calls: ApiCall[] = [];
let saveAnswer: ((call: ApiCall) => unknown) | undefined;

beforeEach(() => {
  hooks = [ERP, FAILING];
  deliveries = [DELIVERED, FAILED];
  saveAnswer = undefined;
  calls = stubRoutes({
    [`GET ${URL_LIST}`]: () => ({ data: hooks, total: hooks.length }),
    [`POST ${URL_LIST}`]: (call) => {
      if (saveAnswer) return saveAnswer(call);
      const created = hook({ id: 9, ...(call.data as object), pending: 0 });
      hooks = [...hooks, created];
      return { webhook: created, secret: SECRET };
    },
    [`PUT ${URL_LIST}/\\d+`]: (call) => {
      if (saveAnswer) return saveAnswer(call);
      const id = Number(call.url.split('/').pop());
      hooks = hooks.map((h) => (h.id === id ? { ...h, ...(call.data as object), disabledReason: null, failingSince: null } : h));
      return hooks.find((h) => h.id === id);
    },
    [`DELETE ${URL_LIST}/\\d+`]: (call) => {
      hooks = hooks.filter((h) => h.id !== Number(call.url.split('/').pop()));
      return null;
    },
    [`GET ${URL_LIST}/\\d+/deliveries`]: (call) => {
      const list = deliveries.filter((d) => !call.params.status || d.status === call.params.status);
      return { data: list, total: list.length };
    },
    [`POST ${URL_LIST}/\\d+/deliveries/\\d+/resend`]: (call) => {
      const id = Number(call.url.split('/')[5]);
      deliveries = deliveries.map((d) => (d.id === id ? { ...d, status: 'pending', nextAttemptAt: at } : d));
      return deliveries.find((d) => d.id === id);
    },
  });
});
afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

const renderPage = () =>
  renderPortal(
    <>
      <WebhooksPage title="Webhooks" path={PATHS.webhooks} />
      <PortalToastContainer />
    </>,
    { url: PATHS.webhooks, allowed: [PATHS.webhooks] },
  ).user;

const saves = () => calls.filter((c) => (c.method === 'POST' && c.url === URL_LIST) || c.method === 'PUT');

function messageOf(input: HTMLElement): string | null {
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return document.getElementById(ids[0]!)?.textContent ?? null;
}

async function openCreate(user: ReturnType<typeof renderPage>) {
  await screen.findByTestId('webhook-row-1');
  await user.click(screen.getByRole('button', { name: L.create }));
  return screen.findByRole('dialog', { name: L.createTitle });
}

async function openLog(user: ReturnType<typeof renderPage>, name = 'ERP') {
  await screen.findByTestId('webhook-row-1');
  await user.click(screen.getByRole('button', { name: L.deliveriesOf(name) }));
  const dialog = await screen.findByRole('dialog', { name: L.deliveriesTitle(name) });
  await within(dialog).findByTestId('webhook-delivery-row-10');
  return dialog;
}

test('the rows: URL, events by their Spanish names, state, the failing notice, pending and last delivery', async () => {
  renderPage();
  const erp = await screen.findByTestId('webhook-row-1');
  expect(erp.textContent).toContain('https://erp.example.com/hooks');
  expect(within(erp).getByText('Cambio de estado del dispositivo')).toBeTruthy();
  expect(within(erp).getByText('Comando confirmado')).toBeTruthy();
  expect(erp.textContent).toContain(L.states.enabled);
  expect(erp.textContent).toContain(L.noDelivery);
  expect(within(erp).queryByTestId('webhook-failing')).toBeNull();
  expect(within(erp).queryByRole('button', { name: L.reactivateOf('ERP') })).toBeNull();

  const failing = screen.getByTestId('webhook-row-2');
  expect(failing.textContent).toContain(L.states.disabled);
  expect(within(failing).getByTestId('webhook-failing').textContent).toContain(M.webhooks.disabledFailing);
  expect(within(failing).getByTestId('webhook-failing').textContent).toContain('Las entregas fallan desde');
  expect(within(failing).getByText('Acción masiva terminada')).toBeTruthy();
  expect(within(failing).getByRole('button', { name: L.reactivateOf('Cobranza') })).toBeTruthy();
});

test('empty: the message and a create button that opens the form', async () => {
  hooks = [];
  const user = renderPage();
  const empty = await screen.findByTestId('webhooks-empty');
  expect(empty.textContent).toContain(L.empty);
  await user.click(within(empty).getByRole('button', { name: L.create }));
  expect(await screen.findByRole('dialog', { name: L.createTitle })).toBeTruthy();
});

test('a list that fails to load offers a retry', async () => {
  let fail = true;
  jest.restoreAllMocks();
  stubRoutes({
    [`GET ${URL_LIST}`]: () => {
      if (fail) throw apiError(500, { message: 'Error interno' });
      return { data: hooks, total: hooks.length };
    },
  });
  const user = renderPage();
  const retry = await screen.findByRole('button', { name: DATA_TABLE_LABELS.retry });
  fail = false;
  await user.click(retry);
  expect(await screen.findByTestId('webhook-row-1')).toBeTruthy();
});

test('the form judges with the shared contract (URL, at least one event); nothing sent', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  const url = within(dialog).getByRole('textbox', { name: F.url });
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'ERP 2');
  await user.type(url, 'ftp://erp.example.com');
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(messageOf(url)).toBe(M.field.url(F.url)));
  expect(dialog.textContent).toContain(M.field.events(F.events));
  expect(saves()).toHaveLength(0);
  // One event checked: its message goes at once.
  await user.click(within(dialog).getByRole('checkbox', { name: /Comando rechazado/ }));
  await waitFor(() => expect(dialog.textContent).not.toContain(M.field.events(F.events)));
});

test('create: the body, then the signing secret once with the verification note; closed, it is gone', async () => {
  const user = renderPage();
  const dialog = await openCreate(user);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'Nuevo');
  await user.type(within(dialog).getByRole('textbox', { name: F.url }), 'https://nuevo.example.com/hook');
  await user.click(within(dialog).getByRole('checkbox', { name: L.allEvents }));
  await user.click(within(dialog).getByRole('checkbox', { name: /Comando entregado/ }));
  expect((within(dialog).getByRole('checkbox', { name: L.allEvents }) as HTMLInputElement).checked).toBe(false);
  expect((within(dialog).getByRole('switch', { name: F.enabled }) as HTMLInputElement).checked).toBe(true);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]).toMatchObject({
    method: 'POST',
    url: URL_LIST,
    data: {
      name: 'Nuevo',
      url: 'https://nuevo.example.com/hook',
      events: [
        'device.enrolled',
        'device.status_changed',
        'command.acknowledged',
        'command.rejected',
        'offline_code.redeemed',
        'job.finished',
        'payment.applied',
        'payment.reversed',
        'credit.paid_off',
        'credit.overdue',
        'collection.step',
        'reconciliation.summary',
      ],
      enabled: true,
    },
  });
  const secret = await screen.findByRole('dialog', { name: L.secretTitle });
  expect((within(secret).getByTestId('webhook-secret') as HTMLInputElement).value).toBe(SECRET);
  expect(secret.textContent).toContain(L.secretOnce);
  expect(secret.textContent).toContain('webhook-id');
  expect(secret.textContent).toContain('webhook-timestamp');
  expect(secret.textContent).toContain('webhook-signature');
  await user.click(within(secret).getByRole('button', { name: C.secretUnderstood }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(document.body.innerHTML).not.toContain(SECRET);
  expect(await screen.findByTestId('webhook-row-9')).toBeTruthy();
});

test('a URL refused by the server shows under the URL field', async () => {
  saveAnswer = () => {
    throw apiError(400, { message: M.webhooks.urlRefused, code: 'URL_REFUSED', field: 'url' });
  };
  const user = renderPage();
  const dialog = await openCreate(user);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'Local');
  const url = within(dialog).getByRole('textbox', { name: F.url });
  await user.type(url, 'https://10.0.0.5/hook');
  await user.click(within(dialog).getByRole('checkbox', { name: /Dispositivo enrolado/ }));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(messageOf(url)).toBe(M.webhooks.urlRefused));
  expect(document.activeElement).toBe(url);
});

test('edit: the form holds the subscription and PUTs the change', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('webhook-row-1');
  await user.click(within(row).getByRole('button', { name: L.editOf('ERP') }));
  const dialog = await screen.findByRole('dialog', { name: L.editTitle });
  expect((within(dialog).getByRole('checkbox', { name: /Comando confirmado/ }) as HTMLInputElement).checked).toBe(true);
  expect((within(dialog).getByRole('checkbox', { name: /Dispositivo enrolado/ }) as HTMLInputElement).checked).toBe(false);
  await user.click(within(dialog).getByRole('switch', { name: F.enabled }));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]).toMatchObject({
    method: 'PUT',
    url: `${URL_LIST}/1`,
    data: { name: 'ERP', url: 'https://erp.example.com/hooks', events: ['device.status_changed', 'command.acknowledged'], enabled: false },
  });
  expect(await screen.findByText(L.updatedDone('ERP'))).toBeTruthy();
});

test('Reactivar a subscription the server disabled: PUT with enabled true, the notice goes', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('webhook-row-2');
  await user.click(within(row).getByRole('button', { name: L.reactivateOf('Cobranza') }));
  await waitFor(() => expect(saves()).toHaveLength(1));
  expect(saves()[0]).toMatchObject({
    method: 'PUT',
    url: `${URL_LIST}/2`,
    data: { name: 'Cobranza', url: 'https://cobranza.example.com/in', events: ['job.finished'], enabled: true },
  });
  expect(await screen.findByText(L.reactivatedDone('Cobranza'))).toBeTruthy();
  await waitFor(() => expect(within(screen.getByTestId('webhook-row-2')).queryByTestId('webhook-failing')).toBeNull());
});

test('delete asks for confirmation naming the subscription; Eliminar sends DELETE', async () => {
  const user = renderPage();
  const row = await screen.findByTestId('webhook-row-1');
  await user.click(within(row).getByRole('button', { name: L.deleteOf('ERP') }));
  const dialog = await screen.findByRole('dialog', { name: L.deleteTitle });
  expect(dialog.textContent).toContain(L.confirmDelete('ERP', 'https://erp.example.com/hooks'));
  await user.click(within(dialog).getByRole('button', { name: L.delete }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1));
  expect(calls.find((c) => c.method === 'DELETE')!.url).toBe(`${URL_LIST}/1`);
  await waitFor(() => expect(screen.queryByTestId('webhook-row-1')).toBeNull());
});

test('the delivery log: its columns, a status filter, the payload, and Reenviar with a toast and a refresh', async () => {
  const user = renderPage();
  const dialog = await openLog(user);
  const delivered = within(dialog).getByTestId('webhook-delivery-row-10');
  expect(delivered.textContent).toContain('Cambio de estado del dispositivo');
  expect(within(delivered).getByText('Entregado')).toBeTruthy();
  expect(delivered.textContent).toContain('1,234');
  const failed = within(dialog).getByTestId('webhook-delivery-row-11');
  expect(within(failed).getByText('Fallido')).toBeTruthy();
  expect(failed.textContent).toContain('503');
  expect(failed.textContent).toContain('HTTP 503');
  const headers = within(dialog)
    .getAllByRole('columnheader')
    .map((h) => h.textContent);
  expect(headers).toEqual(
    expect.arrayContaining([D.event, D.occurredAt, D.status, D.attempts, D.responseStatus, D.duration, D.error, D.nextAttempt]),
  );

  // Filter by status: the API is asked for that status only.
  await user.selectOptions(within(dialog).getByRole('combobox', { name: L.statusFilter }), 'Fallido');
  await waitFor(() => expect(within(dialog).queryByTestId('webhook-delivery-row-10')).toBeNull());
  expect(calls.filter((c) => c.url === `${URL_LIST}/1/deliveries`).at(-1)!.params).toEqual({ page: 1, perPage: 10, status: 'failed' });

  // The payload, from the keyboard.
  const view = within(dialog).getByRole('button', { name: /^Ver el contenido de la entrega Comando confirmado/ });
  view.focus();
  await user.keyboard('{Enter}');
  const payload = await within(dialog).findByTestId('webhook-payload');
  expect(payload.querySelector('pre')!.textContent).toBe(JSON.stringify(FAILED.payload, null, 2));
  expect(document.activeElement!.tagName).toBe('H3');

  // Reenviar: the POST, a toast and the refreshed row.
  await user.click(within(dialog).getByRole('button', { name: /^Reenviar la entrega Comando confirmado/ }));
  await waitFor(() => expect(calls.filter((c) => c.url.endsWith('/resend'))).toHaveLength(1));
  expect(calls.find((c) => c.url.endsWith('/resend'))).toMatchObject({ method: 'POST', url: `${URL_LIST}/1/deliveries/11/resend` });
  expect(await screen.findByText(L.resentDone)).toBeTruthy();
  // Now pending, it left the 'Fallido' filter.
  await waitFor(() => expect(within(dialog).queryByTestId('webhook-delivery-row-11')).toBeNull());
  expect(within(dialog).getByTestId('webhook-deliveries-empty').textContent).toBe(L.deliveriesEmptyFiltered);
});

test('the log of a disabled subscription shows the failing notice', async () => {
  const user = renderPage();
  await screen.findByTestId('webhook-row-2');
  await user.click(screen.getByRole('button', { name: L.deliveriesOf('Cobranza') }));
  const dialog = await screen.findByRole('dialog', { name: L.deliveriesTitle('Cobranza') });
  expect(within(dialog).getByTestId('webhook-failing').textContent).toContain(L.disabledFailing);
});

test('axe: no serious violations on the page, the form with its messages, the secret and the delivery log', async () => {
  const user = renderPage();
  await screen.findByTestId('webhook-row-2');
  expect(await seriousViolations()).toEqual([]);
  const dialog = await openCreate(user);
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(within(dialog).getByRole('textbox', { name: F.name }).getAttribute('aria-invalid')).toBe('true'));
  expect(await seriousViolations()).toEqual([]);
  await user.type(within(dialog).getByRole('textbox', { name: F.name }), 'Nuevo');
  await user.type(within(dialog).getByRole('textbox', { name: F.url }), 'https://nuevo.example.com/hook');
  await user.click(within(dialog).getByRole('checkbox', { name: L.allEvents }));
  await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
  const secret = await screen.findByRole('dialog', { name: L.secretTitle });
  expect(await seriousViolations()).toEqual([]);
  await user.click(within(secret).getByRole('button', { name: C.secretUnderstood }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  const log = await openLog(user);
  await user.click(within(log).getAllByRole('button', { name: /^Ver el contenido/ })[0]!);
  await within(log).findByTestId('webhook-payload');
  expect(await seriousViolations()).toEqual([]);
});
