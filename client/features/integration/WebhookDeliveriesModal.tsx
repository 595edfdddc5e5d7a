import { useEffect, useId, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_DISABLED_FAILING, type WebhookDeliveryStatus } from '../../../shared/constants/integration';
import { deliveryStatusLabel, INTEGRATION_LABELS, webhookEventLabel } from '../../../shared/constants/integrationLabels';
import type { Webhook, WebhookDelivery } from '../../../shared/contracts/webhooks';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDateTime } from '../../components/formatDate';
import { IconButton } from '../../components/IconButton';
import { ListPager } from '../../components/ListPager';
import { toastSuccess } from '../../components/toast';
import { PER_PAGE_OPTIONS } from '../../components/useListParams';
import { useListWebhookDeliveriesQuery, useResendWebhookDeliveryMutation } from './integrationApi';

const L = INTEGRATION_LABELS.webhooks;
const C = INTEGRATION_LABELS.common;
const D = L.deliveryColumns;
/** While the log is open it refreshes itself this often (pending deliveries change state on their own). */
const POLL_MS = 5_000;

const STATUS_BADGE: Record<WebhookDeliveryStatus, { bg: string; text?: 'dark' }> = {
  pending: { bg: 'warning', text: 'dark' },
  delivered: { bg: 'success' },
  failed: { bg: 'danger' },
};

/** A delivery's status as a badge ('Pendiente', 'Entregado', 'Fallido'). */
export function WebhookDeliveryBadge({ status }: { status: WebhookDeliveryStatus }) {
  const style = STATUS_BADGE[status];
  return (
    <Badge bg={style.bg} text={style.text}>
      {deliveryStatusLabel(status)}
    </Badge>
  );
}

/** The 'failing' notice of a subscription the server disabled. */
export function WebhookFailingAlert({ webhook, className }: { webhook: Webhook; className?: string }) {
  if (webhook.enabled || webhook.disabledReason !== WEBHOOK_DISABLED_FAILING) return null;
  return (
    <Alert variant="danger" className={['small py-2 px-2 mb-0', className].filter(Boolean).join(' ')} data-testid="webhook-failing">
      <strong>{L.disabledFailing}</strong>
      {webhook.failingSince && <div>{L.failingSince(formatDateTime(webhook.failingSince))}</div>}
    </Alert>
  );
}

