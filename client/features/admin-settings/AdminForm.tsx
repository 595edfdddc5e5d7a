import Form from 'react-bootstrap/Form';
import * as z from 'zod';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { createAdminBody, type Admin, type CreateAdminBody, type UpdateAdminBody } from '../../../shared/contracts/admins';
import { showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';

/** What the form holds: the create body's input (the e-mail is shown only when creating). */
type AdminFormFields = z.input<typeof createAdminBody>;

/** Editing: the update body; the fixed e-mail stays in the form but is not sent. */
const editBody = createAdminBody
  .omit({ correo: true })
  .extend({ correo: z.string() })
  .transform(({ correo: _fixed, ...body }): UpdateAdminBody => body);

export interface AdminFormProps {
  formId: string;
  /** The administrator being edited; absent to create one. */
  admin?: Admin;
  roles: readonly { id: number; nombre: string }[];
  /** Called with the parsed body (create, or the editable fields when editing); answers whether it saved. */
  onSubmit: (values: CreateAdminBody | UpdateAdminBody) => Promise<SaveOutcome> | SaveOutcome;
}

/**
 * The create and edit form of an administrator (the e-mail is fixed once created), validated
 * with the API's own schema; a server error naming a field (e-mail taken) shows under it.
 */
export function AdminForm({ formId, admin, roles, onSubmit }: AdminFormProps) {
  const form = useContractForm<AdminFormFields, CreateAdminBody | UpdateAdminBody>(admin ? editBody : createAdminBody, {
    defaultValues: admin
      ? { correo: admin.correo, nombres: admin.nombres, apellidos: admin.apellidos, profileId: admin.profileId }
      : { correo: '', nombres: '', apellidos: '', profileId: undefined },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const outcome = await onSubmit(values);
    if (outcome) showServerError(form, outcome.error);
  });
  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      {!admin && (
        <TextInput
          label={L.admins.email}
          type="email"
          autoComplete="off"
          groupClassName="mb-3"
          error={errors.correo?.message}
          {...form.register('correo')}
        />
      )}
      <TextInput label={L.admins.names} groupClassName="mb-3" error={errors.nombres?.message} {...form.register('nombres')} />
      <TextInput label={L.admins.lastNames} groupClassName="mb-3" error={errors.apellidos?.message} {...form.register('apellidos')} />
      <Form.Group controlId={`${formId}-profile`}>
        <Form.Label>{L.admins.profile}</Form.Label>
        <Form.Select
          isInvalid={Boolean(errors.profileId)}
          aria-invalid={errors.profileId ? true : undefined}
          aria-describedby={errors.profileId ? `${formId}-profile-error` : undefined}
          {...form.register('profileId', { setValueAs: (v: string) => (v === '' ? undefined : Number(v)) })}
        >
          <option value="">{L.admins.selectProfile}</option>
          {roles.map((r) => (
            <option key={r.id} value={r.id}>
              {r.nombre}
            </option>
          ))}
        </Form.Select>
        {errors.profileId && (
          <Form.Control.Feedback type="invalid" id={`${formId}-profile-error`}>
            {errors.profileId.message}
          </Form.Control.Feedback>
        )}
      </Form.Group>
    </Form>
  );
}
