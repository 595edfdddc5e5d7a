import CloseButton from 'react-bootstrap/CloseButton';
import { ToastContainer, type CloseButtonProps } from 'react-toastify/unstyled';
import { LABELS } from '../../shared/constants/labels';
import { TOAST_OPTIONS } from './toast';

function ToastCloseButton({ closeToast }: CloseButtonProps) {
  return <CloseButton className="ms-2 flex-shrink-0" aria-label={LABELS.close} onClick={closeToast} />;
}

/** The one toast container of the portal; render it once, inside the layout. */
export function PortalToastContainer() {
  return <ToastContainer {...TOAST_OPTIONS} aria-label={LABELS.notifications} closeButton={ToastCloseButton} />;
}
