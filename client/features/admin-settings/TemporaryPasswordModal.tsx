import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useId } from 'react';
import { ADMIN_LABELS as L } from '../../../shared/constants/adminLabels';
import { CopyText } from '../../components/CopyText';

/** Shows a temporary password once, with a copy button and the first sign-in note. */
export function TemporaryPasswordModal({ shown, onClose }: { shown: { correo: string; password?: string } | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Modal show={shown !== null} onHide={onClose} aria-labelledby={titleId} centered>
      <Modal.Header closeButton closeLabel={L.close}>
        <Modal.Title id={titleId}>{L.admins.temporaryPasswordTitle}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {shown?.password ? (
          <>
            <p className="mb-2">{L.admins.temporaryPasswordFor(shown.correo)}</p>
            <p className="fs-5 font-monospace" data-testid="temporary-password">
              <CopyText text={shown.password} label={L.admins.temporaryPasswordLabel} />
            </p>
            <Alert variant="warning" className="mb-0">
              {L.admins.temporaryPasswordNote}
            </Alert>
          </>
        ) : (
          <p className="mb-0">{L.admins.noTemporaryPassword}</p>
        )}
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          {L.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
