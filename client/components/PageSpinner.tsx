import Spinner from 'react-bootstrap/Spinner';
import { MESSAGES } from '../../shared/messages';

/** Centred spinner for content that is still loading. */
export function PageSpinner() {
  return (
    <div className="d-flex justify-content-center align-items-center py-5" role="status" aria-live="polite">
      <Spinner animation="border" variant="primary" aria-hidden="true" />
      <span className="visually-hidden">{MESSAGES.loading}</span>
    </div>
  );
}
