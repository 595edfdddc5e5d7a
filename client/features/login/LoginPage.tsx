import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES, PRODUCT_NAME, SPEC_TEXT } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';
import { useAppDispatch } from '../../app/hooks';
import { useAuthClient } from '../../auth/AuthContext';
import type { SessionTokens, SignInResult } from '../../auth/authClient';
import { authErrorMessage } from '../../auth/authErrors';
import { signedIn } from '../../auth/sessionSlice';
import { LoadingButton } from '../../components/LoadingButton';

type Mode =
  | { kind: 'signIn' }
  | { kind: 'newPassword'; complete: Extract<SignInResult, { status: 'newPasswordRequired' }>['complete'] }
  | { kind: 'forgot' }
  | { kind: 'forgotConfirm'; email: string };

interface SignInFields {
  email: string;
  password: string;
}
interface NewPasswordFields {
  password: string;
  confirm: string;
}
interface ForgotFields {
  email: string;
  code: string;
  password: string;
}

function FieldError({ message }: { message?: string }) {
  return message ? <Form.Control.Feedback type="invalid">{message}</Form.Control.Feedback> : null;
}

/**
 * Sign-in (SRP through amazon-cognito-identity-js), the new-password step of administrators
 * created with a temporary password, and the forgotten-password flow. Server-rendered: the
 * form is there, and keeps what was typed, before the scripts run.
 */
