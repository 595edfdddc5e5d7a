import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import { settingField, type SettingsSection } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import type { DeviceTypeCode } from '../../../shared/constants/domain';
import type { SettingsChange } from '../../../shared/contracts/agentSettings';
import { displayValue } from '../../components/EmptyValue';
import { formatDateTime } from '../../components/formatDate';
import { formatSettingValue } from './settingsForm';

const L = AGENT_SETTINGS_LABELS.history;

/** One change in words: 'Etiqueta: antes → después' (an absent value is the default, or for a group the inherited one). */
export function changeText(change: SettingsChange['changes'][number], deviceType: DeviceTypeCode, isGroup: boolean): string {
  const field = settingField(change.key);
  const unset = isGroup ? L.inheritedValue : field ? L.defaultOf(formatSettingValue(field, field.defaults[deviceType])) : L.defaultValue;
  const side = (v: SettingsChange['changes'][number]['before']) => (v === undefined ? unset : formatSettingValue(field, v));
  return `${field?.label ?? change.key}: ${side(change.before)} ${L.arrow} ${side(change.after)}`;
}

export interface SettingsHistoryProps {
  history: readonly SettingsChange[];
  deviceType: DeviceTypeCode;
  section: SettingsSection;
  isGroup: boolean;
}

/** 'Historial de cambios' of a scope, collapsed at first: each saved version, when, who, and what changed. */
export function SettingsHistory({ history, deviceType, section, isGroup }: SettingsHistoryProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const entries = history
    .map((h) => ({ ...h, changes: h.changes.filter((c) => settingField(c.key)?.section === section.key) }))
    .filter((h) => h.changes.length > 0);
  return (
    <Card className="mb-3" data-testid="settings-history">
      <Card.Header className="p-0 bg-body">
        <h2 className="h6 mb-0">
          <Button
            variant="link"
            className="w-100 text-start text-decoration-none d-flex align-items-center gap-2 px-3 py-2"
            aria-expanded={open}
            aria-controls={id}
            onClick={() => setOpen((o) => !o)}
          >
            <i className={`bi bi-chevron-${open ? 'down' : 'right'}`} aria-hidden="true" />
            <span>{L.title}</span>
            <span className="badge text-bg-secondary ms-auto">{entries.length}</span>
          </Button>
        </h2>
      </Card.Header>
      <Collapse in={open}>
        <div id={id}>
          <Card.Body>
            {entries.length === 0 ? (
              <p className="mb-0 small">{L.empty}</p>
            ) : (
              <ol className="list-unstyled mb-0">
                {entries.map((h) => (
                  <li key={h.version} className="mb-3" data-testid={`history-${h.version}`}>
                    <div className="small text-body-secondary">
                      <strong className="text-body">{L.version(h.version)}</strong> ·{' '}
                      <time dateTime={h.changedAt}>{formatDateTime(h.changedAt)}</time>
                      {' · '}
                      {L.by(displayValue(h.changedBy))}
                    </div>
                    <ul className="small mb-0 ps-3 text-break">
                      {h.changes.map((c) => (
                        <li key={c.key}>{changeText(c, deviceType, isGroup)}</li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ol>
            )}
          </Card.Body>
        </div>
      </Collapse>
    </Card>
  );
}
