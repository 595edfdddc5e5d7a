/** @jest-environment jsdom */
import '../testing/textEncoderPolyfill';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { UNSAVED_CHANGES_LABELS as L } from '../../shared/constants/labels';
import { useUnsavedChangesGuard } from './useUnsavedChangesGuard';
import { APP_MODAL } from './AppModal';

// The dialog's own chunk, loaded as a page's idle prefetch loads it.
beforeAll(() => APP_MODAL.load());

let where = '';
function LocationProbe() {
  const location = useLocation();
  where = `${location.pathname}${location.search}`;
  return null;
}

const proceeded = jest.fn();

function Editor() {
  const [dirty, setDirty] = useState(false);
  const { dialog, confirmLeave } = useUnsavedChangesGuard(dirty);
  return (
    <>
      <label>
        <input type="checkbox" checked={dirty} onChange={(e) => setDirty(e.target.checked)} />
        Sucio
      </label>
      <Link to="/otra?x=1">Otra página</Link>
      <Link to="/editor#abajo">Más abajo</Link>
      <a
        href="https://example.com/fuera"
        onClick={(e) => {
          // jsdom cannot open another origin: what matters is that the guard let the click through.
          e.preventDefault();
          proceeded('external');
        }}
      >
        Sitio externo
      </a>
      <button type="button" onClick={() => confirmLeave(() => proceeded('scope'))}>
        Cambiar ámbito
      </button>
      {dialog}
    </>
  );
}

function renderEditor() {
  render(
    <MemoryRouter initialEntries={['/editor']}>
      <Routes>
        <Route path="/editor" element={<Editor />} />
        <Route path="/otra" element={<p>Otra</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
  return userEvent.setup();
}

const beforeUnload = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

beforeEach(() => proceeded.mockReset());

test('without changes nothing is held: links navigate, the scope changes, the tab closes freely', async () => {
  const user = renderEditor();
  expect(beforeUnload()).toBe(false);
  await user.click(screen.getByRole('button', { name: 'Cambiar ámbito' }));
  expect(proceeded).toHaveBeenCalledWith('scope');
  await user.click(screen.getByRole('link', { name: 'Otra página' }));
  expect(where).toBe('/otra?x=1');
  expect(screen.queryByRole('dialog')).toBeNull();
});

test('with changes a link click is held until the user confirms; "Seguir editando" stays', async () => {
  const user = renderEditor();
  await user.click(screen.getByRole('checkbox', { name: 'Sucio' }));
  await user.click(screen.getByRole('link', { name: 'Otra página' }));
  let dialog = await screen.findByRole('dialog', { name: L.title });
  expect(dialog.textContent).toContain(L.question);
  expect(where).toBe('/editor');
  await user.click(within(dialog).getByRole('button', { name: L.stay }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(where).toBe('/editor');
  expect((screen.getByRole('checkbox', { name: 'Sucio' }) as HTMLInputElement).checked).toBe(true);

  await user.click(screen.getByRole('link', { name: 'Otra página' }));
  dialog = await screen.findByRole('dialog', { name: L.title });
  await user.click(within(dialog).getByRole('button', { name: L.leave }));
  await waitFor(() => expect(where).toBe('/otra?x=1'));
});

test('with changes: reload or close asks (beforeunload), another origin and an anchor of the same page pass, the scope change waits', async () => {
  const user = renderEditor();
  await user.click(screen.getByRole('checkbox', { name: 'Sucio' }));
  expect(beforeUnload()).toBe(true);

  await user.click(screen.getByRole('link', { name: 'Sitio externo' }));
  expect(proceeded).toHaveBeenCalledWith('external');
  await user.click(screen.getByRole('link', { name: 'Más abajo' }));
  expect(screen.queryByRole('dialog')).toBeNull();

  await user.click(screen.getByRole('button', { name: 'Cambiar ámbito' }));
  expect(proceeded).not.toHaveBeenCalledWith('scope');
  await user.click(within(await screen.findByRole('dialog', { name: L.title })).getByRole('button', { name: L.leave }));
  expect(proceeded).toHaveBeenCalledWith('scope');

  // Saved (clean again): nothing is held any more.
  await user.click(screen.getByRole('checkbox', { name: 'Sucio' }));
  expect(beforeUnload()).toBe(false);
});
