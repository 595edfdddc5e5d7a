import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import type { BusinessApp, BusinessAppBody } from '../../../shared/contracts/agentSettings';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { BUSINESS_APP_FORM } from './dialogChunks';
import { BUSINESS_APP_FORM_ID } from './appFormIds';

const L = AGENT_APPS_LABELS.businessApps;

/** Create or edit a business app. */
export function BusinessAppFormModal({ onSubmit, ...modal }: EntityFormModalOf<BusinessApp, BusinessAppBody>) {
  useIdlePrefetch(BUSINESS_APP_FORM);
  return (
    <EntityFormModal {...modal} createTitle={L.createTitle} editTitle={L.editTitle} formId={BUSINESS_APP_FORM_ID} size="lg">
      {(app) => <BUSINESS_APP_FORM.Component app={app} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
