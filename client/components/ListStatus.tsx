import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { ADMIN_LABELS as L } from '../../shared/constants/adminLabels';
import { PageSpinner } from './PageSpinner';

/** Loading, error and empty states of a list; null when the list has rows to show. */
export function ListStatus({ loading, error, empty, onRetry }: { loading: boolean; error: boolean; empty: boolean; onRetry: () => void }) {
  if (loading) return <PageSpinner />;
  if (error)
    return (
      <Alert variant="danger" className="d-flex align-items-center justify-content-between">
        <span>{L.loadError}</span>
        <Button variant="outline-danger" size="sm" onClick={onRetry}>
          {L.retry}
        </Button>
      </Alert>
    );
  if (empty) return <p className="py-4 text-center mb-0">{L.noResults}</p>;
  return null;
}
