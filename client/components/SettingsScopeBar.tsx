import { useId } from 'react';
import Form from 'react-bootstrap/Form';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import type { Group } from '../../shared/contracts/groups';

const L = AGENT_SETTINGS_LABELS.scope;

/** `?groupId=`: a group's id, or undefined (Global) for anything else. */
export function groupIdParam(raw: string | null): number | undefined {
  if (raw === null || !/^[1-9]\d{0,9}$/.test(raw)) return undefined;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : undefined;
}

export interface SettingsScopeBarProps {
  /** The group shown; undefined for Global. */
  groupId: number | undefined;
  /** Every device group (undefined while they load). */
  groups: readonly Pick<Group, 'id' | 'name'>[] | undefined;
  groupsError: boolean;
  /** A new scope was chosen (undefined: Global). */
  onChange: (groupId: number | undefined) => void;
}

/**
 * The select 'Ámbito' at the top of a section page (agent settings, collection policy): 'Global' (what every device gets) or a
 * device group (its overrides over Global), with a sentence saying what the scope means.
 */
export function SettingsScopeBar({ groupId, groups, groupsError, onChange }: SettingsScopeBarProps) {
  const id = useId();
  const group = groupId === undefined ? undefined : groups?.find((g) => g.id === groupId);
  // A group in the URL is an option even before (or without) the list, so the select shows it.
  const listed = groups ?? [];
  const options = groupId !== undefined && !listed.some((g) => g.id === groupId) ? [...listed, { id: groupId, name: `#${groupId}` }] : listed;
  return (
    <div className="d-flex flex-wrap align-items-center gap-2 gap-md-3 mb-3 p-3 bg-body border rounded" data-testid="settings-scope">
      <Form.Label htmlFor={id} className="mb-0 fw-semibold">
        {L.label}
      </Form.Label>
      <Form.Select
        id={id}
        className="w-auto"
        style={{ minWidth: '12rem', maxWidth: '100%' }}
        value={groupId === undefined ? '' : String(groupId)}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      >
        <option value="">{L.global}</option>
        {options.map((g) => (
          <option key={g.id} value={g.id}>
            {g.name}
          </option>
        ))}
      </Form.Select>
      <p className="small text-body-secondary mb-0 flex-grow-1" style={{ minWidth: '14rem' }} id={`${id}-hint`}>
        {groupId === undefined ? L.globalHint : L.groupHint(group?.name ?? `#${groupId}`)}
        {groupsError && <span className="d-block text-danger">{L.groupsLoadError}</span>}
      </p>
    </div>
  );
}
