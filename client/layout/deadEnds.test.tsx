/** @jest-environment jsdom */
import '../testing/textEncoderPolyfill';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PATHS } from '../../shared/constants/routes';
import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import GooglePage from '../features/google/GooglePage';
import { NotAuthorized } from './NotAuthorized';

/** Renders `page` at `at`, with a home page to land on. */
function at(path: string, page: React.ReactNode) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path={PATHS.home} element={<h1>Inicio</h1>} />
        <Route path="*" element={page} />
      </Routes>
    </MemoryRouter>,
  );
}

test('NO AUTORIZADO keeps the spec’s text and links to the home page', async () => {
  at(PATHS.devices, <NotAuthorized />);
  expect(screen.getByRole('alert').textContent).toBe(SPEC_TEXT.notAuthorized);
  await userEvent.setup().click(screen.getByRole('link', { name: MESSAGES.backHome }));
  expect(screen.getByRole('heading', { name: 'Inicio' })).toBeTruthy();
});

test.each([
  ['with', `${PATHS.google}?enterpriseToken=abc`, MESSAGES.googleReceived],
  ['without', PATHS.google, MESSAGES.googleMissing],
])('/google %s a token keeps its text and links to the home page', async (_w, path, text) => {
  at(path, <GooglePage title="Google" path={PATHS.google} />);
  expect(screen.getByRole('heading', { name: MESSAGES.googleTitle })).toBeTruthy();
  expect(screen.getByText(text)).toBeTruthy();
  await userEvent.setup().click(screen.getByRole('link', { name: MESSAGES.backHome }));
  expect(screen.getByRole('heading', { name: 'Inicio' })).toBeTruthy();
});
