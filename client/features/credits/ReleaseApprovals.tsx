import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router-dom';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import type { Approval } from '../../../shared/contracts/credits';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { formatDateTime } from '../../components/formatDate';
import { ListPager } from '../../components/ListPager';
import { toastSuccess } from '../../components/toast';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { useDecideApprovalMutation, useListApprovalsQuery } from './creditsApi';
import { CREDITS_DEFAULT_PER_PAGE } from '../../../shared/constants/limits';

const L = CREDIT_PAGE_LABELS.approvals;
const PER_PAGE_OPTIONS = [CREDITS_DEFAULT_PER_PAGE, 50, 100] as const;

type Decision = { approval: Approval; approve: boolean };

/**
 * Liberaciones por aprobar: the releases at payoff the collection policy queued for an
 * administrator (release mode 'approval'). Aprobar liberación sends RELEASE to the credit's devices,
 * Rechazar leaves them managed; both are confirmed and show only with the device action RELEASE,
 * which the server requires too. A credit's reference opens its page.
 */
export function ReleaseApprovals({ creditHref }: { creditHref: (reference: string) => string }) {
  const canRelease = (useCurrentUser().user.profile?.actions ?? []).includes(DEVICE_ACTION.RELEASE);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(CREDITS_DEFAULT_PER_PAGE);
  const list = useListApprovalsQuery({ page, perPage });
  const [decide, decideState] = useDecideApprovalMutation();
  const [deciding, setDeciding] = useState<Decision | null>(null);
  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));

  const onConfirm = async () => {
    if (!deciding) return;
    const { approval, approve } = deciding;
    const res = await decide({ id: approval.id, approve });
    if ('error' in res) return res;
    toastSuccess(approve ? L.approved(approval.reference) : L.rejected(approval.reference));
    setDeciding(null);
  };

  const columns: DataTableColumn<Approval>[] = [
    {
      id: 'reference',
      header: L.reference,
      cell: (a) => (
        <Link to={creditHref(a.reference)} aria-label={CREDIT_PAGE_LABELS.portfolio.open(a.reference)} className="text-break">
          {a.reference}
        </Link>
      ),
    },
    { id: 'customer', header: L.customer, cell: (a) => a.customerName },
    { id: 'requestedAt', header: L.requestedAt, className: 'text-nowrap', cell: (a) => formatDateTime(a.requestedAt) },
  ];

  return (
    <section className="mt-4" aria-labelledby="release-approvals" data-testid="release-approvals">
      <h2 className="h5" id="release-approvals">
        {L.title}
      </h2>
      <DataTable
        columns={columns}
        rows={list.data?.data ?? []}
        getRowId={(a) => a.id}
        rowAttributes={(a) => ({ 'data-testid': `approval-row-${a.reference}` })}
        caption={L.title}
        loading={list.isLoading}
        loadingLabel={L.loading}
        fetching={list.isFetching}
        error={list.isError && !list.data}
        onRetry={() => void list.refetch()}
        size="sm"
        testId="approvals-table"
        emptyTestId="approvals-empty"
        empty={<p className="mb-0">{L.empty}</p>}
        rowActions={
          canRelease
            ? (a) => (
                <div className="d-flex gap-2 justify-content-end">
                  <Button
                    variant="outline-danger"
                    size="sm"
                    aria-label={L.approveOf(a.reference)}
                    onClick={() => setDeciding({ approval: a, approve: true })}
                  >
                    {L.approve}
                  </Button>
                  <Button
                    variant="outline-dark"
                    size="sm"
                    aria-label={L.rejectOf(a.reference)}
                    onClick={() => setDeciding({ approval: a, approve: false })}
                  >
                    {L.reject}
                  </Button>
                </div>
              )
            : undefined
        }
      />
      {list.data && total > perPage && (
        <ListPager
          page={page}
          perPage={perPage}
          total={total}
          perPageOptions={PER_PAGE_OPTIONS}
          labels={{ perPage: CREDIT_PAGE_LABELS.portfolio.perPage, pagination: L.title }}
          summary={CREDIT_PAGE_LABELS.portfolio.pageOf(Math.min(page, pages), pages, total)}
          onPage={setPage}
          onPerPage={(n) => {
            setPerPage(n);
            setPage(1);
          }}
        />
      )}
      <ConfirmModal
        show={deciding !== null}
        title={deciding?.approve === false ? L.rejectTitle : L.approveTitle}
        message={
          deciding &&
          (deciding.approve
            ? L.approveConfirm(deciding.approval.reference, deciding.approval.customerName)
            : L.rejectConfirm(deciding.approval.reference))
        }
        confirmLabel={deciding?.approve === false ? L.reject : L.approve}
        confirmVariant={deciding?.approve === false ? 'primary' : 'danger'}
        loading={decideState.isLoading}
        onClose={() => setDeciding(null)}
        onConfirm={onConfirm}
      />
    </section>
  );
}
