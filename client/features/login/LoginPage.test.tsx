/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages';
import { Providers } from '../../app/Providers';
import { createStore } from '../../app/store';
import type { AuthLoader } from '../../auth/AuthContext';
import type { AuthClient, SessionTokens, SignInResult } from '../../auth/authClient';
import { TEST_CONFIG } from '../../testing/renderPortal';
import LoginPage from './LoginPage';

const TOKENS: SessionTokens = { username: 'ana@demo.local', email: 'ana@demo.local', accessToken: 'a', idToken: 'i', refreshToken: 'r' };
const authError = (code: string, message = code) => Object.assign(new Error(message), { code });

function setup(client: Partial<AuthClient>) {
  const auth: AuthLoader = () => Promise.resolve(client as AuthClient);
  const store = createStore(undefined, { apiBase: TEST_CONFIG.apiBase, getAuthHeaders: async () => ({}), onUnauthorized: () => undefined });
  render(
    <Providers store={store} config={TEST_CONFIG} auth={auth}>
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage title="" path="/login" />} />
          <Route path="/" element={<p>Portal</p>} />
        </Routes>
      </MemoryRouter>
    </Providers>,
  );
  return { user: userEvent.setup(), store };
}

const field = (label: string) => screen.getByLabelText(label, { selector: 'input' }) as HTMLInputElement;
/** The message under a field (its aria-describedby), or null. */
const errorOf = (label: string) => {
  const input = field(label);
  return input.getAttribute('aria-invalid') === 'true' ? document.getElementById(input.getAttribute('aria-describedby')!)?.textContent : null;
};
const heading = () => screen.getByRole('heading', { level: 2 }).textContent;
const button = (name: string) => screen.getByRole('button', { name });

test('sign-in: the fields keep their ids, types and autocomplete; each empty one says so under it', async () => {
  const signIn = jest.fn<Promise<SignInResult>, [string, string]>();
  const { user } = setup({ signIn });
  expect(heading()).toBe(MESSAGES.loginTitle);
  const email = field(MESSAGES.loginEmail);
  const password = field(MESSAGES.loginPassword);
  expect([email.id, email.type, email.autocomplete]).toEqual(['login-email', 'email', 'username']);
  expect([password.id, password.type, password.autocomplete]).toEqual(['login-password', 'password', 'current-password']);
  expect(email.closest('form')?.getAttribute('method')).toBe('post');

  await user.click(button(MESSAGES.loginSubmit));
  await waitFor(() => expect(errorOf(MESSAGES.loginEmail)).toBe(MESSAGES.required(MESSAGES.loginEmail)));
  expect(errorOf(MESSAGES.loginPassword)).toBe(MESSAGES.required(MESSAGES.loginPassword));
  expect(document.activeElement).toBe(email);
  expect(signIn).not.toHaveBeenCalled();

  // After the first attempt each field is judged as it changes.
  await user.type(email, 'ana@demo.local');
  await waitFor(() => expect(errorOf(MESSAGES.loginEmail)).toBeNull());
  expect(errorOf(MESSAGES.loginPassword)).toBe(MESSAGES.required(MESSAGES.loginPassword));
});

test("sign-in: the identity service's refusal is the page's alert; a success enters the portal", async () => {
  const signIn = jest
    .fn<Promise<SignInResult>, [string, string]>()
    .mockRejectedValueOnce(authError('NotAuthorizedException', 'Incorrect username or password.'))
    .mockResolvedValueOnce({ status: 'signedIn', tokens: TOKENS });
  const { user, store } = setup({ signIn });
  await user.type(field(MESSAGES.loginEmail), 'ana@demo.local');
  await user.type(field(MESSAGES.loginPassword), 'Mala-Clave-1!');
  await user.click(button(MESSAGES.loginSubmit));
  expect((await screen.findByRole('alert')).textContent).toBe(MESSAGES.auth.wrongCredentials);
  expect(signIn).toHaveBeenCalledWith('ana@demo.local', 'Mala-Clave-1!');

  await user.click(button(MESSAGES.loginSubmit));
  expect(await screen.findByText('Portal')).toBeTruthy();
  expect(store.getState().session).toMatchObject({ email: TOKENS.email });
});

