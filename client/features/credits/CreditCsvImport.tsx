import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import type { CreditImportResult } from '../../../shared/contracts/creditImport';
import { money } from '../../components/CreditStanding';
import { CsvCounts, CsvIgnoredColumns, CsvImportFlow, CsvRowErrors } from '../../components/CsvImportFlow';
import { displayValue } from '../../components/EmptyValue';
import { formatDateTime } from '../../components/formatDate';
import { LoadingButton } from '../../components/LoadingButton';
import { toastSuccess } from '../../components/toast';
import { useDownloadCreditImportTemplateMutation, useImportCreditsMutation } from './creditsApi';
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, CREDIT_IMPORT_KINDS, type CreditImportKind } from '../../../shared/constants/limits';
import { CSV_IMPORT_LABELS } from '../../../shared/constants/csvImportLabels';

const L = CREDIT_PAGE_LABELS.csvImport;
const C = L.columns;
const MAX_MB = IMPORT_MAX_BYTES / (1024 * 1024);
const count = (n: number) => n.toLocaleString('es-MX');

/** What a commit of this preview would change: credits to write, or payments not yet applied. */
const changes = (r: CreditImportResult) => (r.kind === 'schedules' ? r.created + r.replaced : r.newPayments);
const appliedText = (r: CreditImportResult) =>
  r.kind === 'schedules' ? L.appliedSchedules(r.created, r.replaced) : L.appliedPayments(r.newPayments, r.alreadyApplied);

function Figure({ label, value, tone }: { label: string; value: number; tone?: 'success' | 'danger' }) {
  return (
    <div>
      <dt className="small fw-normal">{label}</dt>
      <dd className={`fs-5 mb-0${tone && value > 0 ? ` text-${tone}-emphasis` : ''}`}>{count(value)}</dd>
    </div>
  );
}

function ShownNote({ shown, total }: { shown: number; total: number }) {
  return total > shown ? <p className="small">{L.shown(shown, total)}</p> : null;
}

