import Form from 'react-bootstrap/Form';
import { useWatch } from 'react-hook-form';
import type * as z from 'zod';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { roleBody, type Role, type RoleBody } from '../../../shared/contracts/roles';
import { showServerError, type SaveOutcome, firstMessage } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { PermissionTree } from './PermissionTree';

type RoleFormFields = z.input<typeof roleBody>;

export interface RoleFormProps {
  formId: string;
  /** The role being edited; absent to create one. */
  role?: Role;
  /** Called with the parsed body; answers whether it saved (a server error naming a field shows under it). */
  onSubmit: (body: RoleBody) => Promise<SaveOutcome> | SaveOutcome;
}

/** The role editor: name and grants, validated with the API's contract. */
export function RoleForm({ formId, role, onSubmit }: RoleFormProps) {
  const form = useContractForm<RoleFormFields, RoleBody>(roleBody, {
    defaultValues: { nombre: role?.nombre ?? '', paths: role?.paths ?? [], actions: role?.actions ?? [] },
  });
  const { errors, isSubmitted } = form.formState;
  const [paths, actions] = useWatch({ control: form.control, name: ['paths', 'actions'] });
  const grantsError = firstMessage(errors.paths) ?? firstMessage(errors.actions);
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    if (outcome) showServerError(form, outcome.error);
  });
  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput label={L.roles.name} groupClassName="mb-3" error={errors.nombre?.message} {...form.register('nombre')} />
      <PermissionTree
        idPrefix="role"
        paths={paths}
        actions={actions}
        onChange={(next) => {
          form.setValue('paths', next.paths, { shouldDirty: true, shouldValidate: isSubmitted });
          form.setValue('actions', next.actions, { shouldDirty: true, shouldValidate: isSubmitted });
        }}
      />
      {grantsError && (
        <div className="invalid-feedback d-block" role="alert">
          {grantsError}
        </div>
      )}
    </Form>
  );
}