test('new password: required fields, typed twice alike (judged as soon as the confirmation is typed), then signed in', async () => {
  const complete = jest.fn<Promise<SessionTokens>, [string]>().mockResolvedValue(TOKENS);
  const signIn = jest.fn<Promise<SignInResult>, [string, string]>().mockResolvedValue({ status: 'newPasswordRequired', complete });
  const { user } = setup({ signIn });
  await user.type(field(MESSAGES.loginEmail), 'nueva@demo.local');
  await user.type(field(MESSAGES.loginPassword), 'Temporal-1!');
  await user.click(button(MESSAGES.loginSubmit));
  await waitFor(() => expect(heading()).toBe(MESSAGES.newPasswordTitle));
  const proposed = field(MESSAGES.newPassword);
  const confirm = field(MESSAGES.confirmPassword);
  expect([proposed.id, proposed.autocomplete, confirm.id, confirm.autocomplete]).toEqual([
    'new-password',
    'new-password',
    'new-password-confirm',
    'new-password',
  ]);
  expect(proposed.getAttribute('aria-describedby')).toBe('password-rules');
  expect(document.getElementById('password-rules')?.textContent).toBe(MESSAGES.passwordRules);

  await user.click(button(MESSAGES.forgotConfirm));
  await waitFor(() => expect(errorOf(MESSAGES.newPassword)).toBe(MESSAGES.required(MESSAGES.newPassword)));
  expect(errorOf(MESSAGES.confirmPassword)).toBe(MESSAGES.required(MESSAGES.confirmPassword));

  await user.type(confirm, 'Elegida-2!');
  await waitFor(() => expect(errorOf(MESSAGES.confirmPassword)).toBe(MESSAGES.passwordsDiffer));
  expect(errorOf(MESSAGES.newPassword)).toBe(MESSAGES.required(MESSAGES.newPassword));

  await user.type(proposed, 'Elegida-1!');
  await user.click(button(MESSAGES.forgotConfirm));
  await waitFor(() => expect(errorOf(MESSAGES.confirmPassword)).toBe(MESSAGES.passwordsDiffer));
  expect(errorOf(MESSAGES.newPassword)).toBeNull();
  expect(complete).not.toHaveBeenCalled();

  await user.clear(confirm);
  await user.type(confirm, 'Elegida-1!');
  await user.click(button(MESSAGES.forgotConfirm));
  expect(await screen.findByText('Portal')).toBeTruthy();
  expect(complete).toHaveBeenCalledWith('Elegida-1!');
});

test('forgotten password: the address, then the code and the new password; back on the sign-in, what was typed there is kept', async () => {
  const forgotPassword = jest.fn<Promise<void>, [string]>().mockResolvedValue(undefined);
  const confirmForgotPassword = jest
    .fn<Promise<void>, [string, string, string]>()
    .mockRejectedValueOnce(authError('CodeMismatchException'))
    .mockResolvedValueOnce(undefined);
  const { user } = setup({ forgotPassword, confirmForgotPassword });
  await user.type(field(MESSAGES.loginEmail), 'olvido@demo.local');
  await user.click(button(MESSAGES.forgotLink));
  expect(heading()).toBe(MESSAGES.forgotTitle);
  await user.click(button(MESSAGES.backToLogin));
  expect(field(MESSAGES.loginEmail).value).toBe('olvido@demo.local');

  await user.click(button(MESSAGES.forgotLink));
  const email = field(MESSAGES.loginEmail);
  expect([email.id, email.value, email.autocomplete]).toEqual(['forgot-email', '', 'username']);
  await user.click(button(MESSAGES.forgotSend));
  await waitFor(() => expect(errorOf(MESSAGES.loginEmail)).toBe(MESSAGES.required(MESSAGES.loginEmail)));
  await user.type(email, 'olvido@demo.local');
  await user.click(button(MESSAGES.forgotSend));
  expect(await screen.findByText(MESSAGES.forgotCodeSent)).toBeTruthy();
  expect(forgotPassword).toHaveBeenCalledWith('olvido@demo.local');

  const code = field(MESSAGES.forgotCode);
  const password = field(MESSAGES.newPassword);
  expect([code.id, code.inputMode, code.autocomplete, password.id, password.autocomplete]).toEqual([
    'forgot-code',
    'numeric',
    'one-time-code',
    'forgot-password',
    'new-password',
  ]);
  await user.click(button(MESSAGES.forgotConfirm));
  await waitFor(() => expect(errorOf(MESSAGES.forgotCode)).toBe(MESSAGES.required(MESSAGES.forgotCode)));
  expect(errorOf(MESSAGES.newPassword)).toBe(MESSAGES.required(MESSAGES.newPassword));

  await user.type(code, '123456');
  await user.type(password, 'Recuperada-1!');
  await user.click(button(MESSAGES.forgotConfirm));
  expect((await screen.findByText(MESSAGES.auth.codeMismatch)).classList.contains('alert-danger')).toBe(true);
  await user.click(button(MESSAGES.forgotConfirm));
  expect(await screen.findByText(MESSAGES.forgotDone)).toBeTruthy();
  expect(confirmForgotPassword).toHaveBeenLastCalledWith('olvido@demo.local', '123456', 'Recuperada-1!');
  expect(heading()).toBe(MESSAGES.loginTitle);
  expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([MESSAGES.forgotDone]);
});
