import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { LABELS } from '../../shared/constants/labels';
import { SPEC_TEXT } from '../../shared/messages';
import type { AppModalProps } from './AppModal';
import { LoadingButton } from './LoadingButton';

/** AppModal's dialog: a react-bootstrap Modal with the default buttons of reference §2, 'Guardar' and 'Cancelar' (a read-only one: 'Cerrar' only). */
export function AppModalDialog({
  show,
  title,
  children,
  onClose,
  onConfirm,
  formId,
  confirmLabel = SPEC_TEXT.save,
  cancelLabel = SPEC_TEXT.cancel,
  confirmVariant = 'primary',
  loading = false,
  size,
  readOnly = false,
}: AppModalProps) {
  const titleId = useId();
  return (
    <Modal show={show} onHide={onClose} aria-labelledby={titleId} size={size} centered>
      <Modal.Header closeButton closeLabel={LABELS.close}>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        {readOnly ? (
          <Button variant="primary" onClick={onClose}>
            {LABELS.close}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose}>
              {cancelLabel}
            </Button>
            <LoadingButton variant={confirmVariant} loading={loading} type={formId ? 'submit' : 'button'} form={formId} onClick={onConfirm}>
              {confirmLabel}
            </LoadingButton>
          </>
        )}
      </Modal.Footer>
    </Modal>
  );
}
