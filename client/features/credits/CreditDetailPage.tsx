import { useEffect, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router-dom';
import { COLLECTION_STEP_KINDS, CREDIT_LABELS } from '../../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { DEVICE_STATUS, deviceTypeLabel } from '../../../shared/constants/domain';
import { ROLE_ACTION } from '../../../shared/constants/roleActions';
import { PATHS } from '../../../shared/constants/routes';
import type { CreditDetail, CreditDevice, CreditStep, PauseBody, PaymentBodyInput } from '../../../shared/contracts/credits';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CreditStateBadge, money } from '../../components/CreditStanding';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { displayValue } from '../../components/EmptyValue';
import { formatCalendarDate, formatDateTime } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';
import { PageSpinner } from '../../components/PageSpinner';
import type { SaveOutcome } from '../../components/serverFieldError';
import { statusBadgeClass, statusLabel } from '../../components/statusBadge';
import { toastSuccess } from '../../components/toast';
import {
  creditsApi,
  useGetCreditQuery,
  usePauseCollectionMutation,
  useRegisterPaymentMutation,
  useResumeCollectionMutation,
  useReversePaymentMutation,
} from './creditsApi';
import { PauseFormModal, type PauseRequest } from './PauseFormModal';
import { newPaymentRequest, PaymentFormModal, type PaymentRequest } from './PaymentFormModal';

const L = CREDIT_PAGE_LABELS.detail;
const P = CREDIT_PAGE_LABELS.payment;
const PZ = CREDIT_PAGE_LABELS.pause;

/** How often the page reads the credit while it follows a device's command (as the devices pages do). */
const FOLLOW_POLL_MS = 1000;
/** How long after a change made here it keeps following: an offline device may never answer. */
const FOLLOW_MAX_MS = 10 * 60_000;

/** A device status with a command on its way: the page follows it until it answers. */
const IN_FLIGHT_STATUSES: readonly number[] = [
  DEVICE_STATUS.bloqueando,
  DEVICE_STATUS.desbloqueando,
  DEVICE_STATUS.liberando,
  DEVICE_STATUS.TEMPORARY_UNLOCKING,
];

type Installment = CreditDetail['installments'][number];
type Payment = CreditDetail['payments'][number];

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="col-6 col-md-4 col-xl-3 mb-2">
      <dt className="small text-body-secondary fw-normal">{label}</dt>
      <dd className="mb-0 fw-semibold text-break">{children}</dd>
    </div>
  );
}

export interface CreditDetailPageProps {
  reference: string;
  /** Back to the portfolio, as it was. */
  onBack: () => void;
}

/**
 * A credit's page: where it stands (state, customer, amounts, next due and the engine's next step),
 * its schedule, its payments with Revertir, the devices it finances (each a link to its detail), and
 * Registrar pago. Registering and reversing show only with the role action 100; the server checks it too.
 */
