import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import type { Webhook, WebhookBody } from '../../../shared/contracts/webhooks';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { WEBHOOK_FORM } from './dialogChunks';

const L = INTEGRATION_LABELS.webhooks;
const FORM_ID = 'webhook-form';

/** Create or edit a webhook subscription. */
export function WebhookFormModal({ onSubmit, ...modal }: EntityFormModalOf<Webhook, WebhookBody>) {
  useIdlePrefetch(WEBHOOK_FORM);
  return (
    <EntityFormModal {...modal} createTitle={L.createTitle} editTitle={L.editTitle} formId={FORM_ID} size="lg">
      {(webhook) => <WEBHOOK_FORM.Component formId={FORM_ID} webhook={webhook} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
