import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { BulkPreview } from '../../../shared/contracts/jobs';
import { statusBadgeClass, statusLabel } from '../../components/statusBadge';
import { BULK_MAX_DEVICES } from '../../../shared/constants/limits';

const L = INVENTORY_LABELS.bulk;
const n = (v: number) => v.toLocaleString('es-MX');

/**
 * The dry run of a bulk action: how many devices the selection matches, per status, how many
 * get the action, which are skipped and why, and how many are offline (they get it later).
 */
export function BulkSummary({ preview }: { preview: BulkPreview }) {
  return (
    <div data-testid="bulk-summary">
      {preview.overLimit && (
        <Alert variant="danger" data-testid="bulk-over-limit">
          {L.overLimit(BULK_MAX_DEVICES)}
        </Alert>
      )}
      {!preview.overLimit && preview.eligible === 0 && <Alert variant="warning">{L.nothingEligible}</Alert>}
      <dl className="row mb-3">
        <dt className="col-7">{L.total}</dt>
        <dd className="col-5 text-end mb-1" data-testid="bulk-total">
          {n(preview.total)}
        </dd>
        <dt className="col-7">{L.eligible}</dt>
        <dd className="col-5 text-end mb-1" data-testid="bulk-eligible">
          {n(preview.eligible)}
        </dd>
        <dt className="col-7">{L.offline}</dt>
        <dd className="col-5 text-end mb-1" data-testid="bulk-offline">
          {n(preview.offline)}
        </dd>
      </dl>
      {preview.byStatus.length > 0 && (
        <Table size="sm" className="mb-3" data-testid="bulk-by-status">
          <caption className="caption-top fw-semibold text-body">{L.byStatus}</caption>
          <tbody>
            {preview.byStatus.map((s) => (
              <tr key={s.status}>
                <th scope="row" className="fw-normal">
                  <span className={statusBadgeClass(s.status)}>{statusLabel(s.status)}</span>
                </th>
                <td className="text-end">{n(s.count)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <h3 className="h6">{L.skipped}</h3>
      {preview.skipped.length === 0 ? (
        <p className="mb-0">{L.noneSkipped}</p>
      ) : (
        <ul className="list-unstyled mb-0" data-testid="bulk-skipped">
          {preview.skipped.map((s) => (
            <li key={s.reason} className="d-flex justify-content-between gap-3 border-bottom py-1">
              <span>{s.reason}</span>
              <span className="text-nowrap">{n(s.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
