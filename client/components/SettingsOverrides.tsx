import { Link } from 'react-router-dom';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import type { SettingsOverride } from '../../shared/contracts/agentSettings';

const L = AGENT_SETTINGS_LABELS.overrides;

export interface SettingsOverridesProps {
  /** The groups; without `keys` (the collection policy's) a group shows its name only. */
  overrides: readonly (Omit<SettingsOverride, 'keys'> & { keys?: SettingsOverride['keys'] })[];
  /** The section page: each group links to its scope there (absent: names only). */
  pagePath?: string;
  /** The label of a value a group sets: with it, the labels show under the group's name (without, only how many). */
  keyLabel?: (key: string) => string;
}

/** The groups that override a section: name (a link to its scope) and, when known, how many values, with their labels. */
export function SettingsOverrides({ overrides, pagePath, keyLabel }: SettingsOverridesProps) {
  if (overrides.length === 0) return <p className="small mb-0">{L.none}</p>;
  return (
    <ul className="list-unstyled mb-0" data-testid="settings-overrides">
      {overrides.map((o) => (
        <li key={o.groupId} className="mb-2">
          {pagePath ? <Link to={`${pagePath}?groupId=${o.groupId}`}>{o.groupName}</Link> : <span className="fw-semibold">{o.groupName}</span>}{' '}
          {o.keys && <span className="badge text-bg-primary">{L.values(o.keys.length)}</span>}
          {keyLabel && o.keys && <div className="small text-body-secondary text-break">{o.keys.map(keyLabel).join(', ')}</div>}
        </li>
      ))}
    </ul>
  );
}
