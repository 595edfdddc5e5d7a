import { useId, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import type { ButtonProps } from 'react-bootstrap/Button';
import type { ModalProps } from 'react-bootstrap/Modal';
import { LABELS } from '../../shared/constants/labels';
import { SPEC_TEXT } from '../../shared/messages';
import { LoadingButton } from './LoadingButton';

export interface AppModalProps {
  show: boolean;
  title: ReactNode;
  /** The modal body. */
  children?: ReactNode;
  /** Called by the cancel button, the close button, Escape and a click on the backdrop. */
  onClose: () => void;
  /** Called by the confirm button (not needed when `formId` submits a form instead). */
  onConfirm?: () => void;
  /** The confirm button submits the form with this id (a form inside the body). */
  formId?: string;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  confirmVariant?: ButtonProps['variant'];
  /** While true the confirm button is disabled and shows 'Cargando...'. */
  loading?: boolean;
  size?: ModalProps['size'];
  /** A dialog that only shows something: one 'Cerrar' button (calls onClose), no confirm and no cancel. */
  readOnly?: boolean;
}

/** A react-bootstrap Modal with the default buttons of reference §2, 'Guardar' and 'Cancelar' (a read-only one: 'Cerrar' only). */
export function AppModal({
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
