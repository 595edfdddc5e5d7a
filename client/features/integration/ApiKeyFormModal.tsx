import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import type { ApiKey, ApiKeyBody } from '../../../shared/contracts/apiKeys';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { API_KEY_FORM, API_KEY_FORM_ID } from './dialogChunks';

/** 'Nueva clave de API' (keys are never edited); a fresh form each time it opens. */
export function ApiKeyFormModal({ onSubmit, ...modal }: EntityFormModalOf<ApiKey, ApiKeyBody>) {
  useIdlePrefetch(API_KEY_FORM);
  return (
    <EntityFormModal {...modal} createTitle={INTEGRATION_LABELS.apiKeys.createTitle} formId={API_KEY_FORM_ID}>
      {() => <API_KEY_FORM.Component formId={API_KEY_FORM_ID} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
