import Button from 'react-bootstrap/Button';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import { SPEC_TEXT } from '../../shared/messages';
import { ConfirmModal } from './ConfirmModal';
import { LoadingButton } from './LoadingButton';

const L = AGENT_SETTINGS_LABELS.form;

export interface ScopedSaveBarProps {
  /** A save or a removal is running. */
  saving: boolean;
  /** The form differs from what was loaded (*Cancelar* resets it). */
  dirty: boolean;
  onCancel: () => void;
  /** A group's scope with overrides: *Quitar personalización del grupo* is offered. */
  canRemove: boolean;
  /** The confirmation of the removal is open. */
  confirmRemove: boolean;
  onConfirmRemoveChange: (open: boolean) => void;
  /** The confirmation's question, naming the group and what it overrides. */
  removeQuestion: string;
  onRemove: () => void;
}

/**
 * The bottom bar of a settings form with a global scope and group overrides (the agent settings,
 * the collection policy): *Guardar*, *Cancelar*, and the removal of the group's overrides, confirmed.
 */
export function ScopedSaveBar(p: ScopedSaveBarProps) {
  return (
    <>
      <div className="sticky-bottom bg-body border rounded p-2 d-flex flex-wrap gap-2 align-items-center">
        <LoadingButton type="submit" loading={p.saving && !p.confirmRemove}>
          {SPEC_TEXT.save}
        </LoadingButton>
        <Button variant="secondary" disabled={!p.dirty || p.saving} onClick={p.onCancel}>
          {SPEC_TEXT.cancel}
        </Button>
        {p.canRemove && (
          <Button variant="outline-danger" className="ms-md-auto" disabled={p.saving} onClick={() => p.onConfirmRemoveChange(true)}>
            {L.removeOverride}
          </Button>
        )}
      </div>
      <ConfirmModal
        show={p.confirmRemove}
        title={L.removeOverrideTitle}
        message={p.removeQuestion}
        confirmLabel={L.removeOverrideConfirm}
        loading={p.saving}
        onClose={() => p.onConfirmRemoveChange(false)}
        onConfirm={p.onRemove}
      />
    </>
  );
}
