import { useEffect, useState, type FormEventHandler, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Form from 'react-bootstrap/Form';
import type { UseFormReturn } from 'react-hook-form';
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
import { useContractForm } from '../../components/useContractForm';
import {
  forgotEmailForm,
  forgotResetForm,
  newPasswordForm,
  signInForm,
  type ForgotEmailValues,
  type ForgotResetValues,
  type NewPasswordValues,
  type SignInValues,
} from './loginForms';

type NewPasswordStep = Extract<SignInResult, { status: 'newPasswordRequired' }>['complete'];
type Mode = { kind: 'signIn' } | { kind: 'newPassword'; complete: NewPasswordStep } | { kind: 'forgot' } | { kind: 'forgotConfirm'; email: string };

type Run = (action: () => Promise<void>, context?: 'signIn' | 'other') => Promise<void>;

/** A step's form: its fields, the full-width submit button and, under it, the link to another step. */
function StepForm({
  method,
  busy,
  submitLabel,
  link,
  onSubmit,
  children,
}: {
  method?: 'post';
  busy: boolean;
  submitLabel: string;
  link?: { label: string; onClick: () => void };
  onSubmit: FormEventHandler<HTMLFormElement>;
  children: ReactNode;
}) {
  return (
    <Form method={method} noValidate onSubmit={onSubmit}>
      {children}
      <LoadingButton type="submit" loading={busy} className="w-100">
        {submitLabel}
      </LoadingButton>
      {link && (
        <div className="text-center mt-3">
          <Button variant="link" size="sm" onClick={link.onClick}>
            {link.label}
          </Button>
        </div>
      )}
    </Form>
  );
}

/**
 * Each step's form is a component of its own, and the steps after the first keep their form
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
  form: UseFormReturn<SignInValues, unknown, SignInValues>;
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
    <StepForm
      method="post"
      busy={busy}
      submitLabel={MESSAGES.loginSubmit}
      link={{ label: MESSAGES.forgotLink, onClick: onForgot }}
      onSubmit={onSubmit}
    >
      <TextInput
        id="login-email"
        label={MESSAGES.loginEmail}
        groupClassName="mb-3"
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        {...form.register('email')}
      />
      <TextInput
        id="login-password"
        label={MESSAGES.loginPassword}
        groupClassName="mb-4"
        error={errors.password?.message}
        type="password"
        autoComplete="current-password"
        {...form.register('password')}
      />
    </StepForm>
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
  const form = useContractForm<NewPasswordValues, NewPasswordValues>(newPasswordForm);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ password }) => run(async () => onSignedIn(await complete(password))));
  return (
    <StepForm busy={busy} submitLabel={MESSAGES.forgotConfirm} onSubmit={onSubmit}>
      <p className="small text-secondary">{MESSAGES.newPasswordIntro}</p>
      <TextInput
        id="new-password"
        label={MESSAGES.newPassword}
        groupClassName="mb-1"
        error={errors.password?.message}
        type="password"
        autoComplete="new-password"
        aria-describedby="password-rules"
        {...form.register('password')}
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
        {...form.register('confirm')}
      />
    </StepForm>
  );
}

/** The forgotten password's first step: the address a code is sent to. */
function ForgotEmailForm({ busy, run, onCodeSent, onBack }: { busy: boolean; run: Run; onCodeSent: (email: string) => void; onBack: () => void }) {
  const auth = useAuthClient();
  const form = useContractForm<ForgotEmailValues, ForgotEmailValues>(forgotEmailForm);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ email }) =>
    run(async () => {
      await (await auth!()).forgotPassword(email);
      onCodeSent(email);
    }),
  );
  return (
    <StepForm busy={busy} submitLabel={MESSAGES.forgotSend} link={{ label: MESSAGES.backToLogin, onClick: onBack }} onSubmit={onSubmit}>
      <p className="small text-secondary">{MESSAGES.forgotIntro}</p>
      <TextInput
        id="forgot-email"
        label={MESSAGES.loginEmail}
        groupClassName="mb-4"
        error={errors.email?.message}
        type="email"
        autoComplete="username"
        {...form.register('email')}
      />
    </StepForm>
  );
}

/** Its second step: the code received and the new password. */
function ForgotResetForm({ busy, run, email, onDone, onBack }: { busy: boolean; run: Run; email: string; onDone: () => void; onBack: () => void }) {
  const auth = useAuthClient();
  const form = useContractForm<ForgotResetValues, ForgotResetValues>(forgotResetForm);
  const { errors } = form.formState;
  const onSubmit = form.handleSubmit(({ code, password }) =>
    run(async () => {
      await (await auth!()).confirmForgotPassword(email, code, password);
      form.reset();
      onDone();
    }),
  );
  return (
    <StepForm busy={busy} submitLabel={MESSAGES.forgotConfirm} link={{ label: MESSAGES.backToLogin, onClick: onBack }} onSubmit={onSubmit}>
      <TextInput
        id="forgot-code"
        label={MESSAGES.forgotCode}
        groupClassName="mb-3"
        error={errors.code?.message}
        inputMode="numeric"
        autoComplete="one-time-code"
        {...form.register('code')}
      />
      <TextInput
        id="forgot-password"
        label={MESSAGES.newPassword}
        groupClassName="mb-1"
        error={errors.password?.message}
        type="password"
        autoComplete="new-password"
        {...form.register('password')}
      />
      <Form.Text className="d-block mb-4">{MESSAGES.passwordRules}</Form.Text>
    </StepForm>
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
  const signIn = useContractForm<SignInValues, SignInValues>(signInForm);

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
              {/* The error reference §8 names for an HTTP 401, then what to do. */}
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
              form={signIn}
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
          {mode.kind === 'forgot' && (
            <ForgotEmailForm
              busy={busy}
              run={run}
              onCodeSent={(email) => {
                setInfo(MESSAGES.forgotCodeSent);
                setMode({ kind: 'forgotConfirm', email });
              }}
              onBack={() => show({ kind: 'signIn' })}
            />
          )}
          {mode.kind === 'forgotConfirm' && (
            <ForgotResetForm
              busy={busy}
              run={run}
              email={mode.email}
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
