import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import type { ButtonProps } from 'react-bootstrap/Button';
import { SPEC_TEXT } from '../../shared/messages';

export interface LoadingButtonProps extends ButtonProps {
  /** While true the button is disabled and shows a spinner and 'Cargando...'. */
  loading?: boolean;
}

/** A react-bootstrap Button that shows 'Cargando...' while its action runs (reference §2). */
export function LoadingButton({ loading = false, disabled, children, ...props }: LoadingButtonProps) {
  return (
    <Button {...props} disabled={disabled || loading} aria-busy={loading || undefined}>
      {loading ? (
        <>
          <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          {SPEC_TEXT.loading}
        </>
      ) : (
        children
      )}
    </Button>
  );
}
