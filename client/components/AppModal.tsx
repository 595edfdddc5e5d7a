import { Suspense, useState, type ReactNode } from 'react';
import type { ButtonProps } from 'react-bootstrap/Button';
import type { ModalProps } from 'react-bootstrap/Modal';
import { lazyChunk } from '../app/lazyPage';
import { useIdlePrefetch } from './useIdlePrefetch';

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

/**
 * The dialog itself (react-bootstrap's Modal and its transitions, some 4 KB gzipped) in a chunk of
 * its own: no page's first load carries it, and every page fetches it once it is idle.
 */
export const APP_MODAL = lazyChunk<AppModalProps>('client/components/AppModalDialog.tsx', () =>
  import('./AppModalDialog').then((m) => ({ default: m.AppModalDialog })),
);

/**
 * The portal's dialog, with the default buttons of reference §2, 'Guardar' and 'Cancelar' (a
 * read-only one: 'Cerrar' only). Nothing is drawn before it is first shown; from then on the
 * dialog stays mounted, so it fades out when it closes.
 */
export function AppModal(props: AppModalProps) {
  useIdlePrefetch(APP_MODAL);
  const [opened, setOpened] = useState(props.show);
  if (props.show && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <APP_MODAL.Component {...props} />
    </Suspense>
  );
}
