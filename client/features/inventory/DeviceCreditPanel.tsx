import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { Device } from '../../../shared/contracts/devices';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { CreditStateBadge, money } from '../../components/CreditStanding';
import { displayValue } from '../../components/EmptyValue';
import { formatCalendarDate } from '../../components/formatDate';
import { LoadError } from '../../components/LoadError';
import { useDeviceCreditQuery } from './inventoryApi';

const L = CREDIT_PAGE_LABELS.devicePanel;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="col-5">{label}</dt>
      <dd className="col-7 text-break">{children}</dd>
    </>
  );
}

/**
 * The Crédito panel of a device's detail: the credit whose reference the device carries (next due
 * date and amount, days and amount overdue, the engine's next step when the answer has one) and a
 * link to the credit's page; an empty state when the device carries no reference or none matches.
 */
export function DeviceCreditPanel({ device }: { device: Pick<Device, 'id' | 'creditReference'> }) {
  const { allowed } = useCurrentUser();
  const reference = device.creditReference;
  const credit = useDeviceCreditQuery(device.id, { skip: !reference });
  const titleId = `device-credit-${device.id}`;
  const c = credit.data;
  const step = c?.nextStep?.text ?? null;

  let body: ReactNode;
  if (!reference) body = <p className="small mb-0">{L.noReference}</p>;
  else if (credit.isLoading)
    body = (
      <p className="small mb-0" role="status">
        {L.loading}
      </p>
    );
  else if (credit.isError && c === undefined) body = <LoadError onRetry={() => void credit.refetch()} />;
  else if (!c) body = <p className="small mb-0">{L.noCredit(reference)}</p>;
  else
    body = (
      <>
        <dl className="row small mb-2" data-testid="device-credit">
          <Fact label={L.reference}>{c.reference}</Fact>
          <Fact label={L.state}>
            <CreditStateBadge state={c.state} daysOverdue={c.daysOverdue} />
          </Fact>
          <Fact label={L.nextDue}>{c.nextDueDate ? formatCalendarDate(c.nextDueDate) : displayValue(null)}</Fact>
          <Fact label={L.nextDueAmount}>{c.nextDueAmount ? money(c.nextDueAmount, c.currency) : displayValue(null)}</Fact>
          <Fact label={L.daysOverdue}>{c.daysOverdue.toLocaleString('es-MX')}</Fact>
          <Fact label={L.amountOverdue}>{money(c.amountOverdue, c.currency)}</Fact>
          {step && <Fact label={L.nextStep}>{step}</Fact>}
        </dl>
        {allowed.has(PATHS.creditPortfolio) && (
          <Link to={`${PATHS.creditPortfolio}?credit=${encodeURIComponent(c.reference)}`} className="small">
            {L.open(c.reference)}
          </Link>
        )}
      </>
    );

  return (
    <section className="mb-4" aria-labelledby={titleId} data-testid="device-credit-panel">
      <h3 className="h6" id={titleId}>
        {L.title}
      </h3>
      {body}
    </section>
  );
}
