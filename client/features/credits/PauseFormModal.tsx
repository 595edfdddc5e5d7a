import Form from 'react-bootstrap/Form';
import { CREDIT_PAGE_LABELS } from '../../../shared/constants/creditPageLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { pauseBody, type PauseBody } from '../../../shared/contracts/credits';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { showServerError } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';

const L = CREDIT_PAGE_LABELS.pause;
const CP = FIELD_LABELS.collectionPolicy;
const FORM_ID = 'pause-form';

/** The credit a Pausar cobranza dialog pauses: its reference, and the company's date today (the earliest day it takes). */
export interface PauseRequest {
  id: string;
  today: string;
}

function PauseForm({ request, onSubmit }: { request: PauseRequest; onSubmit: EntityFormModalOf<PauseRequest, PauseBody>['onSubmit'] }) {
  const form = useContractForm<PauseBody, PauseBody>(pauseBody, { defaultValues: { until: '', reason: '' } });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (values) => {
    // 400 naming until (a day already past) or reason, 404 when the credit is gone.
    const outcome = await onSubmit(values);
    if (outcome) showServerError(form, outcome.error);
  });
  return (
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <TextInput
        label={CP.pauseUntil}
        type="date"
        min={request.today}
        groupClassName="mb-1"
        error={errors.until?.message}
        aria-describedby={`${FORM_ID}-until-hint`}
        {...form.register('until')}
      />
      <Form.Text id={`${FORM_ID}-until-hint`} className="d-block mb-3">
        {L.untilHint}
      </Form.Text>
      <TextInput label={CP.pauseReason} autoComplete="off" error={errors.reason?.message} {...form.register('reason')} />
    </Form>
  );
}

/** Pausar cobranza (Promesa de pago): until which company date and why, validated with the API's `pauseBody`. */
export function PauseFormModal({ onSubmit, ...modal }: EntityFormModalOf<PauseRequest, PauseBody>) {
  return (
    <EntityFormModal {...modal} editTitle={(r) => L.title(r.id)} formId={FORM_ID}>
      {(request) => request && <PauseForm request={request} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