export default function CreditDetailPage({ reference, onBack }: CreditDetailPageProps) {
  const { user, allowed } = useCurrentUser();
  const canPay = (user.profile?.actions ?? []).includes(ROLE_ACTION.REGISTER_PAYMENTS);
  const canPause = (user.profile?.actions ?? []).includes(ROLE_ACTION.PAUSE_COLLECTION);
  const canSeeDevices = allowed.has(PATHS.devices);
  // After a change made here (a payment may unlock the devices, a resume lock them), the page reads
  // the credit every second while a device has a command in flight, for at most ten minutes (an
  // offline device may never answer).
  const [following, setFollowing] = useState(0);
  useEffect(() => {
    if (!following) return;
    const stop = setTimeout(() => setFollowing(0), FOLLOW_MAX_MS);
    return () => clearTimeout(stop);
  }, [following]);
  // Decided on the cached answer, as the devices list decides on its cached page.
  const cached = creditsApi.endpoints.getCredit.useQueryState(reference);
  const inFlight = cached.data?.devices.some((d) => IN_FLIGHT_STATUSES.includes(d.status)) ?? false;
  const credit = useGetCreditQuery(reference, { pollingInterval: following && inFlight ? FOLLOW_POLL_MS : 0, skipPollingIfUnfocused: false });
  const [registerPayment, registerState] = useRegisterPaymentMutation();
  const [reversePayment, reverseState] = useReversePaymentMutation();
  const [reversing, setReversing] = useState<Payment | null>(null);
  const [paying, setPaying] = useState<PaymentRequest | null>(null);
  const [pauseCollection, pauseState] = usePauseCollectionMutation();
  const [resumeCollection, resumeState] = useResumeCollectionMutation();
  const [pausing, setPausing] = useState<PauseRequest | null>(null);
  const [resuming, setResuming] = useState(false);

  const onPay = async (body: PaymentBodyInput): Promise<SaveOutcome> => {
    if (!paying) return undefined;
    const res = await registerPayment({ reference: paying.reference, body });
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(P.registered(money(res.data.payment.amount, res.data.credit.currency), res.data.credit.reference));
    setPaying(null);
    setFollowing(Date.now());
    return undefined;
  };

  const onPause = async (body: PauseBody): Promise<SaveOutcome> => {
    if (!pausing) return undefined;
    const res = await pauseCollection({ reference: pausing.id, body });
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(PZ.paused(res.data.reference, formatCalendarDate(body.until)));
    setPausing(null);
    return undefined;
  };

  const back = (
    <Button variant="outline-dark" size="sm" className="mb-3" onClick={onBack}>
      <i className="bi bi-arrow-left me-2" aria-hidden="true" />
      {L.back}
    </Button>
  );

  const c = credit.data;
  if (!c) {
    const notFound = (credit.error as ApiError | undefined)?.status === 404;
    return (
      <section>
        {back}
        <h1 className="h3">{L.title(reference)}</h1>
        {credit.isLoading ? (
          <PageSpinner />
        ) : notFound ? (
          <Alert variant="warning">{L.notFound}</Alert>
        ) : (
          <LoadError onRetry={() => void credit.refetch()} />
        )}
      </section>
    );
  }

  const onReverse = async () => {
    if (!reversing) return;
    const res = await reversePayment({ reference: c.reference, externalId: reversing.externalId });
    if ('error' in res) return res;
    toastSuccess(P.reversed(reversing.externalId));
    setReversing(null);
    setFollowing(Date.now());
  };

  const onResume = async () => {
    const res = await resumeCollection(c.reference);
    if ('error' in res) return res;
    toastSuccess(PZ.resumed(c.reference));
    setResuming(false);
    setFollowing(Date.now());
  };

  const stepColumns: DataTableColumn<CreditStep>[] = [
    { id: 'at', header: L.stepAt, className: 'text-nowrap', cell: (s) => formatDateTime(s.at) },
    { id: 'kind', header: L.stepKind, cell: (s) => COLLECTION_STEP_KINDS[s.kind as keyof typeof COLLECTION_STEP_KINDS] ?? s.kind },
    { id: 'installment', header: L.stepInstallment, className: 'text-end', hideBelow: 'lg', cell: (s) => displayValue(s.installment || null) },
    { id: 'outcome', header: L.stepOutcome, cell: (s) => (s.outcome === 'done' ? L.stepDone : L.stepSkipped) },
    {
      id: 'reason',
      header: L.stepReason,
      cell: (s) => (
        <>
          <span className="text-break">{s.reason}</span>
          {s.skippedDevices.map((d) => (
            <span key={d.id} className="d-block small text-body-secondary">
              {L.stepSkippedDevice(d.id, d.reason)}
            </span>
          ))}
        </>
      ),
    },
  ];
  const scheduleColumns: DataTableColumn<Installment>[] = [
    { id: 'number', header: L.installment, className: 'text-end', cell: (i) => i.number },
    { id: 'dueDate', header: L.dueDate, className: 'text-nowrap', cell: (i) => formatCalendarDate(i.dueDate) },
    { id: 'amount', header: L.amount, className: 'text-end text-nowrap', cell: (i) => money(i.amount, c.currency) },
    { id: 'paid', header: L.installmentPaid, className: 'text-end text-nowrap', cell: (i) => money(i.paid, c.currency) },
    { id: 'state', header: L.installmentState, cell: (i) => CREDIT_LABELS.installmentStates[i.state] },
  ];
  const paymentColumns: DataTableColumn<Payment>[] = [
    { id: 'amount', header: L.paymentAmount, className: 'text-end text-nowrap', cell: (p) => money(p.amount, c.currency) },
    { id: 'paidAt', header: L.paidAt, className: 'text-nowrap', cell: (p) => formatDateTime(p.paidAt) },
    { id: 'source', header: L.source, cell: (p) => CREDIT_LABELS.paymentSources[p.source] },
    { id: 'externalId', header: L.externalId, cell: (p) => <span className="font-monospace small text-break">{p.externalId}</span> },
    { id: 'recordedBy', header: L.recorded, hideBelow: 'xl', cell: (p) => displayValue(p.recordedBy) },
    {
      id: 'reversed',
      header: L.reversed,
      cell: (p) => (p.reversedAt ? L.reversedOn(formatDateTime(p.reversedAt), p.reversedBy) : L.notReversed),
    },
  ];
  const deviceColumns: DataTableColumn<CreditDevice>[] = [
    {
      id: 'imei',
      header: L.imei,
      cell: (d) =>
        canSeeDevices ? (
          <Link to={`${PATHS.devices}?device=${d.id}`} aria-label={L.openDevice(d.imei)} className="font-monospace">
            {d.imei}
          </Link>
        ) : (
          <span className="font-monospace">{d.imei}</span>
        ),
    },
    { id: 'type', header: L.deviceType, cell: (d) => deviceTypeLabel(d.deviceType) },
    { id: 'status', header: L.deviceStatus, cell: (d) => <span className={statusBadgeClass(d.status)}>{statusLabel(d.status)}</span> },
  ];

  return (
    <section data-testid="credit-detail">
      {back}
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <div className="d-flex flex-wrap align-items-center gap-2">
          <h1 className="h3 mb-0 text-break">{L.title(c.reference)}</h1>
          <CreditStateBadge state={c.state} daysOverdue={c.daysOverdue} />
        </div>
        {canPay && (
          <Button
            variant="primary"
            disabled={c.cancelled}
            title={c.cancelled ? L.cancelled : undefined}
            onClick={() => setPaying(newPaymentRequest(c.reference, c.currency))}
          >
            <i className="bi bi-cash-coin me-2" aria-hidden="true" />
            {L.register}
          </Button>
        )}
      </div>

      <section className="mb-4" aria-labelledby="credit-figures">
        <h2 className="h6" id="credit-figures">
          {L.figures} <span className="small fw-normal text-body-secondary">({L.figuresOn(formatCalendarDate(c.today))})</span>
        </h2>
        <dl className="row mb-0" data-testid="credit-figures">
          <Fact label={L.customer}>{c.customerName}</Fact>
          <Fact label={L.customerPhone}>{displayValue(c.customerPhone)}</Fact>
          <Fact label={L.total}>{money(c.total, c.currency)}</Fact>
          <Fact label={L.paid}>{money(c.paid, c.currency)}</Fact>
          <Fact label={L.balance}>{money(c.balance, c.currency)}</Fact>
          <Fact label={L.amountOverdue}>{money(c.amountOverdue, c.currency)}</Fact>
          <Fact label={L.daysOverdue}>{c.daysOverdue.toLocaleString('es-MX')}</Fact>
          <Fact label={L.nextDue}>
            {c.nextDueDate
              ? `${formatCalendarDate(c.nextDueDate)}${c.nextDueAmount ? ` · ${money(c.nextDueAmount, c.currency)}` : ''}`
              : displayValue(null)}
          </Fact>
          {c.nextStep && <Fact label={L.nextStep}>{c.nextStep.text}</Fact>}
        </dl>
      </section>

      <section className="mb-4" aria-labelledby="credit-collection" data-testid="credit-collection">
        <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-2">
          <h2 className="h6 mb-0" id="credit-collection">
            {L.collection}
          </h2>
          {canPause &&
            !c.cancelled &&
            (c.pause ? (
              <Button variant="outline-dark" size="sm" onClick={() => setResuming(true)}>
                <i className="bi bi-play-circle me-2" aria-hidden="true" />
                {L.resume}
              </Button>
            ) : (
              <Button variant="outline-dark" size="sm" onClick={() => setPausing({ id: c.reference, today: c.today })}>
                <i className="bi bi-pause-circle me-2" aria-hidden="true" />
                {L.pause}
              </Button>
            ))}
        </div>
        {c.pause && (
          // The pause lasts to the end of its day in the company's zone: the instant just before its end names that day.
          <Alert variant="info" className="py-2" data-testid="credit-pause">
            <p className="mb-1 fw-semibold">{L.pausedUntil(formatDateTime(new Date(Date.parse(c.pause.until) - 60_000)))}</p>
            <p className="mb-0 small">
              {L.pausedBy(c.pause.by)}
              {c.pause.reason && ` · ${L.pausedWhy(c.pause.reason)}`}
            </p>
          </Alert>
        )}
        <h3 className="h6 small text-body-secondary" id="credit-steps">
          {L.steps}
        </h3>
        <DataTable
          columns={stepColumns}
          rows={c.steps}
          getRowId={(s) => s.key}
          caption={L.steps}
          loading={false}
          size="sm"
          testId="credit-steps"
          empty={<p className="mb-0">{L.noSteps}</p>}
        />
      </section>

      <section className="mb-4" aria-labelledby="credit-schedule">
        <h2 className="h6" id="credit-schedule">
          {L.schedule}
        </h2>
        <DataTable
          columns={scheduleColumns}
          rows={c.installments}
          getRowId={(i) => i.number}
          caption={L.schedule}
          loading={false}
          size="sm"
          testId="credit-schedule"
        />
      </section>

      <section className="mb-4" aria-labelledby="credit-payments">
        <h2 className="h6" id="credit-payments">
          {L.payments}
        </h2>
        <DataTable
          columns={paymentColumns}
          rows={c.payments}
          getRowId={(p) => p.externalId}
          rowAttributes={(p) => ({ 'data-testid': `payment-row-${p.externalId}` })}
          caption={L.payments}
          loading={false}
          size="sm"
          testId="credit-payments"
          empty={<p className="mb-0">{L.noPayments}</p>}
          rowActions={
            canPay
              ? (p) =>
                  p.reversedAt === null && (
                    <Button variant="outline-danger" size="sm" aria-label={L.reverseOf(p.externalId)} onClick={() => setReversing(p)}>
                      {L.reverse}
                    </Button>
                  )
              : undefined
          }
        />
      </section>

      <section className="mb-4" aria-labelledby="credit-devices">
        <h2 className="h6" id="credit-devices">
          {L.devices}
        </h2>
        <DataTable
          columns={deviceColumns}
          rows={c.devices}
          getRowId={(d) => d.id}
          caption={L.devices}
          loading={false}
          size="sm"
          testId="credit-devices"
          empty={<p className="mb-0">{L.noDevices}</p>}
        />
      </section>

      <PauseFormModal editing={pausing} loading={pauseState.isLoading} onClose={() => setPausing(null)} onSubmit={onPause} />
      <ConfirmModal
        show={resuming}
        title={PZ.resumeTitle}
        message={PZ.resumeConfirm(c.reference)}
        confirmLabel={L.resume}
        confirmVariant="primary"
        loading={resumeState.isLoading}
        onClose={() => setResuming(false)}
        onConfirm={onResume}
      />
      <PaymentFormModal editing={paying} loading={registerState.isLoading} onClose={() => setPaying(null)} onSubmit={onPay} />
      <ConfirmModal
        show={reversing !== null}
        title={P.reverseTitle}
        message={reversing && P.reverseConfirm(money(reversing.amount, c.currency), reversing.externalId)}
        confirmLabel={L.reverse}
        loading={reverseState.isLoading}
        onClose={() => setReversing(null)}
        onConfirm={onReverse}
      />
    </section>
  );
}