/** The delivery log of one subscription: filter by status, pages, resend, payload. */
function DeliveryLog({ webhook }: { webhook: Webhook }) {
  const id = useId();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(PER_PAGE_OPTIONS[0]);
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const [payloadOf, setPayloadOf] = useState<WebhookDelivery | null>(null);
  const payloadRef = useRef<HTMLHeadingElement>(null);
  const list = useListWebhookDeliveriesQuery(
    { webhookId: webhook.id, page, perPage, status: status || undefined },
    { pollingInterval: POLL_MS, skipPollingIfUnfocused: true },
  );
  const [resend, resendState] = useResendWebhookDeliveryMutation();
  const resendingId = resendState.isLoading ? resendState.originalArgs?.deliveryId : undefined;

  useEffect(() => {
    if (payloadOf) payloadRef.current?.focus();
  }, [payloadOf]);

  const onResend = async (d: WebhookDelivery) => {
    const res = await resend({ webhookId: webhook.id, deliveryId: d.id });
    // The error is toasted (apiErrorMiddleware).
    if ('error' in res) return;
    toastSuccess(L.resentDone);
  };

  const rows = list.data?.data ?? [];
  // The payload shown follows the list (a refreshed row, or gone when it left the page).
  const shownPayload = payloadOf ? (rows.find((r) => r.id === payloadOf.id) ?? payloadOf) : null;
  const columns: DataTableColumn<WebhookDelivery>[] = [
    {
      id: 'event',
      header: D.event,
      cell: (d) => (
        <>
          <span className="fw-semibold">{webhookEventLabel(d.eventType)}</span>
          <div className="small text-body-secondary font-monospace text-break">{d.eventType}</div>
        </>
      ),
    },
    { id: 'occurredAt', header: D.occurredAt, cell: (d) => formatDateTime(d.occurredAt, { seconds: true }) },
    { id: 'status', header: D.status, cell: (d) => <WebhookDeliveryBadge status={d.status} /> },
    { id: 'attempts', header: D.attempts, className: 'text-end', cell: (d) => d.attempts.toLocaleString('es-MX') },
    { id: 'responseStatus', header: D.responseStatus, className: 'text-end', cell: (d) => d.responseStatus ?? '-' },
    { id: 'duration', header: D.duration, className: 'text-end', cell: (d) => (d.durationMs === null ? '-' : d.durationMs.toLocaleString('es-MX')) },
    { id: 'error', header: D.error, className: 'text-break small', cell: (d) => d.error ?? '-' },
    {
      id: 'nextAttempt',
      header: D.nextAttempt,
      cell: (d) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt, { seconds: true }) : <span className="fst-italic">{L.noNextAttempt}</span>),
    },
  ];

  return (
    <>
      <WebhookFailingAlert webhook={webhook} className="mb-3" />
      <div className="d-flex flex-wrap align-items-end justify-content-between gap-2 mb-3">
        <Form.Group controlId={`${id}-status`}>
          <Form.Label className="small mb-1">{L.statusFilter}</Form.Label>
          <Form.Select
            size="sm"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as WebhookDeliveryStatus | '');
              setPage(1);
            }}
          >
            <option value="">{L.allStatuses}</option>
            {WEBHOOK_DELIVERY_STATUSES.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </Form.Select>
        </Form.Group>
        <Button variant="outline-secondary" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
          <i className="bi bi-arrow-clockwise me-1" aria-hidden="true" />
          {L.refresh}
        </Button>
      </div>
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(d) => d.id}
        rowAttributes={(d) => ({ 'data-testid': `webhook-delivery-row-${d.id}`, 'data-status': d.status, 'data-event': d.eventType })}
        caption={L.deliveriesCaption}
        loading={list.isLoading}
        loadingLabel={L.deliveriesLoading}
        fetching={list.isFetching && !list.isLoading && list.currentData === undefined}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="webhook-deliveries-empty"
        empty={<p className="mb-0">{status ? L.deliveriesEmptyFiltered : L.deliveriesEmpty}</p>}
        placeholderRows={3}
        size="sm"
        rowActions={(d) => {
          const event = webhookEventLabel(d.eventType);
          const when = formatDateTime(d.occurredAt, { seconds: true });
          const open = shownPayload?.id === d.id;
          return (
            <ButtonGroup size="sm">
              <IconButton
                variant="outline-secondary"
                icon={open ? 'eye-slash' : 'braces'}
                label={open ? L.payloadHide : L.payloadOf(event, when)}
                title={open ? L.payloadHide : L.payload}
                aria-expanded={open}
                onClick={() => setPayloadOf(open ? null : d)}
              />
              <Button
                variant="outline-primary"
                className="text-nowrap"
                aria-label={L.resendOf(event, when)}
                disabled={resendingId === d.id}
                onClick={() => void onResend(d)}
              >
                <i className="bi bi-send me-1" aria-hidden="true" />
                {L.resend}
              </Button>
            </ButtonGroup>
          );
        }}
      />
      {list.data && list.data.total > 0 && (
        <ListPager
          page={page}
          perPage={perPage}
          total={list.data.total}
          onPage={setPage}
          onPerPage={(n) => {
            setPerPage(n);
            setPage(1);
          }}
          labels={L.deliveriesPager}
        />
      )}
      {shownPayload && (
        <section className="mt-3" data-testid="webhook-payload">
          <div className="d-flex align-items-center justify-content-between gap-2 mb-2">
            <h3 className="h6 mb-0" tabIndex={-1} ref={payloadRef}>
              {L.payloadTitle(webhookEventLabel(shownPayload.eventType), formatDateTime(shownPayload.occurredAt, { seconds: true }))}
            </h3>
            <Button variant="link" size="sm" onClick={() => setPayloadOf(null)}>
              {L.payloadHide}
            </Button>
          </div>
          <pre className="bg-body-secondary border rounded p-2 small mb-0 text-break" style={{ whiteSpace: 'pre-wrap' }}>
            <code>{JSON.stringify(shownPayload.payload, null, 2)}</code>
          </pre>
        </section>
      )}
    </>
  );
}

/** The delivery log of a subscription in a large dialog (full screen on small screens). */
export function WebhookDeliveriesModal({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const titleId = useId();
  return (
    <Modal show={webhook !== null} onHide={onClose} aria-labelledby={titleId} size="xl" fullscreen="md-down" centered>
      <Modal.Header closeButton closeLabel={C.close}>
        <Modal.Title id={titleId} className="text-break">
          {webhook ? L.deliveriesTitle(webhook.name) : ''}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{webhook && <DeliveryLog key={webhook.id} webhook={webhook} />}</Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={onClose}>
          {C.close}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
