import { useState } from 'react';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { ChangePasswordForm } from '../../../shared/contracts/account';
import { MESSAGES } from '../../../shared/messages';
import { filterMenu } from '../../../shared/permissions';
import type { PageProps } from '../../app/lazyPage';
import { useAuthClient } from '../../auth/AuthContext';
import { authErrorMessage } from '../../auth/authErrors';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { displayValue } from '../../components/EmptyValue';
import { LoadingButton } from '../../components/LoadingButton';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { toastError, toastSuccess } from '../../components/toast';

/** The change-password form's schema, loaded once the page is idle (useContractForm). */
const changePasswordSchema = () => import('../../../shared/contracts/account').then((m) => m.changePasswordForm);

/** The signed-in administrator: names, e-mail, profile, granted modules; change password. */
export default function AccountPage({ title }: PageProps) {
  const { user, allowed } = useCurrentUser();
  const auth = useAuthClient();
  const [busy, setBusy] = useState(false);
  const form = useContractForm<ChangePasswordForm, ChangePasswordForm>(changePasswordSchema, {
    defaultValues: { current: '', proposed: '', confirm: '' },
  });
  const { errors } = form.formState;
  const modules = filterMenu(allowed);
  const a = MESSAGES.account;

  const onSubmit = form.handleSubmit(async ({ current, proposed }) => {
    if (!auth) return;
    setBusy(true);
    try {
      await (await auth()).changePassword(current, proposed);
      form.reset();
      toastSuccess(MESSAGES.passwordChanged);
    } catch (err) {
      toastError(authErrorMessage(err, 'changePassword'));
    } finally {
      setBusy(false);
    }
  });

  return (
    <section>
      <h1 className="h3 mb-4">{title}</h1>
      <Row className="g-4">
        <Col lg={6}>
          <Card>
            <Card.Body>
              <dl className="row mb-0">
                <dt className="col-sm-4">{a.names}</dt>
                <dd className="col-sm-8" data-testid="account-names">
                  {displayValue(`${user.nombres} ${user.apellidos}`.trim())}
                </dd>
                <dt className="col-sm-4">{a.email}</dt>
                <dd className="col-sm-8" data-testid="account-email">
                  {displayValue(user.correo)}
                </dd>
                <dt className="col-sm-4">{a.profile}</dt>
                <dd className="col-sm-8" data-testid="account-profile">
                  {displayValue(user.profile?.nombre)}
                </dd>
                <dt className="col-sm-4">{a.modules}</dt>
                <dd className="col-sm-8">
                  {modules.length === 0 ? (
                    <span className="text-secondary">{a.noModules}</span>
                  ) : (
                    <ul className="list-unstyled mb-0" data-testid="account-modules">
                      {modules.map((m) => (
                        <li key={m.path} className="mb-2">
                          <i className={`bi bi-${m.icon} me-2`} aria-hidden="true" />
                          <span className="fw-semibold">{m.title}</span>
                          {m.submodules.length > 0 && (
                            <span className="d-block small text-secondary ms-4">{m.submodules.map((s) => s.title).join(', ')}</span>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </dl>
            </Card.Body>
          </Card>
        </Col>
        <Col lg={6}>
          <Card>
            <Card.Body>
              <h2 className="h5 mb-3">{a.changePassword}</h2>
              <Form noValidate onSubmit={onSubmit}>
                <TextInput
                  label={MESSAGES.currentPassword}
                  type="password"
                  autoComplete="current-password"
                  groupClassName="mb-3"
                  error={errors.current?.message}
                  {...form.register('current')}
                />
                <TextInput
                  label={MESSAGES.newPassword}
                  type="password"
                  autoComplete="new-password"
                  groupClassName="mb-1"
                  error={errors.proposed?.message}
                  aria-describedby="account-password-rules"
                  {...form.register('proposed')}
                />
                <Form.Text id="account-password-rules" className="d-block mb-3">
                  {MESSAGES.passwordRules}
                </Form.Text>
                <TextInput
                  label={MESSAGES.confirmPassword}
                  type="password"
                  autoComplete="new-password"
                  groupClassName="mb-4"
                  error={errors.confirm?.message}
                  {...form.register('confirm')}
                />
                <LoadingButton type="submit" loading={busy}>
                  {a.changePassword}
                </LoadingButton>
              </Form>
            </Card.Body>
          </Card>
        </Col>
      </Row>
    </section>
  );
}
