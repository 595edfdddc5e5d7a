/** @jest-environment jsdom */
import './textEncoderPolyfill';
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router-dom';
import { usePortalConfig } from '../app/PortalConfigContext';
import { useAuthClient } from '../auth/AuthContext';
import { useCurrentUser } from '../auth/CurrentUserContext';
import { API_BASE, TEST_CONFIG, renderPortal } from './renderPortal';

function Probe() {
  const config = usePortalConfig();
  const auth = useAuthClient();
  const { allowed } = useCurrentUser();
  const location = useLocation();
  return (
    <p>{[config.apiBase, auth === null ? 'sin-sesion' : 'sesion', [...allowed].join('|'), `${location.pathname}${location.search}`].join(' ')}</p>
  );
}

describe('renderPortal', () => {
  test("wraps the page in the app's own Providers (public settings, no session client), the router and the user", () => {
    const { store } = renderPortal(<Probe />, { url: '/inventory-management/devices?page=2', allowed: ['/inventory-management/devices'] });
    expect(TEST_CONFIG.apiBase).toBe(API_BASE);
    expect(screen.getByText(`${API_BASE} sin-sesion /inventory-management/devices /inventory-management/devices?page=2`)).toBeTruthy();
    expect(store.getState().session).toBeDefined();
  });
});
