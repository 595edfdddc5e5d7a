import { useState, type FormEvent } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { ExportListHeader } from '../../components/ExportListHeader';
import { IconButton } from '../../components/IconButton';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import Table from 'react-bootstrap/Table';
import { ADMIN_LABELS as L, labelOf } from '../../../shared/constants/adminLabels';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, AUDIT_OUTCOMES } from '../../../shared/constants/audit';
import type { AuditEntryView } from '../../../shared/contracts/audit';
import type { PageProps } from '../../app/lazyPage';
import { AppModal } from '../../components/AppModal';
import { DateInput } from '../../components/DateInput';
import { displayValue } from '../../components/EmptyValue';
import { useExportAuditMutation, useListAuditQuery } from './adminSettingsApi';
import { auditDiff } from './auditDiff';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDateTime } from '../../components/formatDate';
import { ListPager } from '../../components/ListPager';
import { listParam, listParams, PER_PAGE_OPTIONS, useListParams } from '../../components/useListParams';

const FILTERS = ['actor', 'entity', 'action', 'outcome', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The URL of the audit log; a value the API would refuse (or that names nothing recorded) is left out. */
const auditListParams = listParams({
  page: listParam.page(),
  perPage: listParam.perPage(PER_PAGE_OPTIONS),
  actor: listParam.text(254),
  entity: listParam.oneOf(AUDIT_ENTITIES),
  action: listParam.satisfying((v) => (AUDIT_ACTIONS as readonly string[]).includes(v)),
  outcome: listParam.oneOf(AUDIT_OUTCOMES),
  from: listParam.matching(DAY),
  to: listParam.matching(DAY),
});

const entityLabel = (e: string) => labelOf(L.audit.entities, e);
const actionLabel = (a: string) => labelOf(L.audit.actionNames, a);
const outcomeLabel = (o: string) => labelOf(L.audit.outcomes, o);
const atText = (at: string) => formatDateTime(at, { seconds: true });

const columns: DataTableColumn<AuditEntryView>[] = [
  { id: 'at', header: L.audit.at, className: 'text-nowrap', cell: (r) => atText(r.at) },
  // A long e-mail or id wraps (text-break) instead of widening the table past the window.
  { id: 'actor', header: L.audit.actor, className: 'text-break', cell: (r) => displayValue(r.actorEmail) },
  { id: 'entity', header: L.audit.entity, cell: (r) => entityLabel(r.entity) },
  { id: 'entityId', header: L.audit.entityId, className: 'text-break', cell: (r) => displayValue(r.entityId) },
  { id: 'action', header: L.audit.action, cell: (r) => actionLabel(r.action) },
  {
    id: 'outcome',
    header: L.audit.outcome,
    cell: (r) => <Badge bg={r.outcome === 'success' ? 'success' : 'danger'}>{outcomeLabel(r.outcome)}</Badge>,
  },
];
const rowAttributes = (r: AuditEntryView) => ({
  'data-testid': 'audit-row',
  'data-entity': r.entity,
  'data-action': r.action,
  'data-actor': r.actorEmail ?? '',
});

/** The before/after of one row: the changed keys, old → new. */
function AuditDetail({ entry }: { entry: AuditEntryView }) {
  const changes = auditDiff(entry.before, entry.after);
  return (
    <>
      <dl className="row small">
        <dt className="col-sm-4">{L.audit.at}</dt>
        <dd className="col-sm-8">{atText(entry.at)}</dd>
        <dt className="col-sm-4">{L.audit.actor}</dt>
        <dd className="col-sm-8">{displayValue(entry.actorEmail)}</dd>
        <dt className="col-sm-4">{L.audit.ip}</dt>
        <dd className="col-sm-8">{displayValue(entry.ip)}</dd>
        <dt className="col-sm-4">{L.audit.entity}</dt>
        <dd className="col-sm-8">
          {entityLabel(entry.entity)} {entry.entityId ? `#${entry.entityId}` : ''}
        </dd>
        <dt className="col-sm-4">{L.audit.action}</dt>
        <dd className="col-sm-8">{actionLabel(entry.action)}</dd>
        <dt className="col-sm-4">{L.audit.outcome}</dt>
        <dd className="col-sm-8">{outcomeLabel(entry.outcome)}</dd>
        <dt className="col-sm-4">{L.audit.detail}</dt>
        <dd className="col-sm-8">{displayValue(entry.detail)}</dd>
        <dt className="col-sm-4">{L.audit.requestId}</dt>
        <dd className="col-sm-8 text-break">{displayValue(entry.requestId)}</dd>
      </dl>
      <h3 className="h6">{L.audit.changes}</h3>
      {changes.length === 0 ? (
        <p className="mb-0">{L.audit.noChanges}</p>
      ) : (
        <Table size="sm" bordered responsive className="mb-0" data-testid="audit-diff">
          <thead>
            <tr>
              <th scope="col">{L.audit.field}</th>
              <th scope="col">{L.audit.before}</th>
              <th scope="col">{L.audit.after}</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((c) => (
              <tr key={c.key}>
                <th scope="row" className="font-monospace">
                  {c.key}
                </th>
                <td className="text-danger-emphasis text-break">{c.before}</td>
                <td className="text-success-emphasis text-break">
                  <span className="visually-hidden">→ </span>
                  {c.after}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </>
  );
}

/** The filter form: applied on submit, kept in the URL. */
function AuditFilters({ filters, onApply }: { filters: Filters; onApply: (f: Filters) => void }) {
  const [draft, setDraft] = useState<Filters>(filters);
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft({ ...draft, [k]: e.target.value });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    // A date field whose text is not a date (it says so) holds the filter back.
    if ([draft.from, draft.to].some((d) => d !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(d))) return;
    onApply({ ...draft, actor: draft.actor.trim() });
  };
  const clear = () => {
    const empty = Object.fromEntries(FILTERS.map((k) => [k, ''])) as Filters;
    setDraft(empty);
    onApply(empty);
  };
  return (
    <Form noValidate onSubmit={submit} className="mb-3" aria-label={L.audit.filter}>
      <Row className="g-2 align-items-end">
        <Form.Group as={Col} md={4} lg={3} controlId="audit-actor">
          <Form.Label className="small mb-1">{L.audit.actor}</Form.Label>
          <Form.Control type="search" size="sm" value={draft.actor} onChange={set('actor')} autoComplete="off" />
        </Form.Group>
        <Form.Group as={Col} md={4} lg={2} controlId="audit-entity">
          <Form.Label className="small mb-1">{L.audit.entity}</Form.Label>
          <Form.Select size="sm" value={draft.entity} onChange={set('entity')}>
            <option value="">{L.all}</option>
            {AUDIT_ENTITIES.map((e) => (
              <option key={e} value={e}>
                {entityLabel(e)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group as={Col} md={4} lg={2} controlId="audit-action">
          <Form.Label className="small mb-1">{L.audit.action}</Form.Label>
          <Form.Select size="sm" value={draft.action} onChange={set('action')}>
            <option value="">{L.all}</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        {/* As wide as its longest option: a twelfth of the row cut 'Todo'. */}
        <Form.Group as={Col} md={4} lg="auto" controlId="audit-outcome">
          <Form.Label className="small mb-1">{L.audit.outcome}</Form.Label>
          <Form.Select size="sm" value={draft.outcome} onChange={set('outcome')}>
            <option value="">{L.all}</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {outcomeLabel(o)}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Form.Group as={Col} md={4} lg={2} controlId="audit-from">
          <Form.Label className="small mb-1">{L.audit.from}</Form.Label>
          <DateInput size="sm" value={draft.from} onChange={(from) => setDraft({ ...draft, from })} />
        </Form.Group>
        <Form.Group as={Col} md={4} lg={2} controlId="audit-to">
          <Form.Label className="small mb-1">{L.audit.to}</Form.Label>
          <DateInput size="sm" value={draft.to} onChange={(to) => setDraft({ ...draft, to })} />
        </Form.Group>
        <Col xs="auto" className="d-flex gap-2">
          <Button type="submit" size="sm">
            <i className="bi bi-funnel me-1" aria-hidden="true" />
            {L.audit.filter}
          </Button>
          <Button type="button" size="sm" variant="secondary" onClick={clear}>
            {L.audit.clear}
          </Button>
        </Col>
      </Row>
    </Form>
  );
}

/** The audit log: filters, paged table, before/after detail, CSV export. */
export default function AuditPage({ title }: PageProps) {
  const { params, set } = useListParams(auditListParams);
  const { page, perPage } = params;
  const filters: Filters = {
    actor: params.actor,
    entity: params.entity ?? '',
    action: params.action ?? '',
    outcome: params.outcome ?? '',
    from: params.from ?? '',
    to: params.to ?? '',
  };
  const list = useListAuditQuery({ ...filters, page, perPage });
  const [exportCsv, exportState] = useExportAuditMutation();
  const [detail, setDetail] = useState<AuditEntryView | null>(null);
  const rows = list.data?.data ?? [];

  return (
    <section>
      <ExportListHeader
        title={title}
        exportLabel={L.audit.export}
        exportedMessage={L.audit.exported}
        exporting={exportState.isLoading}
        onExport={() => exportCsv(filters)}
      />
      <AuditFilters key={FILTERS.map((k) => filters[k]).join('|')} filters={filters} onApply={(f) => set(f)} />
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(r) => r.id}
        rowAttributes={rowAttributes}
        caption={title}
        loading={list.isLoading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        rowActions={(r) => (
          <IconButton size="sm" variant="outline-primary" icon="eye" label={L.audit.viewOf(r.id)} title={L.audit.view} onClick={() => setDetail(r)} />
        )}
        size="sm"
        testId="audit-table"
      />
      {list.data && (
        <ListPager page={page} perPage={perPage} total={list.data.total} onPage={(p) => set({ page: p })} onPerPage={(n) => set({ perPage: n })} />
      )}
      <AppModal show={detail !== null} size="lg" title={detail ? L.audit.detailTitle(detail.id) : ''} readOnly onClose={() => setDetail(null)}>
        {detail && <AuditDetail entry={detail} />}
      </AppModal>
    </section>
  );
}
