import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import type { Group } from '../../../shared/contracts/groups';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages/inventory';
import { ConfirmModal, type ConfirmOutcome } from '../../components/ConfirmModal';
import { GroupOptions } from './GroupOptions';
import { GROUP_LABELS } from '../../../shared/constants/groupLabels';

const L = GROUP_LABELS;

export interface GroupDeleteModalProps {
  /** The group to delete; null when closed. */
  group: Group | null;
  /** Every group (the destinations are the others). */
  groups: readonly Pick<Group, 'id' | 'name'>[];
  loading: boolean;
  onClose: () => void;
  /** `moveTo` is set when the group has devices: they move there before it is deleted. */
  onConfirm: (moveTo: number | undefined) => ConfirmOutcome | Promise<ConfirmOutcome>;
}

/** The destination select and the confirmation, for one group (remounted per group). */
function DeleteBody({ group, groups, loading, onClose, onConfirm }: GroupDeleteModalProps & { group: Group }) {
  const selectId = useId();
  const [moveTo, setMoveTo] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const hasDevices = group.deviceCount > 0;
  const others = groups.filter((g) => g.id !== group.id);

  const confirm = () => {
    if (!hasDevices) return onConfirm(undefined);
    if (others.length === 0) {
      setError(L.noOtherGroup);
      return;
    }
    if (!moveTo) {
      setError(L.moveToRequired);
      document.getElementById(selectId)?.focus();
      return;
    }
    return onConfirm(Number(moveTo));
  };

  return (
    <ConfirmModal show title={L.deleteTitle} confirmLabel={L.delete} loading={loading} onClose={onClose} onConfirm={confirm}>
      {!hasDevices ? (
        <p className="mb-0">{L.confirmDelete(group.name)}</p>
      ) : (
        <>
          <p>{L.confirmDelete(group.name)}</p>
          <Alert variant="warning">{M.groups.notEmpty(group.deviceCount)}</Alert>
          {others.length === 0 ? (
            <p className="mb-0 text-danger-emphasis" role={error ? 'alert' : undefined} data-testid="group-no-destination">
              {L.noOtherGroup}
            </p>
          ) : (
            <Form.Group controlId={selectId}>
              <Form.Label>{L.moveTo}</Form.Label>
              <Form.Select
                required
                aria-required="true"
                value={moveTo}
                isInvalid={Boolean(error)}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${selectId}-error` : undefined}
                onChange={(e) => {
                  setMoveTo(e.target.value);
                  if (e.target.value) setError(undefined);
                }}
              >
                <option value="">{L.selectGroup}</option>
                <GroupOptions groups={others} />
              </Form.Select>
              {error && (
                <Form.Control.Feedback type="invalid" id={`${selectId}-error`}>
                  {error}
                </Form.Control.Feedback>
              )}
            </Form.Group>
          )}
        </>
      )}
    </ConfirmModal>
  );
}

/**
 * Deleting a group: an empty group is deleted after a confirmation; one with devices explains
 * it (INVENTORY_MESSAGES.groups.notEmpty) and requires another group to move them to.
 */
export function GroupDeleteModal(props: GroupDeleteModalProps) {
  const { group } = props;
  if (!group) return null;
  return <DeleteBody key={group.id} {...props} group={group} />;
}
