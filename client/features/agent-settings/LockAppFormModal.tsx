import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { appVersionLabel, type DeviceTypeCode } from '../../../shared/constants/domain';
import type { LockAppBody, LockAppVersion } from '../../../shared/contracts/agentSettings';
import { EntityFormModal, type EntityFormModalOf } from '../../components/EntityFormModal';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { LOCK_APP_FORM } from './dialogChunks';
import { LOCK_APP_FORM_ID } from './appFormIds';

const L = AGENT_APPS_LABELS.lockApp;

/** Create or edit a lock-app version. */
export function LockAppFormModal({
  deviceType,
  onSubmit,
  ...modal
}: EntityFormModalOf<LockAppVersion, LockAppBody> & { deviceType: DeviceTypeCode }) {
  useIdlePrefetch(LOCK_APP_FORM);
  return (
    <EntityFormModal
      {...modal}
      createTitle={L.createTitle}
      editTitle={(v) => `${L.editTitle}: ${appVersionLabel(v.versionName, v.versionApp)}`}
      formId={LOCK_APP_FORM_ID}
      size="lg"
    >
      {(version) => <LOCK_APP_FORM.Component deviceType={deviceType} version={version} onSubmit={onSubmit} />}
    </EntityFormModal>
  );
}
