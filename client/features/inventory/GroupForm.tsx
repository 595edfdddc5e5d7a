import Form from 'react-bootstrap/Form';
import type * as z from 'zod';
import { groupBody, type Group, type GroupBody } from '../../../shared/contracts/groups';
import { showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { GROUP_LABELS } from '../../../shared/constants/groupLabels';

const L = GROUP_LABELS;

type GroupFormValues = z.input<typeof groupBody>;

export interface GroupFormProps {
  /** The id of the form, which the dialog's 'Guardar' submits. */
  formId: string;
  group?: Group;
  onSubmit: (body: GroupBody) => Promise<SaveOutcome>;
}

/** The name and description of a group, validated with the API's `groupBody`. */
export function GroupForm({ formId, group, onSubmit }: GroupFormProps) {
  const form = useContractForm<GroupFormValues, GroupBody>(groupBody, {
    defaultValues: { name: group?.name ?? '', description: group?.description ?? '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    // 409 'Ya existe un grupo con ese nombre' (field name), or a 400 naming a field.
    if (outcome) showServerError(form, outcome.error);
  });
  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput label={L.name} groupClassName="mb-3" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextInput label={L.descriptionOptional} autoComplete="off" error={errors.description?.message} {...form.register('description')} />
    </Form>
  );
}
