import { useEffect, useId } from 'react';
import Badge from 'react-bootstrap/Badge';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router-dom';
import { RECONCILIATION_KINDS, RECONCILIATION_LABELS } from '../../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { LockType } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import type { ReconciliationRow } from '../../../shared/contracts/credits';
import { actionLabel } from '../../../shared/deviceActionRules';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { displayValue } from '../../components/EmptyValue';
import { ExportListHeader } from '../../components/ExportListHeader';
import { formatDateTime } from '../../components/formatDate';
import { ListPager } from '../../components/ListPager';
import { listParam, listParams, useListParams } from '../../components/useListParams';
import { useExportReconciliationMutation, useListReconciliationQuery } from './creditsApi';
import { RECONCILIATION_DEFAULT_PER_PAGE } from '../../../shared/constants/limits';

const L = CREDIT_PAGE_LABELS.reconciliation;
const C = L.columns;
const NO_ROWS: ReconciliationRow[] = [];

export const RECONCILIATION_PER_PAGE_OPTIONS = [RECONCILIATION_DEFAULT_PER_PAGE, 50, 100] as const;

const reconciliationParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(RECONCILIATION_PER_PAGE_OPTIONS, RECONCILIATION_DEFAULT_PER_PAGE),
  kind: listParam.oneOf(RECONCILIATION_KINDS),
});

/** The lock a credit's contradiction calls for. */
const CREDIT_LOCK_TYPE: LockType = 'PorCredito';

/** Dispositivos enrolados with the device's detail and the fix's modal open (a LOCK starts on Por Crédito). */
const fixHref = (r: ReconciliationRow) =>
  `${PATHS.devices}?device=${r.deviceId}&action=${r.fix}${r.fix === DEVICE_ACTION.LOCK ? `&lockType=${CREDIT_LOCK_TYPE}` : ''}`;

/** The row's key: a device, or a credit without one. */
const rowId = (r: ReconciliationRow) => `${r.kind}:${r.deviceId ?? r.creditReference ?? ''}`;

/**
 * Conciliación (/credits/reconciliation): the financed devices whose state contradicts their
 * credit, server-paged, filtered by kind in the URL, with every kind's count and the CSV export.
 * A row a device action fixes (Desbloquear, Bloquear, Liberar) links to the device's detail on
 * Dispositivos enrolados with that action's modal open (`?device=&action=`): the same modal, rules
 * and guards as the device's own menu.
 */
export default function ReconciliationPage({ title }: PageProps) {
  const idPrefix = useId();
  const { allowed, user } = useCurrentUser();
  const granted = new Set(user.profile?.actions ?? []);
  const { params, set } = useListParams(reconciliationParams);
  const { page, perPage, kind } = params;
  const list = useListReconciliationQuery({ kind, page, perPage });
  const [exportCsv, exportState] = useExportReconciliationMutation();

  const pastEnd = list.data !== undefined && list.data.data.length === 0 && page > 1 && !list.isFetching;
  useEffect(() => {
    if (pastEnd) set({ page: '' }, { replace: true });
  }, [pastEnd, set]);

  const rows = list.data?.data ?? NO_ROWS;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const canFix = (r: ReconciliationRow) => r.fix !== null && r.deviceId !== null && allowed.has(PATHS.devices) && granted.has(r.fix);

  const columns: DataTableColumn<ReconciliationRow, never>[] = [
    {
      id: 'kind',
      header: C.kind,
      cell: (r) => (
        <Badge bg="warning" text="dark">
          {RECONCILIATION_LABELS.kinds[r.kind]}
        </Badge>
      ),
    },
    {
      id: 'reference',
      header: C.reference,
      cell: (r) =>
        r.creditReference && r.kind !== 'device_without_credit' && allowed.has(PATHS.creditPortfolio) ? (
          <Link
            to={`${PATHS.creditPortfolio}?credit=${encodeURIComponent(r.creditReference)}`}
            aria-label={L.openCredit(r.creditReference)}
            className="text-break"
          >
            {r.creditReference}
          </Link>
        ) : (
          displayValue(r.creditReference)
        ),
    },
    { id: 'imei', header: C.imei, className: 'font-monospace', cell: (r) => displayValue(r.imei) },
    { id: 'customer', header: C.customer, hideBelow: 'lg', cell: (r) => displayValue(r.customerName) },
    { id: 'detail', header: C.detail, cell: (r) => r.detail },
    {
      id: 'lastSeen',
      header: C.lastSeen,
      hideBelow: 'lg',
      className: 'text-nowrap',
      cell: (r) => displayValue(r.lastSeenAt && formatDateTime(r.lastSeenAt)),
    },
    {
      id: 'fix',
      header: C.fix,
      cell: (r) =>
        canFix(r) ? (
          <Link
            to={fixHref(r)}
            className="btn btn-sm btn-outline-primary text-nowrap"
            aria-label={L.fix(actionLabel(r.fix!), r.imei ?? '')}
            data-testid={`fix-${r.deviceId}`}
          >
            {actionLabel(r.fix!)}
          </Link>
        ) : (
          <span className="text-body-secondary small">{L.noFix}</span>
        ),
    },
  ];

  return (
    <section>
      <ExportListHeader
        title={title}
        exportLabel={L.export}
        exportedMessage={L.exported}
        exporting={exportState.isLoading}
        onExport={() => exportCsv({ kind })}
      />
      <p className="text-body-secondary small">{L.intro}</p>

      <Row className="g-2 mb-3 align-items-end" role="search" aria-label={L.filters}>
        <Col sm={6} lg={4}>
          <Form.Label htmlFor={`${idPrefix}-kind`} className="small mb-1">
            {L.filterKind}
          </Form.Label>
          <Form.Select id={`${idPrefix}-kind`} size="sm" value={kind ?? ''} onChange={(e) => set({ kind: e.target.value })}>
            <option value="">{L.all}</option>
            {RECONCILIATION_KINDS.map((k) => (
              <option key={k} value={k}>
                {list.data ? L.kindCount(RECONCILIATION_LABELS.kinds[k], list.data.counts[k]) : RECONCILIATION_LABELS.kinds[k]}
              </option>
            ))}
          </Form.Select>
        </Col>
      </Row>

      <DataTable
        columns={columns}
        rows={rows}
        getRowId={rowId}
        rowAttributes={(r) => ({ 'data-testid': `reconciliation-row-${rowId(r)}` })}
        caption={title}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="reconciliation-empty"
        empty={<p className="mb-0">{kind ? L.emptyFiltered : L.empty}</p>}
        placeholderRows={Math.min(perPage, 10)}
        testId="reconciliation-table"
      />
      {list.data && total > 0 && (
        <ListPager
          page={page}
          perPage={perPage}
          total={total}
          perPageOptions={RECONCILIATION_PER_PAGE_OPTIONS}
          labels={{ perPage: L.perPage, pagination: L.pagination }}
          summary={L.pageOf(Math.min(page, pages), pages, total)}
          onPage={(p) => set({ page: p })}
          onPerPage={(n) => set({ perPage: n })}
        />
      )}
    </section>
  );
}
