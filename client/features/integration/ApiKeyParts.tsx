import { useId, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { copyToClipboard } from '../../components/CopyText';

/* Pieces shared by the API keys and webhooks pages. */

const C = INTEGRATION_LABELS.common;

/**
 * Copies a secret. Unlike CopyText, the toast names what was copied without repeating it: a
 * secret shown once must not stay on the screen in a toast after its dialog is closed.
 */
const copySecret = (text: string, what: string) => copyToClipboard(text, C.copied(what));

/** A secret shown once: a read-only field (selectable by hand) with a copy button. */
export function SecretValue({ value, label, testId }: { value: string; label: string; testId: string }) {
  const id = useId();
  return (
    <Form.Group controlId={id} className="mb-3">
      <Form.Label className="fw-semibold">{label}</Form.Label>
      <div className="d-flex gap-2">
        <Form.Control
          readOnly
          value={value}
          className="font-monospace"
          spellCheck={false}
          data-testid={testId}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Button variant="outline-primary" className="text-nowrap" onClick={() => void copySecret(value, label)}>
          <i className="bi bi-clipboard me-1" aria-hidden="true" />
          {C.copy}
          <span className="visually-hidden"> {label}</span>
        </Button>
      </div>
    </Form.Group>
  );
}

/** A text block (a command line) with a copy button. */
export function CopyBlock({ text, label, testId }: { text: string; label: string; testId: string }) {
  return (
    <div className="position-relative">
      <pre className="bg-body-secondary border rounded p-2 pe-5 mb-0 small text-break" style={{ whiteSpace: 'pre-wrap' }} data-testid={testId}>
        <code>{text}</code>
      </pre>
      <Button
        variant="link"
        size="sm"
        className="position-absolute top-0 end-0 m-1 p-1 lh-1"
        aria-label={C.copyOf(label)}
        title={C.copyOf(label)}
        onClick={() => void copySecret(text, label)}
      >
        <i className="bi bi-clipboard" aria-hidden="true" />
      </Button>
    </div>
  );
}

/** A dialog that shows a secret once: its title, the secret, the warning and what follows; one 'Ya la copié, cerrar' button. */
export function SecretModal({
  show,
  title,
  onClose,
  children,
  testId,
}: {
  show: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId: string;
}) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId} size="lg" centered backdrop="static" data-testid={testId}>
      <Modal.Header closeButton closeLabel={C.close}>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          {C.secretUnderstood}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
