import { useId, useState, type ChangeEvent, type ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import Table from 'react-bootstrap/Table';
import Alert from 'react-bootstrap/Alert';
import type { ImportEncoding } from '../../shared/contracts/deviceImport';
import { CSV_IMPORT_MESSAGES } from '../../shared/areaMessages/csv';
import { displayValue } from './EmptyValue';
import { LoadingButton } from './LoadingButton';
import { IMPORT_MAX_BYTES } from '../../shared/constants/limits';
import { CSV_IMPORT_LABELS as L } from '../../shared/constants/csvImportLabels';

/**
 * The one way to import a CSV file (device registration, credit schedules and payments): the
 * template, the file choice, the server's dry run (preview) with the rows in error, then —
 * only on the administrator's explicit choice — the commit and its result. The file is sent
 * as its bytes: the server reads UTF-8 or Windows-1252 and says which.
 */

const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);

/** Why a chosen file is refused before it is sent, or undefined (the server checks again). */
export function csvFileProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | undefined {
  if (file.size > IMPORT_MAX_BYTES) return CSV_IMPORT_MESSAGES.tooLarge(MAX_MB);
  if (!/\.csv$/i.test(file.name) && file.type !== 'text/csv') return CSV_IMPORT_MESSAGES.notCsv;
  if (file.size === 0) return CSV_IMPORT_MESSAGES.empty;
  return undefined;
}

/** Rows with errors shown at most (the counts give the whole picture). */
export const INVALID_ROWS_SHOWN = 100;

/** A row of a file with its errors, by the CSV column each names. */
export interface CsvRowErrorsRow {
  line: number;
  errors: readonly { field: string; message: string }[];
}

