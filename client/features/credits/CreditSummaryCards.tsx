import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { CREDIT_LABELS, OVERDUE_BUCKETS } from '../../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { money } from '../../components/CreditStanding';
import { displayValue } from '../../components/EmptyValue';
import { formatCalendarDate } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';
import { useCreditSummaryQuery, type CreditFilterKey } from './creditsApi';

const L = CREDIT_PAGE_LABELS.portfolio;
/** A figure not known yet. */
const LOADING = '…';

type FilterChanges = Partial<Record<CreditFilterKey, string>>;

/** Amounts per currency, one line each ('-' when there are none). */
function Amounts({ amounts }: { amounts: readonly { currency: string; amount: string }[] }) {
  if (amounts.length === 0) return <>{displayValue(null)}</>;
  return (
    <>
      {amounts.map((a) => (
        <span key={a.currency} className="d-block">
          {money(a.amount, a.currency)}
        </span>
      ))}
    </>
  );
}

/**
 * One figure: its label and value; with `filter` (and the count known), the value is a button that
 * shows the matching credits. `count`: the text its button is named by when the value is more than text.
 */
function Figure({
  label,
  value,
  count,
  filter,
  onFilter,
}: {
  label: string;
  value: ReactNode;
  count?: string;
  filter?: FilterChanges;
  onFilter: (f: FilterChanges) => void;
}) {
  const name = count ?? (typeof value === 'string' ? value : undefined);
  const button = filter !== undefined && name !== undefined && value !== LOADING;
  return (
    <Col xs={6} md={4} xl={2}>
      <Card className="h-100">
        <Card.Body className="py-2 px-3">
          <div className="small text-body-secondary">{label}</div>
          <div className="fs-5 fw-semibold" data-testid={`credit-figure-${label}`}>
            {button ? (
              <Button
                variant="link"
                className="p-0 fs-5 fw-semibold text-start"
                aria-label={L.showFiltered(label, name)}
                onClick={() => onFilter(filter)}
              >
                {value}
              </Button>
            ) : (
              value
            )}
          </div>
        </Card.Body>
      </Card>
    </Col>
  );
}

/**
 * The portfolio's figures on the company's date (GET /v5/credits/summary). Each count equals the
 * total of the list filtered the matching way, so a click shows those credits.
 */
export function CreditSummaryCards({ onFilter }: { onFilter: (filter: FilterChanges) => void }) {
  const summary = useCreditSummaryQuery();
  const s = summary.data;
  if (summary.isError && !s) return <LoadError onRetry={() => void summary.refetch()} />;
  const n = (v: number | undefined) => (v === undefined ? LOADING : v.toLocaleString('es-MX'));
  return (
    <section className="mb-3" aria-labelledby="credit-summary-title" aria-busy={summary.isLoading || undefined}>
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-2">
        <h2 className="h6 mb-0" id="credit-summary-title">
          {L.summary}
        </h2>
        {s && <span className="small text-body-secondary">{L.summaryToday(formatCalendarDate(s.today))}</span>}
      </div>
      <Row className="g-2">
        <Figure label={L.total} value={n(s?.total)} filter={{}} onFilter={onFilter} />
        <Figure label={L.current} value={n(s?.byState.current)} filter={{ state: 'current' }} onFilter={onFilter} />
        <Figure label={L.overdue} value={n(s?.byState.overdue)} filter={{ state: 'overdue' }} onFilter={onFilter} />
        <Figure label={L.amountOverdue} value={s ? <Amounts amounts={s.amountOverdue} /> : LOADING} onFilter={onFilter} />
        <Figure label={L.dueThisWeek} value={n(s?.dueThisWeek)} filter={{ dueThisWeek: 'true' }} onFilter={onFilter} />
        <Figure label={L.paidOff} value={n(s?.byState.paid_off)} filter={{ state: 'paid_off' }} onFilter={onFilter} />
        {OVERDUE_BUCKETS.map((b) => (
          <Figure
            key={b}
            label={`${L.overdue}: ${CREDIT_LABELS.overdueBuckets[b]}`}
            value={n(s?.overdueBuckets[b])}
            filter={{ overdue: b }}
            onFilter={onFilter}
          />
        ))}
        <Figure
          label={L.paymentsToday}
          filter={{ paidToday: 'true' }}
          count={s ? n(s.paymentsToday.count) : undefined}
          value={
            s ? (
              <>
                {n(s.paymentsToday.count)}
                <span className="d-block small fw-normal">
                  <Amounts amounts={s.paymentsToday.amounts} />
                </span>
              </>
            ) : (
              LOADING
            )
          }
          onFilter={onFilter}
        />
      </Row>
    </section>
  );
}
