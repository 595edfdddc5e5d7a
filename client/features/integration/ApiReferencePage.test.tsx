/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen, within } from '@testing-library/react';
import { API_REFERENCE_LABELS as L, API_REFERENCE_NOTES, OPENAPI_DOCUMENT_PATH } from '../../../shared/constants/apiReferenceLabels';
import { LOCK_TYPES } from '../../../shared/constants/domain';
import { WEBHOOK_EVENTS } from '../../../shared/constants/integration';
import { INTEGRATION_ROUTES } from '../../../shared/contracts/integration';
import { openApiDocument } from '../../../shared/contracts/openapi';
import { renderPortal } from '../../testing/renderPortal';
import ApiReferencePage from './ApiReferencePage';

const PATH = '/admin-settings/api-reference';
const DOC = openApiDocument();

/** fetch answering each call in turn: a document, an HTTP error, or a network failure. */
function stubFetch(...answers: ({ status: number; body: unknown } | 'network')[]): jest.Mock {
  const mock = jest.fn(async () => {
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === 'network') throw new TypeError('Failed to fetch');
    return { ok: answer.status < 300, status: answer.status, json: async () => answer.body } as Response;
  });
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
}

afterEach(() => {
  jest.restoreAllMocks();
  delete (globalThis as { fetch?: unknown }).fetch;
});

const renderPage = () => renderPortal(<ApiReferencePage title="Referencia de la API" path={PATH} />, { url: PATH, allowed: [PATH] }).user;

test('fetches the public document without the session, shows the base URL, the notes, every operation and the download link', async () => {
  const fetchMock = stubFetch({ status: 200, body: DOC });
  renderPage();
  expect(screen.getByRole('status').textContent).toBeTruthy();
  expect((await screen.findByTestId('api-base-url')).textContent).toContain(`${window.location.origin}/api/integration/v1`);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(fetchMock.mock.calls[0]![0]).toBe(OPENAPI_DOCUMENT_PATH);
  expect(JSON.stringify(fetchMock.mock.calls[0]![1])).not.toMatch(/Authorization/i);

  for (const note of API_REFERENCE_NOTES) expect(screen.getByRole('heading', { name: note.title })).toBeTruthy();
  const operations = screen.getAllByTestId('api-operation');
  expect(operations.map((o) => o.dataset.operation).sort()).toEqual(INTEGRATION_ROUTES.map((r) => r.operationId).sort());
  for (const route of INTEGRATION_ROUTES) {
    const card = operations.find((o) => o.dataset.operation === route.operationId)!;
    expect(within(card).getByRole('heading', { name: route.summary })).toBeTruthy();
    expect(within(card).getByText(route.path)).toBeTruthy();
    expect(within(card).getByText(route.method.toUpperCase())).toBeTruthy();
    expect(within(card).getByText(route.requires)).toBeTruthy();
    expect(
      within(card)
        .getAllByTestId('response')
        .map((r) => r.dataset.status),
    ).toContain(String(route.success.status));
  }
  const download = screen.getByRole('link', { name: L.download });
  expect(download.getAttribute('href')).toBe(OPENAPI_DOCUMENT_PATH);
  expect(download.getAttribute('download')).toBe('openapi.json');
});

test('the contents link to every operation and webhook event on the page', async () => {
  stubFetch({ status: 200, body: DOC });
  renderPage();
  const nav = await screen.findByRole('navigation', { name: L.contents });
  const command = within(nav).getByRole('link', { name: /Actuar sobre un dispositivo/ });
  const target = document.querySelector(command.getAttribute('href')!);
  expect(target?.getAttribute('data-operation')).toBe('createCommand');
  for (const link of within(nav).getAllByRole('link')) expect(document.querySelector(link.getAttribute('href')!)).not.toBeNull();
});