/** The rows of a file in error: line, the row's key (`keyLabel`: IMEI, reference…) and every error by column. */
export function CsvRowErrors<R extends CsvRowErrorsRow>({
  rows,
  caption,
  keyLabel,
  keyOf,
}: {
  rows: readonly R[];
  caption: string;
  keyLabel: string;
  keyOf: (row: R) => string | null;
}) {
  const shown = rows.slice(0, INVALID_ROWS_SHOWN);
  return (
    <>
      <Table size="sm" bordered responsive className="mb-2" data-testid="csv-invalid-rows">
        <caption className="caption-top fw-semibold text-body">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="text-end">
              {L.line}
            </th>
            <th scope="col">{keyLabel}</th>
            <th scope="col">{L.errors}</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((r) => (
            <tr key={r.line}>
              <td className="text-end">{r.line}</td>
              <td className="text-nowrap">{displayValue(keyOf(r))}</td>
              <td>
                <ul className="list-unstyled mb-0">
                  {r.errors.map((e, i) => (
                    <li key={`${e.field}-${i}`}>
                      <span className="fw-semibold">{e.field}</span>: {e.message}
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </Table>
      {rows.length > shown.length && <p className="small">{L.invalidShown(shown.length, rows.length)}</p>}
    </>
  );
}

/** The figures of a file's dry run: rows, then the caller's own, then the encoding. */
export function CsvCounts({ rows, encoding, children }: { rows: number; encoding: ImportEncoding; children?: ReactNode }) {
  return (
    <>
      <h3 className="h6">{L.counts}</h3>
      <dl className="d-flex flex-wrap gap-4 mb-3" data-testid="csv-counts">
        <div>
          <dt className="small fw-normal">{L.rows}</dt>
          <dd className="fs-5 mb-0">{rows.toLocaleString('es-MX')}</dd>
        </div>
        {children}
        <div>
          <dt className="small fw-normal">{L.encoding}</dt>
          <dd className="fs-5 mb-0">{encoding}</dd>
        </div>
      </dl>
    </>
  );
}

/** The header names a file had that the import does not read. */
export function CsvIgnoredColumns({ columns }: { columns: readonly string[] }) {
  if (columns.length === 0) return null;
  return (
    <Alert variant="info" data-testid="csv-ignored-columns">
      {L.ignoredColumns(columns.length)}{' '}
      {columns.map((c, i) => (
        <span key={`${c}-${i}`}>
          {i > 0 && ', '}
          <code>{c}</code>
        </span>
      ))}
    </Alert>
  );
}

export interface CsvImportFlowProps<R> {
  intro: ReactNode;
  onDownloadTemplate: () => void;
  templateLoading: boolean;
  /** Sends the file in preview or commit mode; undefined when the request failed (its toast says why). */
  send: (file: File, mode: 'preview' | 'commit') => Promise<R | undefined>;
  /** Whether a preview may be committed (it has something to apply). */
  canCommit: (preview: R) => boolean;
  /** The status line while the commit runs. */
  importingText: (preview: R) => string;
  /** Called with a commit's result (a toast, say). */
  onCommitted?: (result: R) => void;
  /** The preview: its figures, errors and the buttons wired to `importing`, `onImport`, `onCancel`. */
  renderPreview: (preview: R, controls: { importing: boolean; onImport: () => void; onCancel: () => void }) => ReactNode;
  /** The result of the commit, announced (shown with 'Importar otro archivo'). */
  renderResult: (result: R) => ReactNode;
  /** What follows the announced result (the rows not imported, say). */
  renderResultDetail?: (result: R) => ReactNode;
}

type Step<R> =
  | { kind: 'choose' }
  | { kind: 'validating' }
  | { kind: 'preview'; file: File; preview: R }
  | { kind: 'importing'; file: File; preview: R }
  | { kind: 'done'; result: R };

/** The steps of a CSV import (see the module's comment); what each import shows is the caller's. */
export function CsvImportFlow<R>({
  intro,
  onDownloadTemplate,
  templateLoading,
  send,
  canCommit,
  importingText,
  onCommitted,
  renderPreview,
  renderResult,
  renderResultDetail,
}: CsvImportFlowProps<R>) {
  const inputId = useId();
  const [step, setStep] = useState<Step<R>>({ kind: 'choose' });
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  // A new key empties the file input (Cancelar, another file).
  const [inputKey, setInputKey] = useState(0);

  const reset = () => {
    setStep({ kind: 'choose' });
    setFileError(undefined);
    setInputKey((k) => k + 1);
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    setFileError(undefined);
    setStep({ kind: 'choose' });
    if (!file) return;
    const problem = csvFileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    setStep({ kind: 'validating' });
    const preview = await send(file, 'preview');
    setStep(preview === undefined ? { kind: 'choose' } : { kind: 'preview', file, preview });
  };

  const onImport = async () => {
    if (step.kind !== 'preview' || !canCommit(step.preview)) return;
    setStep({ kind: 'importing', file: step.file, preview: step.preview });
    const result = await send(step.file, 'commit');
    if (result === undefined) {
      setStep({ kind: 'preview', file: step.file, preview: step.preview });
      return;
    }
    onCommitted?.(result);
    setStep({ kind: 'done', result });
  };

  const busy = step.kind === 'validating' || step.kind === 'importing';
  return (
    <div>
      {intro}
      <div className="mb-3">
        <LoadingButton variant="outline-primary" loading={templateLoading} onClick={onDownloadTemplate}>
          <i className="bi bi-download me-2" aria-hidden="true" />
          {L.downloadTemplate}
        </LoadingButton>
      </div>
      {step.kind !== 'done' && (
        <Form.Group controlId={inputId} className="mb-3">
          <Form.Label>{L.file}</Form.Label>
          <Form.Control
            key={inputKey}
            type="file"
            accept=".csv,text/csv"
            disabled={busy}
            isInvalid={Boolean(fileError)}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={fileError ? `${inputId}-error` : undefined}
            onChange={(e: ChangeEvent<HTMLInputElement>) => void onFile(e)}
          />
          {fileError && (
            <Form.Control.Feedback type="invalid" id={`${inputId}-error`}>
              {fileError}
            </Form.Control.Feedback>
          )}
        </Form.Group>
      )}
      <div aria-live="polite">
        {step.kind === 'validating' && (
          <p role="status" className="d-flex align-items-center gap-2">
            <Spinner as="span" animation="border" size="sm" aria-hidden="true" />
            {L.validating}
          </p>
        )}
        {step.kind === 'importing' && (
          <p role="status" className="d-flex align-items-center gap-2" data-testid="csv-importing">
            <Spinner as="span" animation="border" size="sm" aria-hidden="true" />
            {importingText(step.preview)}
          </p>
        )}
        {step.kind === 'done' && renderResult(step.result)}
      </div>
      {(step.kind === 'preview' || step.kind === 'importing') &&
        renderPreview(step.preview, { importing: step.kind === 'importing', onImport: () => void onImport(), onCancel: reset })}
      {step.kind === 'done' && (
        <>
          {renderResultDetail?.(step.result)}
          <Button variant="outline-primary" onClick={reset}>
            {L.importAnother}
          </Button>
        </>
      )}
    </div>
  );
}
