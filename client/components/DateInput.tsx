import { useId, useState } from 'react';
import Form from 'react-bootstrap/Form';
import { LABELS } from '../../shared/constants/labels';

const DAY_TEXT = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** 'dd/mm/aaaa' (one-digit day and month too) as 'yyyy-mm-dd', or undefined when it is no calendar day. */
export function parseDayText(text: string): string | undefined {
  const m = DAY_TEXT.exec(text.trim());
  if (!m) return undefined;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) return undefined;
  return `${m[3]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** 'yyyy-mm-dd' as 'dd/mm/aaaa' (anything else as it is). */
export function dayText(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

const DATE_TIME_TEXT = /^(\d{1,2}\/\d{1,2}\/\d{4})\s+(\d{1,2}):(\d{2})$/;

/**
 * 'dd/mm/aaaa hh:mm' (24 h, the browser's time zone) as the instant it names, or undefined when
 * it is no such text. The date-and-time fields are text fields, so they read alike in every
 * browser language (a datetime-local input follows the browser's: mm/dd/yyyy, hh:mm AM in English).
 */
export function parseDateTimeText(text: string): Date | undefined {
  const m = DATE_TIME_TEXT.exec(text.trim());
  const day = m && parseDayText(m[1]!);
  if (!m || !day) return undefined;
  const [hours, minutes] = [Number(m[2]), Number(m[3])];
  if (hours > 23 || minutes > 59) return undefined;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, hours, minutes);
}

/** An instant as 'dd/mm/aaaa hh:mm' in the browser's time zone. */
export function dateTimeText(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(at.getDate())}/${pad(at.getMonth() + 1)}/${at.getFullYear()} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A date-and-time text as the ISO instant an API takes; a text that is none is passed on as typed, for the schema to refuse naming the field. */
export function dateTimeInstant(text: string): string {
  return parseDateTimeText(text)?.toISOString() ?? text;
}

/**
 * A date typed and shown as dd/mm/aaaa whatever the browser's language (a native date input
 * follows the browser's: mm/dd/yyyy in English). `value` and `onChange` speak 'yyyy-mm-dd'; '' is
 * no date; a text that is not a date is reported as typed (the form refuses it) and marked invalid.
 */
export function DateInput({
  value,
  onChange,
  size,
  describedBy,
}: {
  value: string;
  onChange: (value: string) => void;
  size?: 'sm' | 'lg';
  describedBy?: string;
}) {
  const [text, setText] = useState(() => dayText(value));
  // A value set from outside (a cleared filter, the URL) replaces the text unless it already says it.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    const says = parseDayText(text) === value || text === value || (text.trim() === '' && value === '');
    if (!says) setText(dayText(value));
  }
  const invalid = text.trim() !== '' && parseDayText(text) === undefined;
  // The control's id comes from its Form.Group's controlId (which labels it).
  const errorId = useId();
  return (
    <>
      <Form.Control
        size={size}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder={LABELS.datePlaceholder}
        value={text}
        isInvalid={invalid}
        aria-invalid={invalid || undefined}
        aria-describedby={[invalid ? errorId : undefined, describedBy].filter(Boolean).join(' ') || undefined}
        onChange={(e) => {
          const next = e.target.value;
          setText(next);
          onChange(next.trim() === '' ? '' : (parseDayText(next) ?? next));
        }}
      />
      {invalid && (
        <Form.Control.Feedback type="invalid" id={errorId}>
          {LABELS.dateInvalid}
        </Form.Control.Feedback>
      )}
    </>
  );
}
