import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import { INTEGRATION_LABELS, webhookEventLabel } from '../../../shared/constants/integrationLabels';
import type { Webhook, WebhookBody, WebhookCreated } from '../../../shared/contracts/webhooks';
import type { PageProps } from '../../app/lazyPage';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { useEntityFormModal } from '../../components/EntityFormModal';
import { IconButton } from '../../components/IconButton';
import { toastSuccess } from '../../components/toast';
import { useNow } from '../../components/useNow';
import { TimeAgo } from '../../components/TimeAgo';
import { SecretModal, SecretValue } from './ApiKeyParts';
import { useCreateWebhookMutation, useDeleteWebhookMutation, useListWebhooksQuery, useUpdateWebhookMutation } from './integrationApi';
import { WebhookDeliveriesModal, WebhookFailingAlert } from './WebhookDeliveriesModal';
import { WebhookFormModal } from './WebhookFormModal';

const L = INTEGRATION_LABELS.webhooks;

/** The body of a PUT that keeps a subscription as it is but for `enabled`. */
const bodyOf = (w: Webhook, enabled: boolean): WebhookBody => ({ name: w.name, url: w.url, events: [...w.events], enabled });

/** The subscription just created: its signing secret once, and how to verify the signatures. */
function WebhookSecretModal({ created, onClose }: { created: { name: string; secret: string } | null; onClose: () => void }) {
  return (
    <SecretModal show={created !== null} title={L.secretTitle} onClose={onClose} testId="webhook-secret-dialog">
      {created && (
        <>
          <p>{L.secretFor(created.name)}</p>
          <SecretValue value={created.secret} label={L.secretLabel} testId="webhook-secret" />
          <Alert variant="warning" className="d-flex gap-2 align-items-start">
            <i className="bi bi-exclamation-triangle-fill mt-1" aria-hidden="true" />
            <strong>{L.secretOnce}</strong>
          </Alert>
          <h3 className="h6">{L.verifyTitle}</h3>
          <p className="small mb-0">{L.verifyText}</p>
        </>
      )}
    </SecretModal>
  );
}

/**
 * The integration's webhook subscriptions: list (state, the 'failing' notice, pending
 * deliveries), create (the signing secret shown once), edit, reactivate, delete, and each
 * one's delivery log (filter, resend, payload).
 */
