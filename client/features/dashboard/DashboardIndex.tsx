import { Navigate } from 'react-router-dom';
import { PATHS } from '../../../shared/constants/routes';
import { MESSAGES } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';

/**
 * /dashboard: the general dashboard when the profile grants it, else the Android one; a profile
 * granting neither sees what the module's page shows without entries (its title and that the
 * section is not available).
 */
export default function DashboardIndex({ title }: PageProps) {
  const { allowed } = useCurrentUser();
  if (allowed.has(PATHS.dashboardGeneral)) return <Navigate to={PATHS.dashboardGeneral} replace />;
  if (allowed.has(PATHS.dashboardAndroid)) return <Navigate to={PATHS.dashboardAndroid} replace />;
  return (
    <section>
      <h1 className="h3 mb-4">{title}</h1>
      <p className="text-secondary-emphasis">{MESSAGES.sectionPending}</p>
    </section>
  );
}