/** The credits of a schedules file, as they will be written. */
function ScheduleRows({ result }: { result: CreditImportResult }) {
  return (
    <>
      <Table size="sm" bordered responsive className="mb-2" data-testid="credit-import-schedules">
        <caption className="caption-top fw-semibold text-body">{L.schedulesTitle}</caption>
        <thead>
          <tr>
            <th scope="col">{L.reference}</th>
            <th scope="col">{C.customer}</th>
            <th scope="col" className="text-end">
              {C.installments}
            </th>
            <th scope="col" className="text-end">
              {C.total}
            </th>
            <th scope="col">{C.imeis}</th>
            <th scope="col">{C.outcome}</th>
          </tr>
        </thead>
        <tbody>
          {result.schedules.map((s) => (
            <tr key={s.reference}>
              <td className="text-break">{s.reference}</td>
              <td>{s.customerName}</td>
              <td className="text-end">{count(s.installments)}</td>
              <td className="text-end text-nowrap">{money(s.total, s.currency)}</td>
              <td>{displayValue(s.imeis.length ? s.imeis.join(', ') : null)}</td>
              <td>{L.outcomes[s.outcome]}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ShownNote shown={result.schedules.length} total={result.created + result.replaced} />
    </>
  );
}

/** The payments of a payments file: new or already applied. */
function PaymentRows({ result }: { result: CreditImportResult }) {
  return (
    <>
      <Table size="sm" bordered responsive className="mb-2" data-testid="credit-import-payments">
        <caption className="caption-top fw-semibold text-body">{L.paymentsTitle}</caption>
        <thead>
          <tr>
            <th scope="col" className="text-end">
              {C.line}
            </th>
            <th scope="col">{L.reference}</th>
            <th scope="col">{C.externalId}</th>
            <th scope="col" className="text-end">
              {C.amount}
            </th>
            <th scope="col">{C.paidAt}</th>
            <th scope="col">{C.outcome}</th>
          </tr>
        </thead>
        <tbody>
          {result.payments.map((p) => (
            <tr key={p.line}>
              <td className="text-end">{p.line}</td>
              <td className="text-break">{p.reference}</td>
              <td className="text-break">{p.externalId}</td>
              <td className="text-end text-nowrap">{money(p.amount, p.currency)}</td>
              <td className="text-nowrap">{formatDateTime(p.paidAt)}</td>
              <td>{L.outcomes[p.outcome]}</td>
            </tr>
          ))}
        </tbody>
      </Table>
      <ShownNote shown={result.payments.length} total={result.newPayments + result.alreadyApplied} />
    </>
  );
}

export interface CreditImportPreviewProps {
  preview: CreditImportResult;
  importing: boolean;
  onImport: () => void;
  onCancel: () => void;
}

/** The dry run of a schedules or payments file: its figures, the rows in error, what would be written; applied only on 'Aplicar el archivo'. */
export function CreditImportPreview({ preview, importing, onImport, onCancel }: CreditImportPreviewProps) {
  const errors = preview.invalid.length;
  const blocked = errors > 0 || changes(preview) === 0;
  return (
    <div data-testid="credit-import-preview">
      <CsvCounts rows={preview.rows} encoding={preview.encoding}>
        {preview.kind === 'schedules' ? (
          <>
            <Figure label={L.created} value={preview.created} tone="success" />
            <Figure label={L.replaced} value={preview.replaced} />
          </>
        ) : (
          <>
            <Figure label={L.newPayments} value={preview.newPayments} tone="success" />
            <Figure label={L.alreadyApplied} value={preview.alreadyApplied} />
          </>
        )}
        <Figure label={L.invalid} value={errors} tone="danger" />
      </CsvCounts>
      <CsvIgnoredColumns columns={preview.ignoredColumns} />
      {errors > 0 && (
        <CsvRowErrors rows={preview.invalid} caption={CSV_IMPORT_LABELS.invalidTitle} keyLabel={L.reference} keyOf={(r) => r.reference || null} />
      )}
      {preview.kind === 'schedules' && preview.schedules.length > 0 && <ScheduleRows result={preview} />}
      {preview.kind === 'payments' && preview.payments.length > 0 && <PaymentRows result={preview} />}
      {errors > 0 ? (
        <Alert variant="warning">{L.hasErrors}</Alert>
      ) : changes(preview) === 0 ? (
        <Alert variant="info">{L.nothingToApply}</Alert>
      ) : (
        <p className="small mb-2">{L.allOrNothing}</p>
      )}
      <div className="d-flex flex-wrap gap-2">
        <LoadingButton variant="primary" loading={importing} disabled={blocked} onClick={onImport}>
          {L.apply}
        </LoadingButton>
        <Button variant="secondary" onClick={onCancel} disabled={importing}>
          {L.cancel}
        </Button>
      </div>
    </div>
  );
}

/**
 * Importar CSV of the portfolio: the kind of file (schedules or payments), then the one CSV
 * import flow (template, file, preview with the rows in error, 'Aplicar el archivo', result).
 * A file applies whole or not at all; the server re-validates it when applying.
 */
export function CreditCsvImport() {
  const name = useId();
  const [kind, setKind] = useState<CreditImportKind>('schedules');
  const [downloadTemplate, templateState] = useDownloadCreditImportTemplateMutation();
  const [importCredits] = useImportCreditsMutation();
  return (
    <div>
      <fieldset className="mb-3">
        <legend className="fs-6 fw-semibold">{L.kind}</legend>
        {CREDIT_IMPORT_KINDS.map((k) => (
          <Form.Check
            key={k}
            inline
            type="radio"
            id={`${name}-${k}`}
            name={name}
            label={L.kinds[k]}
            checked={kind === k}
            onChange={() => setKind(k)}
          />
        ))}
      </fieldset>
      <CsvImportFlow<CreditImportResult>
        // Another kind starts over: its own template, file and preview.
        key={kind}
        intro={<p>{L.intro[kind](IMPORT_MAX_ROWS.toLocaleString('es-MX'), MAX_MB)}</p>}
        onDownloadTemplate={() => void downloadTemplate(kind)}
        templateLoading={templateState.isLoading}
        send={async (file, mode) => {
          const res = await importCredits({ kind, file, mode });
          return 'data' in res ? res.data : undefined;
        }}
        canCommit={(preview) => preview.invalid.length === 0 && changes(preview) > 0}
        importingText={() => L.applying}
        onCommitted={(result) => {
          if (result.applied) toastSuccess(appliedText(result));
        }}
        renderPreview={(preview, controls) => <CreditImportPreview preview={preview} {...controls} />}
        renderResult={(result) =>
          result.applied ? (
            <Alert variant="success" data-testid="csv-result">
              <p className="mb-0">{appliedText(result)}</p>
            </Alert>
          ) : (
            <Alert variant="warning" data-testid="csv-result">
              <p className="mb-0">{L.notApplied}</p>
            </Alert>
          )
        }
        renderResultDetail={(result) =>
          result.invalid.length > 0 && (
            <CsvRowErrors rows={result.invalid} caption={L.notApplied} keyLabel={L.reference} keyOf={(r) => r.reference || null} />
          )
        }
      />
    </div>
  );
}