export default function WebhooksPage({ title }: PageProps) {
  const list = useListWebhooksQuery();
  const now = useNow();
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [createHook, createState] = useCreateWebhookMutation();
  const [updateHook, updateState] = useUpdateWebhookMutation();
  const [deleteHook, deleteState] = useDeleteWebhookMutation();
  const rows = list.data?.data ?? [];
  // The log follows the list (a reactivation, a new 'pendientes' count).
  const logWebhook = logOf === null ? null : (rows.find((w) => w.id === logOf) ?? null);

  const editor = useEntityFormModal<Webhook, WebhookBody, WebhookCreated, Webhook>({
    create: createHook,
    update: (w, body) => updateHook({ id: w.id, body }),
    onCreated: ({ webhook, secret }) => {
      toastSuccess(L.createdDone(webhook.name));
      setCreated({ name: webhook.name, secret });
      // The secret lives in the dialog only: not in the store's mutation state.
      createState.reset();
    },
    onUpdated: (w) => toastSuccess(L.updatedDone(w.name)),
    loading: createState.isLoading || updateState.isLoading,
  });

  const onReactivate = async (w: Webhook) => {
    const res = await updateHook({ id: w.id, body: bodyOf(w, true) });
    if ('error' in res) return;
    toastSuccess(L.reactivatedDone(w.name));
  };

  const onDelete = async () => {
    if (!deleting) return;
    const res = await deleteHook(deleting.id);
    // The error is toasted (apiErrorMiddleware) and shown in the dialog, which stays open.
    if ('error' in res) return res;
    toastSuccess(L.deletedDone(deleting.name));
    if (logOf === deleting.id) setLogOf(null);
    setDeleting(null);
  };

  const columns: DataTableColumn<Webhook>[] = [
    { id: 'name', header: L.columns.name, className: 'text-break', cell: (w) => <span className="fw-semibold">{w.name}</span> },
    { id: 'url', header: L.columns.url, className: 'text-break', cell: (w) => <code className="text-body small">{w.url}</code> },
    {
      id: 'events',
      header: L.columns.events,
      cell: (w) => (
        <div className="d-flex flex-wrap gap-1">
          {w.events.map((e) => (
            <Badge key={e} bg="light" text="dark" className="border fw-normal text-wrap text-start" title={e}>
              {webhookEventLabel(e)}
            </Badge>
          ))}
        </div>
      ),
    },
    {
      id: 'state',
      header: L.columns.state,
      cell: (w) => (
        <>
          <Badge bg={w.enabled ? 'success' : 'secondary'}>{w.enabled ? L.states.enabled : L.states.disabled}</Badge>
          <WebhookFailingAlert webhook={w} className="mt-1" />
        </>
      ),
    },
    { id: 'pending', header: L.columns.pending, className: 'text-end', cell: (w) => w.pending.toLocaleString('es-MX') },
    {
      id: 'lastDelivery',
      header: L.columns.lastDelivery,
      cell: (w) => (w.lastDeliveryAt ? <TimeAgo at={w.lastDeliveryAt} now={now} /> : <span className="fst-italic">{L.noDelivery}</span>),
    },
  ];

  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Button onClick={editor.openNew}>
          <i className="bi bi-plus-lg me-2" aria-hidden="true" />
          {L.create}
        </Button>
      </div>
      <p className="text-body-secondary">{L.intro}</p>
      <DataTable
        columns={columns}
        rows={rows}
        getRowId={(w) => w.id}
        rowAttributes={(w) => ({ 'data-testid': `webhook-row-${w.id}`, 'data-name': w.name, 'data-enabled': String(w.enabled) })}
        caption={L.caption}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="webhooks-empty"
        placeholderRows={3}
        empty={
          <>
            <p className="mb-1">{L.empty}</p>
            <p className="text-body-secondary">{L.emptyHelp}</p>
            <Button variant="primary" onClick={editor.openNew}>
              {L.create}
            </Button>
          </>
        }
        rowActions={(w) => (
          <ButtonGroup size="sm">
            <Button
              variant="outline-primary"
              className="text-nowrap"
              aria-label={L.deliveriesOf(w.name)}
              title={L.deliveries}
              onClick={() => setLogOf(w.id)}
            >
              <i className="bi bi-list-check" aria-hidden="true" />
              <span className="d-none d-md-inline ms-1">{L.deliveries}</span>
            </Button>
            {!w.enabled && (
              <IconButton
                variant="outline-success"
                icon="play-circle"
                label={L.reactivateOf(w.name)}
                title={L.reactivate}
                disabled={updateState.isLoading}
                onClick={() => void onReactivate(w)}
              />
            )}
            <IconButton variant="outline-primary" icon="pencil" label={L.editOf(w.name)} title={L.edit} onClick={() => editor.openEdit(w)} />
            <IconButton variant="outline-danger" icon="trash" label={L.deleteOf(w.name)} title={L.delete} onClick={() => setDeleting(w)} />
          </ButtonGroup>
        )}
      />

      <WebhookFormModal {...editor.modal} onSubmit={editor.onSubmit} />
      <WebhookSecretModal created={created} onClose={() => setCreated(null)} />
      <WebhookDeliveriesModal webhook={logWebhook} onClose={() => setLogOf(null)} />
      <ConfirmModal
        show={deleting !== null}
        title={L.deleteTitle}
        message={deleting && L.confirmDelete(deleting.name, deleting.url)}
        confirmLabel={L.delete}
        loading={deleteState.isLoading}
        onClose={() => setDeleting(null)}
        onConfirm={onDelete}
      />
    </section>
  );
}