export default function LoginPage(_props: PageProps) {
  const auth = useAuthClient();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [mode, setMode] = useState<Mode>({ kind: 'signIn' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const expired = params.get('current_session_expire') === '1';

  const signInForm = useForm<SignInFields>();
  // Fetch the sign-in library once the page is interactive, before the first submit needs it.
  useEffect(() => {
    void auth?.().catch(() => undefined);
  }, [auth]);
  const newPasswordForm = useForm<NewPasswordFields>();
  const forgotForm = useForm<ForgotFields>();

  const enter = (tokens: SessionTokens) => {
    dispatch(signedIn({ email: tokens.email, username: tokens.username }));
    navigate('/', { replace: true });
  };

  const run = async (action: () => Promise<void>, context: 'signIn' | 'other' = 'other') => {
    if (!auth) return;
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (err) {
      setError(authErrorMessage(err, context));
      if ((err as { code?: string }).code === 'PasswordResetRequiredException') setMode({ kind: 'forgot' });
    } finally {
      setBusy(false);
    }
  };

  const onSignIn = signInForm.handleSubmit(({ email, password }) =>
    run(async () => {
      setInfo(undefined);
      const result = await (await auth!()).signIn(email, password);
      if (result.status === 'signedIn') enter(result.tokens);
      else setMode({ kind: 'newPassword', complete: result.complete });
    }, 'signIn'),
  );

  const onNewPassword = newPasswordForm.handleSubmit(({ password }) =>
    run(async () => {
      if (mode.kind !== 'newPassword') return;
      enter(await mode.complete(password));
    }),
  );

  const onForgot = forgotForm.handleSubmit(({ email, code, password }) =>
    run(async () => {
      if (mode.kind === 'forgot') {
        await (await auth!()).forgotPassword(email);
        setInfo(MESSAGES.forgotCodeSent);
        setMode({ kind: 'forgotConfirm', email });
      } else if (mode.kind === 'forgotConfirm') {
        await (await auth!()).confirmForgotPassword(mode.email, code, password);
        forgotForm.reset();
        setInfo(MESSAGES.forgotDone);
        setMode({ kind: 'signIn' });
      }
    }),
  );

  const backToSignIn = () => {
    setError(undefined);
    setInfo(undefined);
    setMode({ kind: 'signIn' });
  };

  const { errors: se } = signInForm.formState;
  const { errors: ne } = newPasswordForm.formState;
  const { errors: fe } = forgotForm.formState;
  const required = (field: string) => ({ required: MESSAGES.required(field) });

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center bg-body-tertiary p-3">
      <Card className="shadow-sm portal-login-card">
        <Card.Body className="p-4">
          <h1 className="h4 mb-1 text-center">
            <i className="bi bi-shield-lock text-primary me-2" aria-hidden="true" />
            {PRODUCT_NAME}
          </h1>
          <h2 className="h6 mb-4 text-center text-secondary">
            {mode.kind === 'signIn' ? MESSAGES.loginTitle : mode.kind === 'newPassword' ? MESSAGES.newPasswordTitle : MESSAGES.forgotTitle}
          </h2>
          {expired && mode.kind === 'signIn' && !error && (
            <Alert variant="warning" data-testid="session-expired" role="alert">
              {/* The error the specification (§8) names for an HTTP 401, then what to do. */}
              <strong className="d-block" data-testid="session-expired-error">
                {SPEC_TEXT.unauthorized}
              </strong>
              {MESSAGES.sessionExpiredNotice}
            </Alert>
          )}
          {info && <Alert variant="success">{info}</Alert>}
          {error && (
            <Alert variant="danger" role="alert">
              {error}
            </Alert>
          )}

          {mode.kind === 'signIn' && (
            <Form method="post" noValidate onSubmit={onSignIn}>
              <Form.Group className="mb-3" controlId="login-email">
                <Form.Label>{MESSAGES.loginEmail}</Form.Label>
                <Form.Control
                  type="email"
                  autoComplete="username"
                  isInvalid={!!se.email}
                  {...signInForm.register('email', required(MESSAGES.loginEmail))}
                />
                <FieldError message={se.email?.message} />
              </Form.Group>
              <Form.Group className="mb-4" controlId="login-password">
                <Form.Label>{MESSAGES.loginPassword}</Form.Label>
                <Form.Control
                  type="password"
                  autoComplete="current-password"
                  isInvalid={!!se.password}
                  {...signInForm.register('password', required(MESSAGES.loginPassword))}
                />
                <FieldError message={se.password?.message} />
              </Form.Group>
              <LoadingButton type="submit" loading={busy} className="w-100">
                {MESSAGES.loginSubmit}
              </LoadingButton>
              <div className="text-center mt-3">
                <Button
                  variant="link"
                  size="sm"
                  onClick={() => {
                    setError(undefined);
                    setInfo(undefined);
                    setMode({ kind: 'forgot' });
                  }}
                >
                  {MESSAGES.forgotLink}
                </Button>
              </div>
            </Form>
          )}

          {mode.kind === 'newPassword' && (
            <Form noValidate onSubmit={onNewPassword}>
              <p className="small text-secondary">{MESSAGES.newPasswordIntro}</p>
              <Form.Group className="mb-3" controlId="new-password">
                <Form.Label>{MESSAGES.newPassword}</Form.Label>
                <Form.Control
                  type="password"
                  autoComplete="new-password"
                  isInvalid={!!ne.password}
                  aria-describedby="password-rules"
                  {...newPasswordForm.register('password', required(MESSAGES.newPassword))}
                />
                <FieldError message={ne.password?.message} />
                <Form.Text id="password-rules">{MESSAGES.passwordRules}</Form.Text>
              </Form.Group>
              <Form.Group className="mb-4" controlId="new-password-confirm">
                <Form.Label>{MESSAGES.confirmPassword}</Form.Label>
                <Form.Control
                  type="password"
                  autoComplete="new-password"
                  isInvalid={!!ne.confirm}
                  {...newPasswordForm.register('confirm', {
                    ...required(MESSAGES.confirmPassword),
                    validate: (v, all) => v === all.password || MESSAGES.passwordsDiffer,
                  })}
                />
                <FieldError message={ne.confirm?.message} />
              </Form.Group>
              <LoadingButton type="submit" loading={busy} className="w-100">
                {MESSAGES.forgotConfirm}
              </LoadingButton>
            </Form>
          )}

          {(mode.kind === 'forgot' || mode.kind === 'forgotConfirm') && (
            <Form noValidate onSubmit={onForgot}>
              {mode.kind === 'forgot' ? (
                <>
                  <p className="small text-secondary">{MESSAGES.forgotIntro}</p>
                  <Form.Group className="mb-4" controlId="forgot-email">
                    <Form.Label>{MESSAGES.loginEmail}</Form.Label>
                    <Form.Control
                      type="email"
                      autoComplete="username"
                      isInvalid={!!fe.email}
                      {...forgotForm.register('email', required(MESSAGES.loginEmail))}
                    />
                    <FieldError message={fe.email?.message} />
                  </Form.Group>
                  <LoadingButton type="submit" loading={busy} className="w-100">
                    {MESSAGES.forgotSend}
                  </LoadingButton>
                </>
              ) : (
                <>
                  <Form.Group className="mb-3" controlId="forgot-code">
                    <Form.Label>{MESSAGES.forgotCode}</Form.Label>
                    <Form.Control
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      isInvalid={!!fe.code}
                      {...forgotForm.register('code', required(MESSAGES.forgotCode))}
                    />
                    <FieldError message={fe.code?.message} />
                  </Form.Group>
                  <Form.Group className="mb-4" controlId="forgot-password">
                    <Form.Label>{MESSAGES.newPassword}</Form.Label>
                    <Form.Control
                      type="password"
                      autoComplete="new-password"
                      isInvalid={!!fe.password}
                      {...forgotForm.register('password', required(MESSAGES.newPassword))}
                    />
                    <FieldError message={fe.password?.message} />
                    <Form.Text>{MESSAGES.passwordRules}</Form.Text>
                  </Form.Group>
                  <LoadingButton type="submit" loading={busy} className="w-100">
                    {MESSAGES.forgotConfirm}
                  </LoadingButton>
                </>
              )}
              <div className="text-center mt-3">
                <Button variant="link" size="sm" onClick={backToSignIn}>
                  {MESSAGES.backToLogin}
                </Button>
              </div>
            </Form>
          )}
        </Card.Body>
      </Card>
    </main>
  );
}
