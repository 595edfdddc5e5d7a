import Button from 'react-bootstrap/Button';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';

const L = AGENT_SETTINGS_LABELS.form;

export interface ScopeMarkerProps {
  testId: string;
  /** The value's label (for 'Usar valor global en …'). */
  label: string;
  overridden: boolean;
  /** The global value in words. */
  globalText: string;
  onUseGlobal: () => void;
}

/** The inherited marker of a value in a group's scope; the collection policy's page shows the same one. */
export function ScopeMarker({ testId, label, overridden, globalText, onUseGlobal }: ScopeMarkerProps) {
  return (
    <div className="d-flex flex-wrap align-items-center column-gap-2 small" data-testid={testId}>
      {overridden ? (
        <>
          <span className="badge text-bg-primary">{L.overridden}</span>
          <span className="text-body-secondary">{L.inheritedValue(globalText)}</span>
          <Button variant="link" size="sm" className="p-0 align-baseline" aria-label={L.backToGlobalOf(label)} onClick={onUseGlobal}>
            {L.backToGlobal}
          </Button>
        </>
      ) : (
        <span className="badge text-bg-light border">{L.inherited}</span>
      )}
    </div>
  );
}
