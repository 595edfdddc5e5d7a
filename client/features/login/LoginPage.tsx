import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MESSAGES, PRODUCT_NAME, SPEC_TEXT } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';
import { useAppDispatch } from '../../app/hooks';
import { useAuthClient } from '../../auth/AuthContext';
import type { SessionTokens, SignInResult } from '../../auth/authClient';
import { authErrorMessage } from '../../auth/authErrors';
import { signedIn } from '../../auth/sessionSlice';
import { BrandMark } from '../../components/BrandMark';
import { LoadingButton } from '../../components/LoadingButton';
import { TextInput } from '../../components/TextInput';

type NewPasswordStep = Extract<SignInResult, { status: 'newPasswordRequired' }>['complete'];
type Mode = { kind: 'signIn' } | { kind: 'newPassword'; complete: NewPasswordStep } | { kind: 'forgot' } | { kind: 'forgotConfirm'; email: string };

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

type Run = (action: () => Promise<void>, context?: 'signIn' | 'other') => Promise<void>;
const required = (field: string) => ({ required: MESSAGES.required(field) });

/**
 * Each step's form is a component of its own, and the two steps after the first keep their form
 * state inside it: hydrating the page builds only the sign-in form's. That one belongs to the page,
 * so what was typed there is still there after a look at the forgotten-password step.
 */
function SignInForm({
  form,
  busy,
  run,
  onSignedIn,
  onNewPassword,
  onForgot,
}: {
  form: UseFormReturn<SignInFields>;
  busy: boolean;
  run: Run;
  onSignedIn: (tokens: SessionTokens) => void;
  onNewPassword: (complete: NewPasswordStep) => void;
  onForgot: () => void;
}) {
  const auth = useAuthClient();
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ email, password }) =>
    run(async () => {
      const result = await (await auth!()).signIn(email, password);
      if (result.status === 'signedIn') onSignedIn(result.tokens);
      else onNewPassword(result.complete);
    }, 'signIn'),
  );
  return (
    <Form method="post" noValidate onSubmit={onSubmit}>
      <TextInput
        id="login-email"
        label={MESSAGES.loginEmail}
        groupClassName="mb-3"
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        {...form.register('email', required(MESSAGES.loginEmail))}
      />
      <TextInput
        id="login-password"
        label={MESSAGES.loginPassword}
        groupClassName="mb-4"
        error={errors.password?.message}
        type="password"
        autoComplete="current-password"
        {...form.register('password', required(MESSAGES.loginPassword))}
      />
      <LoadingButton type="submit" loading={busy} className="w-100">
        {MESSAGES.loginSubmit}
      </LoadingButton>
      <div className="text-center mt-3">
        <Button variant="link" size="sm" onClick={onForgot}>
          {MESSAGES.forgotLink}
        </Button>
      </div>
    </Form>
  );
}

function NewPasswordForm({
  busy,
  run,
  complete,
  onSignedIn,
}: {
  busy: boolean;
  run: Run;
  complete: NewPasswordStep;
  onSignedIn: (tokens: SessionTokens) => void;
}) {
  const form = useForm<NewPasswordFields>();
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ password }) => run(async () => onSignedIn(await complete(password))));
  return (
    <Form noValidate onSubmit={onSubmit}>
      <p className="small text-secondary">{MESSAGES.newPasswordIntro}</p>
      <TextInput
        id="new-password"
        label={MESSAGES.newPassword}
        groupClassName="mb-1"
        error={errors.password?.message}
        type="password"
        autoComplete="new-password"
        aria-describedby="password-rules"
        {...form.register('password', required(MESSAGES.newPassword))}
      />
      <Form.Text id="password-rules" className="d-block mb-3">
        {MESSAGES.passwordRules}
      </Form.Text>
      <TextInput
        id="new-password-confirm"
        label={MESSAGES.confirmPassword}
        groupClassName="mb-4"
        error={errors.confirm?.message}
        type="password"
        autoComplete="new-password"
        {...form.register('confirm', { ...required(MESSAGES.confirmPassword), validate: (v, all) => v === all.password || MESSAGES.passwordsDiffer })}
      />
      <LoadingButton type="submit" loading={busy} className="w-100">
        {MESSAGES.forgotConfirm}
      </LoadingButton>
    </Form>
  );
}

