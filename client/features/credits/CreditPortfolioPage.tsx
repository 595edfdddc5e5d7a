import { Suspense, useCallback, useEffect, useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { Link, useSearchParams } from 'react-router-dom';
import { CREDIT_LABELS, OVERDUE_BUCKETS } from '../../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { CREDIT_SORTS, CREDITS_DEFAULT_PER_PAGE, DEVICE_TEXT_MAX, SEARCH_MAX, type CreditSort } from '../../../shared/constants/limits';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import type { CreditRow } from '../../../shared/contracts/credits';
import { CREDIT_STATES } from '../../../shared/credits';
import { acceptsTextParam } from '../../../shared/paramChecks';
import { useListGroupsQuery } from '../../api/groupsApi';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { AppModal } from '../../components/AppModal';
import { ExportListHeader } from '../../components/ExportListHeader';
import { CreditStateBadge, money } from '../../components/CreditStanding';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { displayValue } from '../../components/EmptyValue';
import { formatCalendarDate } from '../../components/formatDate';
import { ListPager } from '../../components/ListPager';
import { PageSpinner } from '../../components/PageSpinner';
import { SearchInput } from '../../components/SearchInput';
import { listParam, listParams, nextSort, useListParams } from '../../components/useListParams';
import { CreditCsvImport } from './CreditCsvImport';
import { CreditSummaryCards } from './CreditSummaryCards';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { CREDIT_DETAIL } from './dialogChunks';
import { ReleaseApprovals } from './ReleaseApprovals';
import { useExportCreditsMutation, useListCreditsQuery, type CreditFilterArgs, type CreditFilterKey, type CreditListArgs } from './creditsApi';

const L = CREDIT_PAGE_LABELS.portfolio;
const C = L.columns;
const NO_ROWS: CreditRow[] = [];

/** Page sizes of the portfolio (the API's default first). */
export const CREDIT_PER_PAGE_OPTIONS = [CREDITS_DEFAULT_PER_PAGE, 50, 100] as const;

/** The URL of the portfolio: only values the API accepts (a hand-edited URL reads as the defaults), and the open credit. */
const portfolioParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(CREDIT_PER_PAGE_OPTIONS, CREDITS_DEFAULT_PER_PAGE),
  sort: listParam.oneOf(CREDIT_SORTS),
  order: listParam.order(),
  state: listParam.oneOf(CREDIT_STATES),
  overdue: listParam.oneOf(OVERDUE_BUCKETS),
  dueThisWeek: listParam.oneOf(['true', 'false']),
  paidToday: listParam.oneOf(['true', 'false']),
  groupId: listParam.matching(/^(none|[1-9]\d{0,9})$/),
  search: listParam.text(SEARCH_MAX),
  // A reference the API takes (1 to 64 characters once trimmed, one line).
  credit: listParam.trimmed((v) => acceptsTextParam(v, DEVICE_TEXT_MAX.creditReference)),
});

/**
 * Cartera de créditos (/credits/portfolio): the portfolio's figures, then the credits, server-paged
 * and sortable, filtered by state, days overdue, due this week, paid today, group and text, all in the URL; the
 * CSV export of the filtered set. A row's reference opens the credit's page (`?credit=` in the same
 * URL, as the devices list opens a device), so the way back keeps the list as it was.
 */
