import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { GROUP_DESCRIPTION_MAX, GROUP_NAME_MAX, groupBody, type Group, type GroupBody } from '../../../shared/contracts/devices';
import { INVENTORY_MESSAGES as M } from '../../../shared/messages';
import { AppModal } from '../../components/AppModal';
import { TextInput } from '../../components/TextInput';
import { zodFormResolver } from '../../components/zodFormResolver';
import type { SaveOutcome } from './DeviceForm';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';

const L = INVENTORY_LABELS.groups;
const FORM_ID = 'group-form';

interface GroupFormValues {
  name: string;
  description: string;
}

/** The name and description of a group, validated with the API's `groupBody`. */
function GroupForm({ group, onSubmit }: { group?: Group; onSubmit: (body: GroupBody) => Promise<SaveOutcome> }) {
  const form = useForm<GroupFormValues>({
    resolver: zodFormResolver<GroupFormValues>(groupBody),
    defaultValues: { name: group?.name ?? '', description: group?.description ?? '' },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    const outcome = await onSubmit(values as unknown as GroupBody);
    if (!outcome?.error) return;
    // 409 'Ya existe un grupo con ese nombre', or a 400 naming a field.
    const field = outcome.error === M.groups.nameTaken ? 'name' : /^El campo (name|description)\b/.exec(outcome.error)?.[1];
    if (field === 'name' || field === 'description') form.setError(field, { type: 'server', message: outcome.error }, { shouldFocus: true });
  });
  return (
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput
        label={L.name}
        groupClassName="mb-3"
        autoComplete="off"
        maxLength={GROUP_NAME_MAX}
        error={errors.name?.message}
        {...form.register('name')}
      />
      <TextInput
        label={L.descriptionOptional}
        autoComplete="off"
        maxLength={GROUP_DESCRIPTION_MAX}
        error={errors.description?.message}
        {...form.register('description')}
      />
    </Form>
  );
}

export interface GroupFormModalProps {
  /** 'new' to create one, a group to rename it, null when closed. */
  editing: Group | 'new' | null;
  loading: boolean;
  onClose: () => void;
  onSubmit: (body: GroupBody) => Promise<SaveOutcome>;
}

/** Create or rename a group (AppModal with 'Guardar' / 'Cancelar'). */
export function GroupFormModal({ editing, loading, onClose, onSubmit }: GroupFormModalProps) {
  return (
    <AppModal show={editing !== null} title={editing === 'new' ? L.createTitle : L.renameTitle} formId={FORM_ID} loading={loading} onClose={onClose}>
      {editing !== null && <GroupForm key={editing === 'new' ? 'new' : editing.id} group={editing === 'new' ? undefined : editing} onSubmit={onSubmit} />}
    </AppModal>
  );
}
