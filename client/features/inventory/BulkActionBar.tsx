import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { BULK_ACTIONS } from './deviceActionItems';

const L = INVENTORY_LABELS.bulk;

export interface BulkActionBarProps {
  /** How many devices are selected. */
  count: number;
  /** The count is the list's estimated total. */
  estimate: boolean;
  granted: ReadonlySet<number>;
  onClear: () => void;
  onStart: (action: number) => void;
}

/** The selection's bar: how many devices, the bulk actions the profile grants, and a way to clear it. */
export function BulkActionBar({ count, estimate, granted, onClear, onStart }: BulkActionBarProps) {
  const selectId = useId();
  const [action, setAction] = useState('');
  const actions = BULK_ACTIONS.filter((a) => granted.has(a.code));
  return (
    <div
      className="d-flex flex-wrap align-items-center gap-2 p-2 mb-2 border rounded bg-body-tertiary"
      role="region"
      aria-label={L.action}
      data-testid="bulk-bar"
    >
      <span className="fw-semibold me-2" aria-live="polite">
        {L.selected(count, estimate)}
      </span>
      <Form.Label htmlFor={selectId} className="visually-hidden">
        {L.action}
      </Form.Label>
      <Form.Select id={selectId} size="sm" style={{ width: 'auto' }} value={action} onChange={(e) => setAction(e.target.value)}>
        <option value="">{L.chooseAction}</option>
        {actions.map((a) => (
          <option key={a.code} value={a.code}>
            {a.label}
          </option>
        ))}
      </Form.Select>
      <Button size="sm" disabled={action === ''} onClick={() => onStart(Number(action))}>
        {L.apply}
      </Button>
      <Button size="sm" variant="outline-dark" className="ms-auto" onClick={onClear}>
        {L.clearSelection}
      </Button>
    </div>
  );
}

export interface SelectAllBannerProps {
  mode: 'page' | 'filter';
  pageCount: number;
  total: number;
  estimate: boolean;
  onSelectAll: () => void;
  onClear: () => void;
}

/** Offered when the whole page is selected and more devices match: select all of them (the filter). */
export function SelectAllBanner({ mode, pageCount, total, estimate, onSelectAll, onClear }: SelectAllBannerProps) {
  return (
    <div className="text-center small p-2 mb-2 border rounded bg-body" data-testid="select-all-banner">
      {mode === 'page' ? (
        <>
          {L.pageSelected(pageCount)}{' '}
          <Button variant="link" size="sm" className="p-0 align-baseline" onClick={onSelectAll}>
            {L.selectAllMatching(total, estimate)}
          </Button>
        </>
      ) : (
        <>
          {L.allMatchingSelected(total, estimate)}{' '}
          <Button variant="link" size="sm" className="p-0 align-baseline" onClick={onClear}>
            {L.clearSelection}
          </Button>
        </>
      )}
    </div>
  );
}