test('createCommand: the request body opens with the keyboard as a field tree with types, obligatory fields and the lock types', async () => {
  stubFetch({ status: 200, body: DOC });
  const user = renderPage();
  const card = (await screen.findAllByTestId('api-operation')).find((o) => o.dataset.operation === 'createCommand')!;
  expect(within(card).getAllByText('Idempotency-Key', { selector: 'code' }).length).toBeGreaterThan(0);
  const toggle = within(card).getByRole('button', { name: L.showRequestBody });
  expect(toggle.getAttribute('aria-expanded')).toBe('false');
  expect(within(card).queryByTestId('request-body')).toBeNull();
  toggle.focus();
  await user.keyboard('{Enter}');
  expect(toggle.getAttribute('aria-expanded')).toBe('true');
  expect(toggle.textContent).toContain(L.hideRequestBody);
  const body = within(card).getByTestId('request-body');
  const device = within(body)
    .getAllByTestId('schema-field')
    .find((f) => f.dataset.field === 'device')!;
  expect(within(device).getByText(L.required)).toBeTruthy();
  expect(within(device).getByText(L.exactlyOne(['imei', 'creditReference']))).toBeTruthy();
  expect(within(device).getByText('^\\d{15}$')).toBeTruthy();
  const variants = within(body).getAllByTestId('schema-variant');
  const lock = variants.find((v) => v.textContent!.includes('0 — Bloquear'))!;
  for (const t of LOCK_TYPES) expect(within(lock).getByText(JSON.stringify(t.key))).toBeTruthy();
  expect(variants.some((v) => v.textContent!.includes('1 — Desbloquear'))).toBe(true);
  await user.click(toggle);
  expect(within(card).queryByTestId('request-body')).toBeNull();
});

test('the parameters table: the lookup by IMEI or credit reference, the paging with bounds and default', async () => {
  stubFetch({ status: 200, body: DOC });
  renderPage();
  const operations = await screen.findAllByTestId('api-operation');
  const find = operations.find((o) => o.dataset.operation === 'findDevices')!;
  expect(
    within(find)
      .getAllByTestId('parameter-row')
      .map((r) => r.dataset.name),
  ).toEqual(['imei', 'creditReference']);
  const results = operations.find((o) => o.dataset.operation === 'getJobResults')!;
  const perPage = within(results)
    .getAllByTestId('parameter-row')
    .find((r) => r.dataset.name === 'perPage')!;
  expect(perPage.textContent).toContain(L.range(1, 100));
  expect(perPage.textContent).toContain(`${L.defaultValue}: 100`);
  expect(perPage.textContent).toContain(L.types.integer!);
});

test('every webhook event with its payload fields, the signature headers and how to verify them', async () => {
  stubFetch({ status: 200, body: DOC });
  renderPage();
  const events = await screen.findAllByTestId('api-webhook');
  expect(events.map((e) => e.dataset.event)).toEqual(WEBHOOK_EVENTS.map((e) => e.type));
  for (const event of WEBHOOK_EVENTS) {
    const card = events.find((e) => e.dataset.event === event.type)!;
    expect(within(card).getByRole('heading', { name: event.label })).toBeTruthy();
    const fields = within(card)
      .getAllByTestId('schema-field')
      .map((f) => f.dataset.field);
    expect(fields).toEqual(expect.arrayContaining(['type', 'timestamp', 'data']));
  }
  const status = events.find((e) => e.dataset.event === 'device.status_changed')!;
  expect(
    within(status)
      .getAllByTestId('schema-field')
      .map((f) => f.dataset.field),
  ).toEqual(expect.arrayContaining(['previousStatus', 'status', 'deleted', 'creditReference']));
  for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    expect(screen.getAllByTestId('parameter-row').some((r) => r.dataset.name === header)).toBe(true);
  }
  expect(screen.getByRole('heading', { name: L.verifyTitle })).toBeTruthy();
  expect(screen.getByTestId('verify-snippet').textContent).toContain("import { Webhook } from 'standardwebhooks'");
});

test('an answer that is not the document, then a network failure: the error and Reintentar, which loads it', async () => {
  const fetchMock = stubFetch({ status: 500, body: { code: 'INTERNAL', message: 'x' } }, 'network', { status: 200, body: DOC });
  const user = renderPage();
  expect(await screen.findByText(L.loadError)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Reintentar' }));
  expect(await screen.findByText(L.loadError)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Reintentar' }));
  expect(await screen.findByTestId('api-base-url')).toBeTruthy();
  expect(fetchMock).toHaveBeenCalledTimes(3);
});
