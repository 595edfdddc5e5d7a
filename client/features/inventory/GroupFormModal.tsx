import { GROUP_LABELS } from '../../../shared/constants/groupLabels';
import type { Group, GroupBody } from '../../../shared/contracts/groups';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { GROUP_FORM } from './dialogChunks';

const L = GROUP_LABELS;
const FORM_ID = 'group-form';

/** Create or rename a group. */
export function GroupFormModal({ onSubmit, ...modal }: EntityFormModalOf<Group, GroupBody>) {
  useIdlePrefetch(GROUP_FORM);
  return (
    <EntityFormModal {...modal} createTitle={L.createTitle} editTitle={L.renameTitle} formId={FORM_ID}>
      {(group) => <GROUP_FORM.Component formId={FORM_ID} group={group} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
