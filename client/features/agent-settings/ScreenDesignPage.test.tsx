/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify/unstyled';
import { defaultsOf, fieldsOf, LOGO_MAX_BYTES, settingField, type SettingsValues } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { SettingsSectionAnswer } from '../../../shared/contracts/agentSettings';
import { AGENT_SETTINGS_MESSAGES as M } from '../../../shared/areaMessages/agentSettings';
import { PortalToastContainer } from '../../components/PortalToastContainer';
import { loadDialogs, renderPortal, seriousViolations, stubRoutes } from '../../testing/renderPortal';
import { contrastRatio, textOn } from './LockScreenPreview';
import ScreenDesignPage from './ScreenDesignPage';

beforeAll(loadDialogs);

const S = AGENT_SETTINGS_LABELS.screen;
const label = (key: string) => settingField(key)!.label;
const HASH = 'ab'.repeat(32);
const URL_BASE = '/v5/agent-settings/smartphone/screen-design';

function screenAnswer(values: SettingsValues = {}, version = 2): SettingsSectionAnswer {
  const keys = fieldsOf(1, 'screen').map((f) => f.key);
  const all = { ...defaultsOf(1), ...values };
  const picked = Object.fromEntries(keys.map((k) => [k, all[k]!]));
  return {
    deviceType: 1,
    section: 'screen',
    groupId: null,
    version,
    updatedAt: null,
    updatedBy: null,
    values: picked,
    globalValues: picked,
    overridden: [],
    overrides: [],
    history: [],
  };
}

function renderPage() {
  renderPortal(
    <>
      <ScreenDesignPage title="Diseño de pantalla" path={PATHS.screenDesign} />
      <PortalToastContainer />
    </>,
    { url: PATHS.screenDesign, allowed: [PATHS.screenDesign] },
  );
  // Files of any type reach the page (the browser's picker filters by `accept`, a drop does not).
  return userEvent.setup({ applyAccept: false });
}

const GROUPS = { 'GET /v5/groups': () => ({ data: [], total: 0 }) };

afterEach(() => {
  act(() => toast.dismiss());
  jest.restoreAllMocks();
});

test('the preview follows what is typed: title, message, contact, colours; the message counts to 350', async () => {
  stubRoutes({ ...GROUPS, [`GET ${URL_BASE}`]: () => screenAnswer() });
  const user = renderPage();
  const preview = await screen.findByRole('figure', { name: S.preview });
  expect(within(preview).getByTestId('preview-title').textContent).toBe('Equipo bloqueado');
  expect(within(preview).queryByTestId('preview-contact')).toBeNull();

  const title = screen.getByRole('textbox', { name: label('screen_title') });
  await user.clear(title);
  await user.type(title, 'Pago pendiente');
  expect(within(preview).getByTestId('preview-title').textContent).toBe('Pago pendiente');

  const message = screen.getByRole('textbox', { name: label('screen_message') });
  await user.clear(message);
  await user.type(message, 'Llame al banco');
  expect(within(preview).getByTestId('preview-message').textContent).toBe('Llame al banco');
  expect(within(screen.getByTestId('setting-screen_message')).getByText('14/350')).toBeTruthy();

  await user.type(screen.getByRole('textbox', { name: label('contact_phone') }), '+52 55 1234 5678');
  await user.type(screen.getByRole('textbox', { name: label('contact_email') }), 'cobranza@banco.mx');
  expect(within(preview).getByTestId('preview-contact').textContent).toContain('+52 55 1234 5678');
  expect(within(preview).getByTestId('preview-contact').textContent).toContain('cobranza@banco.mx');

  const background = screen.getByRole('textbox', { name: AGENT_SETTINGS_LABELS.form.colorHex(label('background_color')) });
  await user.clear(background);
  await user.type(background, '#102030');
  const screenEl = within(preview).getByTestId('lock-preview-screen');
  expect(screenEl.style.backgroundColor).toBe('rgb(16, 32, 48)');
  // Light text over a dark background.
  expect(screenEl.style.color).toBe('rgb(255, 255, 255)');
  // The picker shows the same colour.
  expect((screen.getByLabelText(AGENT_SETTINGS_LABELS.form.colorPicker(label('background_color'))) as HTMLInputElement).value).toBe('#102030');
  // The default primary colour reads poorly on it: the page says so.
  expect(within(preview).getByTestId('preview-low-contrast')).toBeTruthy();
});

