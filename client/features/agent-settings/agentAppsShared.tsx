import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router-dom';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { PATHS } from '../../../shared/constants/routes';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { formatDateTime } from '../../components/formatDate';

const C = AGENT_APPS_LABELS.common;

/* Pieces shared by the agent apps pages (business apps, lock app). */

/**
 * A whole number typed in a text input: the number, undefined when empty (the schema's
 * 'obligatorio'), else the text itself (the schema's 'debe ser un número entero').
 */
export const integerInput = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (t === '') return undefined;
  return /^\d{1,10}$/.test(t) ? Number(t) : t;
};

/** The code of a select of numbers: undefined for the empty option. */
export const codeInput = (v: unknown): unknown => (v === '' || v === null || v === undefined ? undefined : Number(v));

/** '{text} «{action}» desde {la página de dispositivos}.', the page a link when the profile holds it. */
export function DeviceActionNote({ text, action }: { text: string; action: string }) {
  const { allowed } = useCurrentUser();
  return (
    <Alert variant="info" className="small d-flex gap-2 align-items-start">
      <i className="bi bi-info-circle mt-1" aria-hidden="true" />
      <span>
        {text} «{action}» {C.from}{' '}
        {allowed.has(PATHS.devices) ? (
          <Link to={PATHS.devices} className="alert-link">
            {C.devicesPage}
          </Link>
        ) : (
          C.devicesPage
        )}
        .
      </span>
    </Alert>
  );
}

/** The last change: its date and time, and who made it. */
export function ChangedCell({ at, by }: { at: string; by: string | null }) {
  return (
    <>
      <span>{formatDateTime(at)}</span>
      {by && <div className="small text-body-secondary text-break">{C.updatedBy(by)}</div>}
    </>
  );
}