/** The forgotten-password flow: the address (a code is sent), then the code and the new password. */
function ForgotForm({
  busy,
  run,
  step,
  onCodeSent,
  onDone,
  onBack,
}: {
  busy: boolean;
  run: Run;
  step: Extract<Mode, { kind: 'forgot' | 'forgotConfirm' }>;
  onCodeSent: (email: string) => void;
  onDone: () => void;
  onBack: () => void;
}) {
  const auth = useAuthClient();
  const form = useForm<ForgotFields>();
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ email, code, password }) =>
    run(async () => {
      if (step.kind === 'forgot') {
        await (await auth!()).forgotPassword(email);
        onCodeSent(email);
      } else {
        await (await auth!()).confirmForgotPassword(step.email, code, password);
        form.reset();
        onDone();
      }
    }),
  );
  return (
    <Form noValidate onSubmit={onSubmit}>
      {step.kind === 'forgot' ? (
        <>
          <p className="small text-secondary">{MESSAGES.forgotIntro}</p>
          <TextInput
            id="forgot-email"
            label={MESSAGES.loginEmail}
            groupClassName="mb-4"
            error={errors.email?.message}
            type="email"
            autoComplete="username"
            {...form.register('email', required(MESSAGES.loginEmail))}
          />
          <LoadingButton type="submit" loading={busy} className="w-100">
            {MESSAGES.forgotSend}
          </LoadingButton>
        </>
      ) : (
        <>
          <TextInput
            id="forgot-code"
            label={MESSAGES.forgotCode}
            groupClassName="mb-3"
            error={errors.code?.message}
            inputMode="numeric"
            autoComplete="one-time-code"
            {...form.register('code', required(MESSAGES.forgotCode))}
          />
          <TextInput
            id="forgot-password"
            label={MESSAGES.newPassword}
            groupClassName="mb-1"
            error={errors.password?.message}
            type="password"
            autoComplete="new-password"
            {...form.register('password', required(MESSAGES.newPassword))}
          />
          <Form.Text className="d-block mb-4">{MESSAGES.passwordRules}</Form.Text>
          <LoadingButton type="submit" loading={busy} className="w-100">
            {MESSAGES.forgotConfirm}
          </LoadingButton>
        </>
      )}
      <div className="text-center mt-3">
        <Button variant="link" size="sm" onClick={onBack}>
          {MESSAGES.backToLogin}
        </Button>
      </div>
    </Form>
  );
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

  const enter = (tokens: SessionTokens) => {
    dispatch(signedIn({ email: tokens.email, username: tokens.username }));
    navigate('/', { replace: true });
  };

  const run: Run = async (action, context = 'other') => {
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

  const show = (next: Mode, message?: string) => {
    setError(undefined);
    setInfo(message);
    setMode(next);
  };

  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center bg-body-tertiary p-3">
      <Card className="shadow-sm portal-login-card">
        <Card.Body className="p-4">
          <h1 className="h4 mb-1 text-center">
            <BrandMark className="text-primary me-2" />
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
            <SignInForm
              form={signInForm}
              busy={busy}
              run={(action, context) =>
                run(async () => {
                  setInfo(undefined);
                  await action();
                }, context)
              }
              onSignedIn={enter}
              onNewPassword={(complete) => setMode({ kind: 'newPassword', complete })}
              onForgot={() => show({ kind: 'forgot' })}
            />
          )}
          {mode.kind === 'newPassword' && <NewPasswordForm busy={busy} run={run} complete={mode.complete} onSignedIn={enter} />}
          {(mode.kind === 'forgot' || mode.kind === 'forgotConfirm') && (
            <ForgotForm
              busy={busy}
              run={run}
              step={mode}
              onCodeSent={(email) => {
                setInfo(MESSAGES.forgotCodeSent);
                setMode({ kind: 'forgotConfirm', email });
              }}
              onDone={() => {
                setInfo(MESSAGES.forgotDone);
                setMode({ kind: 'signIn' });
              }}
              onBack={() => show({ kind: 'signIn' })}
            />
          )}
        </Card.Body>
      </Card>
    </main>
  );
}
