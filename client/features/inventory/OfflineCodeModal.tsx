import { useId } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { DEVICE_DETAIL_LABELS } from '../../../shared/constants/deviceDetailLabels';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { actionLabel } from '../../../shared/deviceActionRules';
import { CopyText } from '../../components/CopyText';
import { formatDateTime } from '../../components/formatDate';

const L = DEVICE_DETAIL_LABELS.offlineCode;

/** An offline code as the API answered it, with what it is for. */
export interface ShownOfflineCode {
  code: string;
  expiresAt: string;
  action: number;
  imei: string;
}

/**
 * Shows an offline code once: large, with a copy button and its expiry, and the warning that
 * it cannot be seen again. A click outside does not close it (only the buttons and Escape).
 */
export function OfflineCodeModal({ shown, onClose }: { shown: ShownOfflineCode | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Modal show={shown !== null} onHide={onClose} aria-labelledby={titleId} backdrop="static" centered>
      <Modal.Header closeButton closeLabel={INVENTORY_LABELS.common.close}>
        <Modal.Title id={titleId}>{L.title}</Modal.Title>
      </Modal.Header>
      {shown && (
        <Modal.Body>
          <p className="mb-2">{L.intro(actionLabel(shown.action), shown.imei)}</p>
          <p className="display-6 font-monospace mb-2" data-testid="offline-code">
            <CopyText text={shown.code} label={L.label} />
          </p>
          <p className="mb-3">{L.expires(formatDateTime(shown.expiresAt))}</p>
          <Alert variant="warning" className="mb-0">
            <i className="bi bi-exclamation-triangle me-2" aria-hidden="true" />
            {L.warning}
          </Alert>
        </Modal.Body>
      )}
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          {L.done}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