export default function CreditPortfolioPage({ title }: PageProps) {
  useIdlePrefetch(CREDIT_DETAIL);
  const idPrefix = useId();
  const { params, set } = useListParams(portfolioParams);
  const [searchParams] = useSearchParams();
  const [searchKey, setSearchKey] = useState(0);
  const { page, perPage, credit } = params;
  const sort: CreditSort = params.sort ?? 'dueDate';
  const order = params.order ?? 'asc';
  const filter: CreditFilterArgs = {
    state: params.state,
    overdue: params.overdue,
    dueThisWeek: params.dueThisWeek,
    paidToday: params.paidToday,
    groupId: params.groupId,
    search: params.search || undefined,
  };
  const filtersActive = Object.values(filter).some(Boolean);
  const args: CreditListArgs = { ...filter, sort, order, page, perPage };

  const list = useListCreditsQuery(args, { skip: credit !== undefined });
  const groups = useListGroupsQuery(undefined, { skip: credit !== undefined });
  const [exportCsv, exportState] = useExportCreditsMutation();
  const { user } = useCurrentUser();
  // Importing writes credits and payments: the grant of registering a payment (the server checks it too).
  const canImport = (user.profile?.actions ?? []).includes(ROLE_ACTION.REGISTER_PAYMENTS);
  const [importing, setImporting] = useState(false);

  // A page past the end (credits paid off and filtered out, a hand-edited URL): back to the first page.
  const pastEnd = list.data !== undefined && list.data.data.length === 0 && page > 1 && !list.isFetching;
  useEffect(() => {
    if (pastEnd) set({ page: '' }, { replace: true });
  }, [pastEnd, set]);

  const setFilter = useCallback((key: CreditFilterKey, value: string) => set({ [key]: value }), [set]);
  const applyFilters = useCallback(
    (changes: Partial<Record<CreditFilterKey, string>>) => {
      // A figure of the summary replaces the whole filter with its own.
      set({ state: '', overdue: '', dueThisWeek: '', paidToday: '', groupId: '', search: '', ...changes });
      setSearchKey((k) => k + 1);
    },
    [set],
  );
  const clearFilters = () => applyFilters({});
  const onSort = (column: CreditSort) => set(nextSort({ sort, order }, column));

  /** The URL of a credit's page: this list's URL with the credit. */
  const creditHref = (reference: string) => {
    const next = new URLSearchParams(searchParams);
    next.set('credit', reference);
    return `?${next.toString()}`;
  };

  if (credit !== undefined)
    return (
      <Suspense fallback={<PageSpinner />}>
        <CREDIT_DETAIL.Component key={credit} reference={credit} onBack={() => set({ credit: '' }, { keepPage: true })} />
      </Suspense>
    );

  const rows = list.data?.data ?? NO_ROWS;
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const columns: DataTableColumn<CreditRow, CreditSort>[] = [
    {
      id: 'reference',
      header: C.reference,
      sortKey: 'reference',
      cell: (c) => (
        <Link to={creditHref(c.reference)} aria-label={L.open(c.reference)} className="fw-semibold text-break">
          {c.reference}
        </Link>
      ),
    },
    { id: 'customer', header: C.customer, sortKey: 'customerName', cell: (c) => c.customerName },
    { id: 'state', header: C.state, cell: (c) => <CreditStateBadge state={c.state} daysOverdue={c.daysOverdue} /> },
    {
      id: 'amountOverdue',
      header: C.amountOverdue,
      className: 'text-end text-nowrap',
      cell: (c) => (c.state === 'overdue' ? money(c.amountOverdue, c.currency) : displayValue(null)),
    },
    { id: 'balance', header: C.balance, sortKey: 'balance', className: 'text-end text-nowrap', cell: (c) => money(c.balance, c.currency) },
    {
      id: 'nextDue',
      header: C.nextDue,
      sortKey: 'dueDate',
      className: 'text-nowrap',
      cell: (c) => (c.nextDueDate ? formatCalendarDate(c.nextDueDate) : displayValue(null)),
    },
    { id: 'devices', header: C.devices, hideBelow: 'lg', className: 'text-end', cell: (c) => c.deviceCount.toLocaleString('es-MX') },
  ];

  return (
    <section>
      <ExportListHeader
        title={title}
        exportLabel={L.export}
        exportedMessage={L.exported}
        exporting={exportState.isLoading}
        onExport={() => exportCsv({ ...filter, sort, order })}
      >
        {canImport && (
          <Button variant="outline-dark" onClick={() => setImporting(true)}>
            <i className="bi bi-upload me-2" aria-hidden="true" />
            {CREDIT_PAGE_LABELS.csvImport.open}
          </Button>
        )}
      </ExportListHeader>
      <AppModal show={importing} title={CREDIT_PAGE_LABELS.csvImport.title} onClose={() => setImporting(false)} size="xl" readOnly>
        <CreditCsvImport />
      </AppModal>

      <CreditSummaryCards onFilter={applyFilters} />

      <Row className="g-2 mb-3 align-items-end" role="search" aria-label={L.filters}>
        <Col md={12} lg>
          <Form.Label htmlFor={`${idPrefix}-search`} className="small mb-1">
            {L.search}
          </Form.Label>
          <SearchInput
            key={searchKey}
            id={`${idPrefix}-search`}
            ariaLabel={L.search}
            placeholder={L.searchPlaceholder}
            initialValue={params.search}
            onSearch={(text) => setFilter('search', text)}
            className="input-group-sm"
          />
        </Col>
        <Col sm={6} lg={2}>
          <Form.Label htmlFor={`${idPrefix}-state`} className="small mb-1">
            {L.filterState}
          </Form.Label>
          <Form.Select id={`${idPrefix}-state`} size="sm" value={params.state ?? ''} onChange={(e) => setFilter('state', e.target.value)}>
            <option value="">{L.all}</option>
            {CREDIT_STATES.map((s) => (
              <option key={s} value={s}>
                {CREDIT_LABELS.states[s]}
              </option>
            ))}
          </Form.Select>
        </Col>
        <Col sm={6} lg={2}>
          <Form.Label htmlFor={`${idPrefix}-overdue`} className="small mb-1">
            {L.filterOverdue}
          </Form.Label>
          <Form.Select id={`${idPrefix}-overdue`} size="sm" value={params.overdue ?? ''} onChange={(e) => setFilter('overdue', e.target.value)}>
            <option value="">{L.all}</option>
            {OVERDUE_BUCKETS.map((b) => (
              <option key={b} value={b}>
                {CREDIT_LABELS.overdueBuckets[b]}
              </option>
            ))}
          </Form.Select>
        </Col>
        <Col sm={6} lg={2}>
          <Form.Label htmlFor={`${idPrefix}-due`} className="small mb-1">
            {L.filterDueThisWeek}
          </Form.Label>
          <Form.Select id={`${idPrefix}-due`} size="sm" value={params.dueThisWeek ?? ''} onChange={(e) => setFilter('dueThisWeek', e.target.value)}>
            <option value="">{L.all}</option>
            <option value="true">{L.dueThisWeekOnly}</option>
            <option value="false">{L.notDueThisWeek}</option>
          </Form.Select>
        </Col>
        <Col sm={6} lg={2}>
          <Form.Label htmlFor={`${idPrefix}-paid`} className="small mb-1">
            {L.filterPaidToday}
          </Form.Label>
          <Form.Select id={`${idPrefix}-paid`} size="sm" value={params.paidToday ?? ''} onChange={(e) => setFilter('paidToday', e.target.value)}>
            <option value="">{L.all}</option>
            <option value="true">{L.paidTodayOnly}</option>
            <option value="false">{L.notPaidToday}</option>
          </Form.Select>
        </Col>
        <Col sm={6} lg={2}>
          <Form.Label htmlFor={`${idPrefix}-group`} className="small mb-1">
            {L.filterGroup}
          </Form.Label>
          <Form.Select id={`${idPrefix}-group`} size="sm" value={params.groupId ?? ''} onChange={(e) => setFilter('groupId', e.target.value)}>
            <option value="">{L.all}</option>
            <option value="none">{L.noGroup}</option>
            {(groups.data?.data ?? []).map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
            {/* A group in the URL that the list does not (yet) hold keeps its value selectable. */}
            {params.groupId && params.groupId !== 'none' && !groups.data?.data.some((g) => String(g.id) === params.groupId) && (
              <option value={params.groupId}>{`#${params.groupId}`}</option>
            )}
          </Form.Select>
        </Col>
        <Col xs="auto">
          <Button size="sm" variant="outline-dark" className="text-nowrap" disabled={!filtersActive} onClick={clearFilters}>
            {L.clearFilters}
          </Button>
        </Col>
      </Row>

      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(c) => c.reference}
        rowAttributes={(c) => ({ 'data-testid': `credit-row-${c.reference}` })}
        caption={title}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="credits-empty"
        empty={
          <>
            <p className={filtersActive ? 'mb-3' : 'mb-0'}>{filtersActive ? L.emptyFiltered : L.empty}</p>
            {filtersActive && (
              <Button variant="outline-primary" onClick={clearFilters}>
                {L.clearFilters}
              </Button>
            )}
          </>
        }
        placeholderRows={Math.min(perPage, 10)}
        sort={{ column: sort, order, onSort }}
        testId="credits-table"
      />
      {list.data && total > 0 && (
        <ListPager
          page={page}
          perPage={perPage}
          total={total}
          perPageOptions={CREDIT_PER_PAGE_OPTIONS}
          labels={{ perPage: L.perPage, pagination: L.pagination }}
          summary={L.pageOf(Math.min(page, pages), pages, total)}
          onPage={(p) => set({ page: p })}
          onPerPage={(n) => set({ perPage: n })}
        />
      )}

      <ReleaseApprovals creditHref={creditHref} />
    </section>
  );
}
