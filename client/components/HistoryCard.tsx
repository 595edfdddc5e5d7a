import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Collapse from 'react-bootstrap/Collapse';
import { AGENT_SETTINGS_LABELS } from '../../shared/constants/agentSettingsLabels';
import { displayValue } from './EmptyValue';
import { formatDateTime } from './formatDate';

const L = AGENT_SETTINGS_LABELS.history;

/** A saved version of a scope (the agent settings' or the collection policy's). */
export interface HistoryEntry<C extends { key: string }> {
  version: number;
  changedAt: string;
  changedBy: string | null;
  changes: readonly C[];
}

export interface HistoryCardProps<C extends { key: string }> {
  entries: readonly HistoryEntry<C>[];
  /** One change in words. */
  describe: (change: C) => string;
}

/** 'Historial de cambios' of a scope, collapsed at first: each saved version, when, who, and what changed. */
export function HistoryCard<C extends { key: string }>({ entries, describe }: HistoryCardProps<C>) {
  const id = useId();
  const [open, setOpen] = useState(false);
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
                        <li key={c.key}>{describe(c)}</li>
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
