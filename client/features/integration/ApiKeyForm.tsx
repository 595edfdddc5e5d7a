import { dateTimeInstant } from '../../components/DateInput';
import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useWatch } from 'react-hook-form';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { DATA_TABLE_LABELS, LABELS } from '../../../shared/constants/labels';
import { apiKeyBody, type ApiKeyBody, type ApiKeyBodyInput } from '../../../shared/contracts/apiKeys';
import { firstMessage, showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { useListApiKeyRolesQuery } from './integrationApi';

const L = INTEGRATION_LABELS.apiKeys;
const F = FIELD_LABELS.apiKeys;

/** The list of addresses typed in the textarea: one per line or separated by commas (blanks dropped). */
export const ipListInput = (v: unknown): unknown =>
  typeof v === 'string'
    ? v
        .split(/[\s,;]+/)
        .map((s) => s.trim())
        .filter(Boolean)
    : v;

/**
 * The expiry typed as dd/mm/aaaa hh:mm (local time) as the ISO instant the API wants; empty is
 * null ('Sin vencimiento'); an unreadable text stays as is (the contract refuses it).
 */
export const expiresInput = (v: unknown): unknown => {
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return null;
  return typeof v === 'string' ? dateTimeInstant(v) : v;
};

/** A form control's error and help, named by its aria-describedby (the error first). */
function described(id: string, error: string | undefined, help: boolean) {
  const ids = [error && `${id}-error`, help && `${id}-help`].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': ids || undefined };
}

/** The role select: the roles a key may be given; a role holding more than the caller is disabled, saying why. */
function RoleSelect({ form, id }: { form: ReturnType<typeof useApiKeyForm>; id: string }) {
  const roles = useListApiKeyRolesQuery();
  const error = form.formState.errors.profileId?.message;
  const options = roles.data?.data ?? [];
  const blocked = options.filter((r) => !r.grantable).length;
  return (
    <Form.Group controlId={id}>
      <Form.Label>{F.profileId}</Form.Label>
      <Form.Select
        isInvalid={Boolean(error)}
        {...described(id, error, true)}
        {...form.register('profileId', { setValueAs: (v: string) => (v === '' ? undefined : Number(v)) })}
      >
        <option value="">{roles.isLoading ? L.rolesLoading : L.rolePlaceholder}</option>
        {options.map((r) => (
          <option key={r.id} value={r.id} disabled={!r.grantable}>
            {L.roleOption(r.name, r.grantable)}
          </option>
        ))}
      </Form.Select>
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
      <Form.Text id={`${id}-help`} className="d-block">
        {L.roleHelp}
        {blocked > 0 && ` ${L.someNotGrantable(blocked)}`}
      </Form.Text>
      {roles.isError && !roles.data && (
        <div className="d-flex align-items-center gap-2 text-danger-emphasis mt-1">
          <span>{L.rolesError}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void roles.refetch()}>
            {DATA_TABLE_LABELS.retry}
          </Button>
        </div>
      )}
    </Form.Group>
  );
}

function useApiKeyForm() {
  return useContractForm<ApiKeyBodyInput, ApiKeyBody>(apiKeyBody, {
    defaultValues: { name: '', profileId: undefined, allowedIps: [], expiresAt: null },
  });
}

export interface ApiKeyFormProps {
  /** The id of the form, which the dialog's 'Guardar' submits. */
  formId: string;
  onSubmit: (body: ApiKeyBody) => Promise<SaveOutcome>;
}

/** The form of a new key over the API's `apiKeyBody` (a chunk of its own: ApiKeyFormModal loads it). */
export function ApiKeyForm({ formId, onSubmit }: ApiKeyFormProps) {
  const id = useId();
  const form = useApiKeyForm();
  const { errors } = form.formState;
  const expires = useWatch({ control: form.control, name: 'expiresAt' });
  const ipsError = firstMessage(errors.allowedIps);
  const expiresError = errors.expiresAt?.message;
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    // 409 'Ya existe una clave de API activa con ese nombre', a role beyond the caller, or a 400 naming a field.
    if (outcome) showServerError(form, outcome.error);
  });

  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput label={F.name} groupClassName="mb-3" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <div className="mb-3">
        <RoleSelect form={form} id={`${id}-role`} />
      </div>
      <Form.Group className="mb-3" controlId={`${id}-ips`}>
        <Form.Label>{F.allowedIps}</Form.Label>
        <Form.Control
          as="textarea"
          rows={3}
          className="font-monospace"
          spellCheck={false}
          autoCapitalize="off"
          autoComplete="off"
          placeholder={L.allowedIpsPlaceholder}
          isInvalid={Boolean(ipsError)}
          {...described(`${id}-ips`, ipsError, true)}
          {...form.register('allowedIps', { setValueAs: ipListInput })}
        />
        {ipsError && (
          <Form.Control.Feedback type="invalid" id={`${id}-ips-error`}>
            {ipsError}
          </Form.Control.Feedback>
        )}
        <Form.Text id={`${id}-ips-help`} className="d-block">
          {L.allowedIpsHelp}
        </Form.Text>
      </Form.Group>
      <Form.Group controlId={`${id}-expires`}>
        <Form.Label>{F.expiresAt}</Form.Label>
        <Form.Control
          // dd/mm/aaaa hh:mm whatever the browser's language (a datetime-local input follows the browser's).
          placeholder={LABELS.dateTimePlaceholder}
          autoComplete="off"
          isInvalid={Boolean(expiresError)}
          {...described(`${id}-expires`, expiresError, true)}
          {...form.register('expiresAt', { setValueAs: expiresInput })}
        />
        {expiresError && (
          <Form.Control.Feedback type="invalid" id={`${id}-expires-error`}>
            {expiresError}
          </Form.Control.Feedback>
        )}
        <Form.Text id={`${id}-expires-help`} className="d-block" data-testid="api-key-expires-help">
          {expires ? L.expiresHelpSet : L.expiresHelpEmpty}
        </Form.Text>
      </Form.Group>
    </Form>
  );
}
