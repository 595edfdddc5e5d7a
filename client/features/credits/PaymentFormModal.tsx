import { LABELS } from '../../../shared/constants/labels';
import { dateTimeInstant, dateTimeText } from '../../components/DateInput';
import Form from 'react-bootstrap/Form';
import * as z from 'zod';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { paymentBody, type PaymentBodyInput } from '../../../shared/contracts/credits';
import { formatAmount } from '../../../shared/credits';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { showServerError } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';

const L = CREDIT_PAGE_LABELS.payment;
const P = FIELD_LABELS.payments;
const FORM_ID = 'payment-form';

/** The payment a dialog registers: its externalId is made when the dialog opens, so a retried save is the same payment. */
export interface PaymentRequest {
  id: string;
  reference: string;
  currency: string;
}

/** A new dialog's request: 'portal-' and a UUID, the externalId the server takes as the payment's identity. */
export function newPaymentRequest(reference: string, currency: string): PaymentRequest {
  return { id: `portal-${crypto.randomUUID()}`, reference, currency };
}

/** The API's payment body without the externalId (the dialog's own), the paid-at instant typed as local date and time. */
const paymentForm = paymentBody.omit({ externalId: true }).extend({
  paidAt: z.string().transform(dateTimeInstant).pipe(paymentBody.shape.paidAt),
});
type PaymentFormValues = z.input<typeof paymentForm>;
type PaymentFormOutput = z.output<typeof paymentForm>;

function PaymentForm({ request, onSubmit }: { request: PaymentRequest; onSubmit: EntityFormModalOf<PaymentRequest, PaymentBodyInput>['onSubmit'] }) {
  const form = useContractForm<PaymentFormValues, PaymentFormOutput>(paymentForm, {
    defaultValues: { amount: '', paidAt: dateTimeText(new Date()) },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    // The wire forms again: the amount as a decimal string of its cents, the instant in ISO 8601.
    const outcome = await onSubmit({ externalId: request.id, amount: formatAmount(values.amount), paidAt: values.paidAt.toISOString() });
    // 400 naming amount or paidAt (a date later than now), 409 'Crédito cancelado'…
    if (outcome) showServerError(form, outcome.error);
  });
  return (
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput
        label={P.amount}
        groupClassName="mb-1"
        inputMode="decimal"
        autoComplete="off"
        error={errors.amount?.message}
        aria-describedby={`${FORM_ID}-amount-hint`}
        {...form.register('amount')}
      />
      <Form.Text id={`${FORM_ID}-amount-hint`} className="d-block mb-3">
        {L.amountHint(request.currency)}
      </Form.Text>
      <TextInput
        label={P.paidAt}
        // dd/mm/aaaa hh:mm whatever the browser's language (a datetime-local input follows the browser's).
        placeholder={LABELS.dateTimePlaceholder}
        autoComplete="off"
        groupClassName="mb-1"
        error={errors.paidAt?.message}
        aria-describedby={`${FORM_ID}-paid-at-hint`}
        {...form.register('paidAt')}
      />
      <Form.Text id={`${FORM_ID}-paid-at-hint`} className="d-block">
        {L.paidAtHint}
      </Form.Text>
    </Form>
  );
}

/** Registrar pago: the amount (decimal string) and when it was paid (now unless told), validated with the API's `paymentBody`. */
export function PaymentFormModal({ onSubmit, ...modal }: EntityFormModalOf<PaymentRequest, PaymentBodyInput>) {
  return (
    <EntityFormModal {...modal} editTitle={(r) => L.title(r.reference)} formId={FORM_ID}>
      {(request) => request && <PaymentForm request={request} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
