import { useId, useState, type ChangeEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { Link } from 'react-router-dom';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, type ImportResult } from '../../../shared/contracts/deviceImport';
import type { Group } from '../../../shared/contracts/groups';
import { INVENTORY_MESSAGES as M } from '../../../shared/areaMessages';
import { LoadingButton } from '../../components/LoadingButton';
import { toastSuccess } from '../../components/toast';
import { CsvImportPreview, CsvInvalidRows } from './CsvImportPreview';
import { useDownloadImportTemplateMutation, useImportDevicesMutation } from './inventoryApi';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';

const L = INVENTORY_LABELS.addDevice;
const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);

type Step =
  | { kind: 'choose' }
  | { kind: 'validating' }
  | { kind: 'preview'; file: File; preview: ImportResult }
  | { kind: 'importing'; file: File; preview: ImportResult }
  | { kind: 'done'; result: ImportResult };

/** Why a chosen file is refused before it is sent, or undefined (the server checks again). */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | undefined {
  if (file.size > IMPORT_MAX_BYTES) return M.csv.tooLarge(MAX_MB);
  if (!/\.csv$/i.test(file.name) && file.type !== 'text/csv') return M.csv.notCsv;
  if (file.size === 0) return M.csv.empty;
  return undefined;
}

export interface CsvImportProps {
  groups: readonly Pick<Group, 'id' | 'name'>[];
  /** Where the registered devices are listed, when the profile may open it. */
  preEnrolledPath?: string;
}

/**
 * Registration from a CSV file: template download, file choice, the server's dry run
 * (mode preview), then — only on the administrator's explicit choice — the commit of the
 * valid rows (mode commit) and its result.
 */
export function CsvImport({ groups, preEnrolledPath }: CsvImportProps) {
  const inputId = useId();
  const [step, setStep] = useState<Step>({ kind: 'choose' });
  const [fileError, setFileError] = useState<string | undefined>(undefined);
  // A new key empties the file input (Cancelar, another file).
  const [inputKey, setInputKey] = useState(0);
  const [downloadTemplate, templateState] = useDownloadImportTemplateMutation();
  const [importDevices] = useImportDevicesMutation();

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
    const problem = fileProblem(file);
    if (problem) {
      setFileError(problem);
      return;
    }
    setStep({ kind: 'validating' });
    // Sent as bytes, not decoded here: the server reads UTF-8 or Windows-1252 and says which.
    const res = await importDevices({ file, mode: 'preview' });
    if ('data' in res && res.data) setStep({ kind: 'preview', file, preview: res.data });
    else setStep({ kind: 'choose' });
  };

  const onImport = async () => {
    if (step.kind !== 'preview' || step.preview.valid === 0) return;
    setStep({ kind: 'importing', file: step.file, preview: step.preview });
    const res = await importDevices({ file: step.file, mode: 'commit' });
    if ('data' in res && res.data) {
      toastSuccess(L.imported(res.data.imported));
      setStep({ kind: 'done', result: res.data });
    } else {
      setStep({ kind: 'preview', file: step.file, preview: step.preview });
    }
  };

  const busy = step.kind === 'validating' || step.kind === 'importing';
  return (
    <div>
      <p>{L.csvIntro(IMPORT_MAX_ROWS.toLocaleString('es-MX'), MAX_MB)}</p>
      <div className="mb-3">
        <LoadingButton variant="outline-primary" loading={templateState.isLoading} onClick={() => void downloadTemplate()}>
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
            {L.importing(step.preview.valid)}
          </p>
        )}
        {step.kind === 'done' && (
          <Alert variant="success" data-testid="csv-result">
            <p className="mb-0">{L.imported(step.result.imported)}</p>
            {preEnrolledPath && (
              <Link to={preEnrolledPath} className="alert-link">
                {L.viewPreEnrolled}
              </Link>
            )}
          </Alert>
        )}
      </div>
      {(step.kind === 'preview' || step.kind === 'importing') && (
        <CsvImportPreview
          preview={step.preview}
          groups={groups}
          importing={step.kind === 'importing'}
          onImport={() => void onImport()}
          onCancel={reset}
        />
      )}
      {step.kind === 'done' && (
        <>
          {step.result.invalid.length > 0 && <CsvInvalidRows rows={step.result.invalid} caption={L.notImported(step.result.invalid.length)} />}
          <Button variant="outline-primary" onClick={reset}>
            {L.importAnother}
          </Button>
        </>
      )}
    </div>
  );
}
