import { useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import type { ApiKey, ApiKeyBody, ApiKeyCreated } from '../../../shared/contracts/apiKeys';
import type { PageProps } from '../../app/lazyPage';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { useEntityFormModal } from '../../components/EntityFormModal';
import { formatDateTime } from '../../components/formatDate';
import { IconButton } from '../../components/IconButton';
import { ListPager } from '../../components/ListPager';
import { toastSuccess } from '../../components/toast';
import { listParam, listParams, PER_PAGE_OPTIONS, useListParams } from '../../components/useListParams';
import { useNow } from '../../components/useNow';
import { ApiKeyFormModal } from './ApiKeyFormModal';
import { TimeAgo } from '../../components/TimeAgo';
import { ApiKeySecretModal } from './ApiKeySecretModal';
import { useCreateApiKeyMutation, useListApiKeysQuery, useRevokeApiKeyMutation } from './integrationApi';

const L = INTEGRATION_LABELS.apiKeys;
const C = INTEGRATION_LABELS.common;

/** The URL of the list: its page and page size. */
const apiKeysListParams = listParams({ page: listParam.page(), perPage: listParam.perPage(PER_PAGE_OPTIONS) });

const STATE_BADGE: Record<ApiKey['state'], string> = { active: 'success', expired: 'warning', revoked: 'secondary' };

/**
 * The key's state: its badge; a revoked key says who revoked it and when; one whose role holds
 * more than the caller says it is read-only.
 */
function StateCell({ apiKey }: { apiKey: ApiKey }) {
  return (
    <>
      <Badge bg={STATE_BADGE[apiKey.state]} text={apiKey.state === 'expired' ? 'dark' : undefined}>
        {L.states[apiKey.state]}
      </Badge>
      {apiKey.state === 'revoked' && apiKey.revokedAt && (
        <div className="small text-body-secondary text-break">{L.revokedBy(apiKey.revokedBy ?? '-', formatDateTime(apiKey.revokedAt))}</div>
      )}
      {apiKey.state !== 'revoked' && !apiKey.manageable && (
        <div className="small text-body-secondary" data-testid="api-key-read-only">
          <i className="bi bi-lock me-1" aria-hidden="true" />
          {L.notManageable}
        </div>
      )}
    </>
  );
}

/**
 * The integration's API keys: list (state, allowed addresses, last use), create one (its secret
 * shown once, with a curl example) and revoke one after a confirmation. A key whose role holds a
 * path or action the caller lacks is read-only: its revoke button is disabled, saying why.
 */
export default function ApiKeysPage({ title }: PageProps) {
  const { params, set } = useListParams(apiKeysListParams);
  const { page, perPage } = params;
  const list = useListApiKeysQuery({ page, perPage });
  const now = useNow();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [createKey, createState] = useCreateApiKeyMutation();
  const [revokeKey, revokeState] = useRevokeApiKeyMutation();
  const creator = useEntityFormModal<ApiKey, ApiKeyBody, ApiKeyCreated>({
    create: createKey,
    onCreated: ({ key, secret }) => {
      toastSuccess(L.createdDone(key.name));
      setCreated({ name: key.name, secret });
      // The secret lives in the dialog only: not in the store's mutation state.
      createState.reset();
    },
    loading: createState.isLoading,
  });

  const onRevoke = async () => {
    if (!revoking) return;
    const res = await revokeKey(revoking.id);
    // The error is toasted (apiErrorMiddleware) and shown in the dialog, which stays open.
    if ('error' in res) return res;
    toastSuccess(L.revokedDone(revoking.name));
    setRevoking(null);
  };

  const columns: DataTableColumn<ApiKey>[] = [
    { id: 'name', header: L.columns.name, className: 'text-break', cell: (k) => <span className="fw-semibold">{k.name}</span> },
    { id: 'prefix', header: L.columns.prefix, className: 'text-nowrap', cell: (k) => <code className="text-body">{k.prefix}</code> },
    { id: 'role', header: L.columns.role, cell: (k) => k.profileName },
    { id: 'state', header: L.columns.state, cell: (k) => <StateCell apiKey={k} /> },
    {
      id: 'allowedIps',
      header: L.columns.allowedIps,
      cell: (k) =>
        k.allowedIps.length === 0 ? (
          <span className="fst-italic">{L.anyIp}</span>
        ) : (
          <span className="font-monospace small text-break">{k.allowedIps.join(', ')}</span>
        ),
    },
    {
      id: 'expiresAt',
      header: L.columns.expiresAt,
      cell: (k) => (k.expiresAt ? formatDateTime(k.expiresAt) : <span className="fst-italic">{L.noExpiry}</span>),
    },
    {
      id: 'lastUsed',
      header: L.columns.lastUsed,
      cell: (k) =>
        k.lastUsedAt ? (
          <>
            <TimeAgo at={k.lastUsedAt} now={now} />
            {k.lastUsedIp && <div className="small text-body-secondary font-monospace text-break">{L.fromIp(k.lastUsedIp)}</div>}
          </>
        ) : (
          <span className="fst-italic">{L.neverUsed}</span>
        ),
    },
    {
      id: 'created',
      header: L.columns.created,
      cell: (k) => (
        <>
          <span>{formatDateTime(k.createdAt)}</span>
          <div className="small text-body-secondary text-break">{C.by(k.createdBy)}</div>
        </>
      ),
    },
  ];

  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <Button onClick={creator.openNew}>
          <i className="bi bi-plus-lg me-2" aria-hidden="true" />
          {L.create}
        </Button>
      </div>
      <p className="text-body-secondary">{L.intro}</p>
      <DataTable
        columns={columns}
        rows={list.data?.data ?? []}
        getRowId={(k) => k.id}
        rowAttributes={(k) => ({ 'data-testid': `api-key-row-${k.prefix}`, 'data-state': k.state })}
        caption={L.caption}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        emptyTestId="api-keys-empty"
        placeholderRows={3}
        empty={
          <>
            <p className="mb-1">{L.empty}</p>
            <p className="text-body-secondary">{L.emptyHelp}</p>
            <Button variant="primary" onClick={creator.openNew}>
              {L.create}
            </Button>
          </>
        }
        rowActions={(k) =>
          k.state === 'revoked' ? null : (
            <IconButton
              variant="outline-danger"
              size="sm"
              icon="x-octagon"
              label={L.revokeOf(k.name)}
              title={k.manageable ? L.revoke : L.notManageable}
              disabled={!k.manageable}
              onClick={() => setRevoking(k)}
            />
          )
        }
      />
      {list.data && list.data.total > 0 && (
        <ListPager page={page} perPage={perPage} total={list.data.total} onPage={(p) => set({ page: p })} onPerPage={(n) => set({ perPage: n })} />
      )}

      <ApiKeyFormModal {...creator.modal} onSubmit={creator.onSubmit} />
      <ApiKeySecretModal created={created} onClose={() => setCreated(null)} />
      <ConfirmModal
        show={revoking !== null}
        title={L.revokeTitle}
        message={revoking && L.confirmRevoke(revoking.name, revoking.prefix)}
        confirmLabel={L.revoke}
        loading={revokeState.isLoading}
        onClose={() => setRevoking(null)}
        onConfirm={onRevoke}
      />
    </section>
  );
}
