import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import { LABELS } from '../../shared/constants/labels';
import { displayValue } from './EmptyValue';
import { toastError, toastSuccess } from './toast';

export interface CopyTextProps {
  /** The text shown and copied. When empty, '-' is shown and there is nothing to copy. */
  text: string | null | undefined;
  /** What the text is, e.g. 'IMEI': names the button and the toast. */
  label: string;
  className?: string;
  /** What is shown instead of the plain text (e.g. a link to the record); the text is still what is copied. */
  children?: ReactNode;
}

/** Copies `text` to the clipboard; toasts `copiedMessage`, or that the clipboard is unavailable. */
export async function copyToClipboard(text: string, copiedMessage: string): Promise<void> {
  const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  try {
    if (!clipboard?.writeText) throw new Error('no clipboard');
    await clipboard.writeText(text);
    toastSuccess(copiedMessage);
  } catch {
    toastError(LABELS.clipboardUnavailable);
  }
}

/** Copies `text`; toasts '<label> <text> copiado' (reference §5), or an error. */
const copy = (text: string, label: string) => copyToClipboard(text, LABELS.copied(label, text));

/** A text with a button that copies it to the clipboard. */
export function CopyText({ text, label, className, children }: CopyTextProps) {
  const copyLabel = LABELS.copyLabel(label);
  return (
    <span className={['d-inline-flex align-items-center gap-1', className].filter(Boolean).join(' ')}>
      {text && children !== undefined ? children : <span>{displayValue(text)}</span>}
      {text ? (
        <Button variant="link" size="sm" className="p-0 lh-1" aria-label={copyLabel} title={copyLabel} onClick={() => void copy(text, label)}>
          <i className="bi bi-clipboard" aria-hidden="true" />
        </Button>
      ) : null}
    </span>
  );
}
