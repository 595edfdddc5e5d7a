import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { USER_DATA_EXTRA_RETRIES } from '../../shared/constants/business';
import { SPEC_TEXT } from '../../shared/messages';
import { allowedPaths, canAccess, firstAllowedPath } from '../../shared/permissions';
import { useGetUserByEmailQuery } from '../api/portalApi';
import { useAppDispatch, useAppSelector } from '../app/hooks';
import { useAuthClient } from '../auth/AuthContext';
import { SessionUnreadableError } from '../auth/authClient';
import { CurrentUserProvider } from '../auth/CurrentUserContext';
import { signedIn } from '../auth/sessionSlice';
import { useEndSession } from '../auth/useEndSession';
import { PageSpinner } from '../components/PageSpinner';
import { toastError } from '../components/toast';
import { AppLayout } from './AppLayout';
import { NotAuthorized } from './NotAuthorized';

/** Pause between attempts to load the user's record. */
export const USER_RETRY_DELAY_MS = 300;

function UserGate({ email, path, children }: { email: string; path: string; children: ReactNode }) {
  const { data, isError, isFetching, refetch, startedTimeStamp } = useGetUserByEmailQuery(email);
  const attempts = useRef(1);
  const endSession = useEndSession();
  const missing = !isFetching && (isError || (data !== undefined && !data.profile));

  // Runs once per settled attempt (each attempt has its own start time), however quickly the
  // answer comes back: up to USER_DATA_EXTRA_RETRIES more attempts, then the user is signed out.
  useEffect(() => {
    if (!missing) return;
    if (attempts.current <= USER_DATA_EXTRA_RETRIES) {
      const timer = setTimeout(() => {
        attempts.current += 1;
        void refetch();
      }, USER_RETRY_DELAY_MS);
      return () => clearTimeout(timer);
    }
    toastError(SPEC_TEXT.userLoadError);
    void endSession('/login');
    return undefined;
  }, [missing, startedTimeStamp, refetch, endSession]);

  const current = useMemo(
    () => (data?.profile ? { user: data, allowed: allowedPaths(data.profile) } : null),
    [data],
  );
  if (!current || missing) return <PageSpinner />;
  if (path === '/') return <Navigate to={firstAllowedPath(current.allowed)} replace />;
  return (
    <CurrentUserProvider value={current}>
      <AppLayout pageAllowed={canAccess(current.allowed, path)}>
        {canAccess(current.allowed, path) ? children : <NotAuthorized />}
      </AppLayout>
    </CurrentUserProvider>
  );
}

/**
 * The frame of every signed-in page: checks the stored session (refreshing it when due), loads
 * the administrator's record with its profile (with retries), then shows the layout with the
 * page, or NO AUTORIZADO when the profile does not grant the path. A spinner meanwhile.
 */
export function RequireAuth({ path, children }: { path: string; children: ReactNode }) {
  const auth = useAuthClient();
  const session = useAppSelector((s) => s.session);
  const dispatch = useAppDispatch();
  const endSession = useEndSession();

  useEffect(() => {
    if (session.status !== 'checking' || !auth) return;
    let cancelled = false;
    auth().then((client) => client.getTokens()).then(
      (tokens) => {
        if (cancelled) return;
        if (tokens) dispatch(signedIn({ email: tokens.email, username: tokens.username }));
        else void endSession('/login');
      },
      (err: unknown) => {
        if (cancelled) return;
        toastError(err instanceof SessionUnreadableError ? SPEC_TEXT.sessionUnreadable : SPEC_TEXT.sessionValidationError);
        void endSession('/login');
      },
    );
    return () => {
      cancelled = true;
    };
  }, [auth, session.status, dispatch, endSession]);

  if (session.status === 'signedOut') return <Navigate to="/login" replace />;
  if (session.status !== 'signedIn' || !session.email) return <PageSpinner />;
  return (
    <UserGate email={session.email} path={path}>
      {children}
    </UserGate>
  );
}
