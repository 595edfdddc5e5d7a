import Form from 'react-bootstrap/Form';
import type * as z from 'zod';
import { groupBody, type Group, type GroupBody } from '../../../shared/contracts/groups';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';

const L = INVENTORY_LABELS.groups;
const FORM_ID = 'group-form';

type GroupFormValues = z.input<typeof groupBody>;

/** The name and description of a group, validated with the API's `groupBody`. */
function GroupForm({ group, onSubmit }: { group?: Group; onSubmit: (body: GroupBody) => Promise<SaveOutcome> }) {
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
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput label={L.name} groupClassName="mb-3" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextInput label={L.descriptionOptional} autoComplete="off" error={errors.description?.message} {...form.register('description')} />
    </Form>
  );
}

/** Create or rename a group. */
export function GroupFormModal({ onSubmit, ...modal }: EntityFormModalOf<Group, GroupBody>) {
  return (
    <EntityFormModal {...modal} createTitle={L.createTitle} editTitle={L.renameTitle} formId={FORM_ID}>
      {(group) => <GroupForm group={group} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
