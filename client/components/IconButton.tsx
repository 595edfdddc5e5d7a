import Button from 'react-bootstrap/Button';
import type { ButtonProps } from 'react-bootstrap/Button';

/** A row action: a bootstrap-icons glyph with an accessible label and a tooltip title. */
export function IconButton({
  icon,
  label,
  title,
  ...props
}: { icon: string; label: string; title: string } & Omit<ButtonProps, 'children' | 'title'>) {
  return (
    <Button aria-label={label} title={title} {...props}>
      <i className={`bi bi-${icon}`} aria-hidden="true" />
    </Button>
  );
}