test('a bad colour is refused with the contract message', async () => {
  const calls = stubRoutes({ ...GROUPS, [`GET ${URL_BASE}`]: () => screenAnswer() });
  const user = renderPage();
  const primary = await screen.findByRole('textbox', { name: AGENT_SETTINGS_LABELS.form.colorHex(label('primary_color')) });
  await user.clear(primary);
  await user.type(primary, 'azul');
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(primary.getAttribute('aria-invalid')).toBe('true'));
  expect(screen.getByTestId('setting-primary_color').textContent).toContain(M.field.color(label('primary_color')));
  expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
});

test('the logo: too large or not an image is refused before uploading; a PNG uploads, shows, saves, and can be removed', async () => {
  let saved = screenAnswer();
  const calls = stubRoutes({
    ...GROUPS,
    [`GET ${URL_BASE}`]: () => saved,
    [`POST ${URL_BASE}/logo`]: () => ({ logo: HASH, url: `/agent/v1/logos/${HASH}` }),
    [`PUT ${URL_BASE}`]: (c) => (saved = screenAnswer((c.data as { values: SettingsValues }).values, 3)),
  });
  const user = renderPage();
  const input = await screen.findByLabelText(`${label('logo')}: ${S.logoUpload}`);
  const field = screen.getByTestId('setting-logo');

  await user.upload(input, new File([new Uint8Array(LOGO_MAX_BYTES + 1)], 'grande.png', { type: 'image/png' }));
  expect(await within(field).findByText(M.logo.tooLarge(512))).toBeTruthy();
  await user.upload(screen.getByLabelText(`${label('logo')}: ${S.logoUpload}`), new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
  expect(await within(field).findByText(M.logo.svg)).toBeTruthy();
  // Any other file is not a PNG or a JPEG: nothing said about SVG.
  await user.upload(screen.getByLabelText(`${label('logo')}: ${S.logoUpload}`), new File(['hola'], 'notas.txt', { type: 'text/plain' }));
  expect(await within(field).findByText(M.logo.badType)).toBeTruthy();
  expect(M.logo.badType).not.toMatch(/svg/i);
  expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

  const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'logo.png', { type: 'image/png' });
  await user.upload(screen.getByLabelText(`${label('logo')}: ${S.logoUpload}`), png);
  expect(await within(field).findByText(S.logoUploaded)).toBeTruthy();
  const post = calls.find((c) => c.method === 'POST')!;
  expect(post.data).toBe(png);
  expect(post.headers['Content-Type']).toBe('image/png');
  expect(within(field).queryByText(M.logo.badType)).toBeNull();
  expect(within(field).getByRole('img', { name: S.logoCurrent }).getAttribute('src')).toBe(`/agent/v1/logos/${HASH}`);
  const preview = screen.getByRole('figure', { name: S.preview });
  expect(within(preview).getByRole('img', { name: S.previewLogo }).getAttribute('src')).toBe(`/agent/v1/logos/${HASH}`);

  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
  expect((calls.find((c) => c.method === 'PUT')!.data as { values: SettingsValues }).values.logo).toBe(HASH);

  // The saved answer is the form's now.
  await waitFor(() => expect(screen.getByRole('button', { name: 'Cancelar' }).hasAttribute('disabled')).toBe(true));
  await user.click(await screen.findByRole('button', { name: S.logoRemove }));
  expect(within(screen.getByRole('figure', { name: S.preview })).queryByRole('img')).toBeNull();
  expect(within(screen.getByTestId('setting-logo')).getByText(S.logoNone)).toBeTruthy();
  await user.click(screen.getByRole('button', { name: 'Guardar' }));
  await waitFor(() => expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
  expect((calls.filter((c) => c.method === 'PUT')[1]!.data as { values: SettingsValues }).values.logo).toBeNull();
});

test('axe: no serious violations on the screen design page with its preview', async () => {
  stubRoutes({ ...GROUPS, [`GET ${URL_BASE}`]: () => screenAnswer({ logo: HASH, contact_phone: '5512345678', contact_email: 'a@b.mx' }) });
  renderPage();
  await screen.findByRole('figure', { name: S.preview });
  expect(await seriousViolations()).toEqual([]);
});

test('contrast helpers: WCAG ratios and the readable text colour', () => {
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrastRatio('#777777', '#777777')).toBeCloseTo(1, 5);
  expect(textOn('#ffffff')).toBe('#212529');
  expect(textOn('#0b5ed7')).toBe('#ffffff');
});
