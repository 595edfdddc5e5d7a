import { useEffect, useMemo, type ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import { PATHS, type RoutePath } from '../../shared/constants/routes';
import { SPEC_TEXT } from '../../shared/messages';
import { allowedPaths, canAccess, firstAllowedPath } from '../../shared/permissions';
import { useGetUserByEmailQuery } from '../api/portalApi';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { useAuthClient } from '../auth/AuthContext';
import { SessionUnreadableError } from '../auth/sessionErrors';
import { CurrentUserProvider } from '../auth/CurrentUserContext';
import { signedIn } from '../auth/sessionSlice';
import { useEndSession } from '../auth/useEndSession';
import { PageSpinner } from '../components/PageSpinner';
import { toastError } from '../components/toast';
import { AppLayout } from './AppLayout';
import { NotAuthorized } from './NotAuthorized';

function UserGate({ email, path, children }: { email: string; path: RoutePath; children: ReactNode }) {
  // The query retries by itself (portalApi) and its last error is the one toast; a 401 has
  // already ended the session (apiErrors), any other failure signs the user out here.
  const { data, isError, error } = useGetUserByEmailQuery(email);
  const endSession = useEndSession();
  const failed = isError && !(error && 'status' in error && error.status === 401);

  useEffect(() => {
    if (failed) void endSession(PATHS.login);
  }, [failed, endSession]);

  const current = useMemo(() => (data?.profile ? { user: data, allowed: allowedPaths(data.profile) } : null), [data]);
  if (!current || isError) return <PageSpinner />;
  if (path === PATHS.home) return <Navigate to={firstAllowedPath(current.allowed)} replace />;
  return (
    <CurrentUserProvider value={current}>
      <AppLayout pageAllowed={canAccess(current.allowed, path)}>{canAccess(current.allowed, path) ? children : <NotAuthorized />}</AppLayout>
    </CurrentUserProvider>
  );
}

/**
 * The frame of every signed-in page: checks the stored session (refreshing it when due), loads
 * the administrator's record with its profile (with retries), then shows the layout with the
 * page, or NO AUTORIZADO when the profile does not grant the path. A spinner meanwhile.
 */
export function RequireAuth({ path, children }: { path: RoutePath; children: ReactNode }) {
  const auth = useAuthClient();
  const session = useAppSelector((s) => s.session);
  const dispatch = useAppDispatch();
  const endSession = useEndSession();

  useEffect(() => {
    if (session.status !== 'checking' || !auth) return;
    let cancelled = false;
    auth()
      .then((client) => client.getTokens())
      .then(
        (tokens) => {
          if (cancelled) return;
          if (tokens) dispatch(signedIn({ email: tokens.email, username: tokens.username }));
          else void endSession(PATHS.login);
        },
        (err: unknown) => {
          if (cancelled) return;
          toastError(err instanceof SessionUnreadableError ? SPEC_TEXT.sessionUnreadable : SPEC_TEXT.sessionValidationError);
          void endSession(PATHS.login);
        },
      );
    return () => {
      cancelled = true;
    };
  }, [auth, session.status, dispatch, endSession]);

  if (session.status === 'signedOut') return <Navigate to={PATHS.login} replace />;
  if (session.status !== 'signedIn' || !session.email) return <PageSpinner />;
  return (
    <UserGate email={session.email} path={path}>
      {children}
    </UserGate>
  );
}
