/** @jest-environment jsdom */
import '../../testing/textEncoderPolyfill';
import { screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { PATHS } from '../../../shared/constants/routes';
import { MESSAGES } from '../../../shared/messages';
import { renderPortal } from '../../testing/renderPortal';
import DashboardIndex from './DashboardIndex';

function renderAt(allowed: string[]) {
  renderPortal(
    <Routes>
      <Route path={PATHS.dashboard} element={<DashboardIndex title="Dashboard" path={PATHS.dashboard} />} />
      <Route path={PATHS.dashboardGeneral} element={<p>general</p>} />
      <Route path={PATHS.dashboardAndroid} element={<p>android</p>} />
    </Routes>,
    { url: PATHS.dashboard, allowed },
  );
}

test('/dashboard opens the general dashboard when the profile grants it', async () => {
  renderAt([PATHS.dashboard, PATHS.dashboardGeneral, PATHS.dashboardAndroid]);
  expect(await screen.findByText('general')).toBeTruthy();
});

test('else the Android dashboard', async () => {
  renderAt([PATHS.dashboard, PATHS.dashboardAndroid]);
  expect(await screen.findByText('android')).toBeTruthy();
});

test('else the module page: its title and that there is nothing to show', () => {
  renderAt([PATHS.dashboard]);
  expect(screen.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeTruthy();
  expect(screen.getByText(MESSAGES.sectionPending)).toBeTruthy();
});
