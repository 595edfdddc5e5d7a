import { CREDIT_LABELS } from '../../shared/constants/creditLabels';
import { CREDIT_PAGE_LABELS } from '../../shared/constants/creditPageLabels';
import { formatMoney, parseAmount, type CreditState } from '../../shared/credits';

/** Bootstrap badge classes per credit state (each pairs its background with a readable text colour). */
const STATE_CLASSES: Record<CreditState, string> = {
  current: 'text-bg-success',
  overdue: 'text-bg-danger',
  paid_off: 'text-bg-info',
  cancelled: 'text-bg-secondary',
};

/**
 * An amount of the API (a decimal string, '1250.00') as people read it: '1,250.00 MXN'. A value
 * the wire form cannot hold (never sent by the API) shows as it came.
 */
export function money(amount: string, currency: string): string {
  const cents = parseAmount(amount);
  return cents === null ? `${amount} ${currency}` : formatMoney(cents, currency);
}

/** A credit's state as a badge; an overdue credit carries its days overdue ('Vencido · 5 días'). */
export function CreditStateBadge({ state, daysOverdue }: { state: CreditState; daysOverdue: number }) {
  const label = CREDIT_LABELS.states[state];
  return (
    <span className={`badge ${STATE_CLASSES[state]}`} data-testid="credit-state">
      {state === 'overdue' && daysOverdue > 0 ? `${label} · ${CREDIT_PAGE_LABELS.daysOverdue(daysOverdue)}` : label}
    </span>
  );
}
