import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { DATA_TABLE_LABELS as L } from '../../shared/constants/labels';

export interface LoadErrorProps {
  /** What could not be loaded; 'No se pudo cargar la información' by default. */
  message?: string;
  onRetry?: () => void;
}

/** Something the page needs could not be loaded: the message and 'Reintentar'. */
export function LoadError({ message = L.loadError, onRetry }: LoadErrorProps) {
  return (
    <Alert variant="danger" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
      <span>{message}</span>
      {onRetry && (
        <Button variant="outline-danger" size="sm" onClick={onRetry}>
          {L.retry}
        </Button>
      )}
    </Alert>
  );
}
