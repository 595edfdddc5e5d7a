import Alert from 'react-bootstrap/Alert';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { INTEGRATION_BASE } from '../../../shared/constants/apiPaths';
import { CopyBlock, SecretModal, SecretValue } from './ApiKeyParts';

const C = INTEGRATION_LABELS.common;
const L = INTEGRATION_LABELS.apiKeys;

/** The curl line that looks up a device with the key. */
export function curlExample(secret: string, origin: string): string {
  return `curl -H "Authorization: Bearer ${secret}" "${origin}${INTEGRATION_BASE}/devices?imei=..."`;
}

/** The key just created: its secret once, the warning, and a ready-to-paste curl example. */
export function ApiKeySecretModal({ created, onClose }: { created: { name: string; secret: string } | null; onClose: () => void }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <SecretModal show={created !== null} title={L.secretTitle} onClose={onClose} testId="api-key-secret-dialog">
      {created && (
        <>
          <p>{L.secretFor(created.name)}</p>
          <SecretValue value={created.secret} label={L.secretLabel} testId="api-key-secret" />
          <Alert variant="warning" className="d-flex gap-2 align-items-start">
            <i className="bi bi-exclamation-triangle-fill mt-1" aria-hidden="true" />
            <strong>{C.secretOnce}</strong>
          </Alert>
          <h3 className="h6">{L.curlTitle}</h3>
          <p className="small mb-2">{L.curlHelp}</p>
          <CopyBlock text={curlExample(created.secret, origin)} label={L.curlLabel} testId="api-key-curl" />
        </>
      )}
    </SecretModal>
  );
}
