import { useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import type { ButtonProps } from 'react-bootstrap/Button';
import { errorMessage } from '../api/apiErrors';
import type { ApiError } from '../api/axiosBaseQuery';
import { AppModal } from './AppModal';

/**
 * What a confirmed action answers: nothing when it worked (the caller closes the dialog), or the
 * call's result as RTK Query answers it, whose `error`, when there is one, the dialog shows.
 */
export type ConfirmOutcome = { error?: unknown } | undefined | void;

export interface ConfirmModalProps {
  show: boolean;
  title: ReactNode;
  /** The question, shown as the body's paragraph. */
  message?: ReactNode;
  /** More of the body, after the message (or instead of it). */
  children?: ReactNode;
  confirmLabel: ReactNode;
  cancelLabel?: ReactNode;
  /** 'danger' unless told otherwise: the dialog confirms something that cannot be undone. */
  confirmVariant?: ButtonProps['variant'];
  /** While true the confirm button is disabled and shows 'Cargando...'. */
  loading?: boolean;
  /** Nothing left to confirm (the body says why): 'Cerrar' only. */
  readOnly?: boolean;
  /** The cancel button, the close button, Escape and the backdrop. */
  onClose: () => void;
  /** Runs the confirmed action; a failed call's message stays in the dialog until the next attempt. */
  onConfirm: () => ConfirmOutcome | Promise<ConfirmOutcome>;
  /** The test id of the server's error in the dialog. */
  errorTestId?: string;
}

/**
 * A confirmation over AppModal: the question, a confirm button (red unless told otherwise) and
 * 'Cancelar'. A refusal of the server is toasted by the API layer and also shown here, next to
 * the buttons, while the dialog stays open.
 */
export function ConfirmModal({
  show,
  title,
  message,
  children,
  confirmLabel,
  cancelLabel,
  confirmVariant = 'danger',
  loading = false,
  readOnly = false,
  onClose,
  onConfirm,
  errorTestId = 'confirm-error',
}: ConfirmModalProps) {
  const [error, setError] = useState<string | null>(null);
  // A dialog opened again starts without the last opening's error.
  const [open, setOpen] = useState(show);
  if (open !== show) {
    setOpen(show);
    if (show) setError(null);
  }

  const confirm = async () => {
    setError(null);
    const outcome = await onConfirm();
    if (outcome && outcome.error !== undefined) setError(errorMessage(outcome.error as ApiError));
  };

  return (
    <AppModal
      show={show}
      title={title}
      confirmLabel={confirmLabel}
      cancelLabel={cancelLabel}
      confirmVariant={confirmVariant}
      // A shown error means the call is over, even while the store's answer is still on its way to the caller.
      loading={loading && error === null}
      readOnly={readOnly}
      onClose={onClose}
      onConfirm={() => void confirm()}
    >
      {message != null && <p className="mb-0 text-break">{message}</p>}
      {children}
      {error && !readOnly && (
        <Alert variant="danger" className="mt-3 mb-0" role="alert" data-testid={errorTestId}>
          {error}
        </Alert>
      )}
    </AppModal>
  );
}
