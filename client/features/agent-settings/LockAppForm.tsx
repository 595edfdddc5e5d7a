import { useId } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useWatch } from 'react-hook-form';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { APP_TYPE, DEVICE_TYPE, type DeviceTypeCode } from '../../../shared/constants/domain';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import {
  lockAppBody,
  RELEASE_NOTES_MAX,
  type LockAppBody,
  type LockAppBodyInput,
  type LockAppVersion,
} from '../../../shared/contracts/agentSettings';
import { showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { AppDownloadFields, AppTypeSelect, ExactTextInput } from './agentAppsShared';
import { LOCK_APP_FORM_ID } from './appFormIds';
import { LABELS } from '../../../shared/constants/labels';

const L = AGENT_APPS_LABELS.lockApp;
const F = FIELD_LABELS.lockApp;
const FORM_ID = LOCK_APP_FORM_ID;

/** The app type a new version of a device type starts with: Macrolock for smartphones, Macrolock.TV for TVs. */
const defaultAppType = (deviceType: DeviceTypeCode) => (deviceType === DEVICE_TYPE.TV ? APP_TYPE.TV : APP_TYPE.INTERNAL);

function ReleaseNotesField({ form }: { form: ReturnType<typeof useContractForm<LockAppBodyInput, LockAppBody>> }) {
  const id = useId();
  const error = form.formState.errors.releaseNotes?.message;
  const value = useWatch({ control: form.control, name: 'releaseNotes' }) ?? '';
  const describedBy = [error && `${id}-error`, `${id}-help`, `${id}-counter`].filter(Boolean).join(' ');
  return (
    <Form.Group controlId={id}>
      <Form.Label>{F.releaseNotes}</Form.Label>
      <Form.Control
        as="textarea"
        rows={5}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...form.register('releaseNotes')}
      />
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
      <div className="d-flex justify-content-between gap-2">
        <Form.Text id={`${id}-help`}>{L.releaseNotesHelp}</Form.Text>
        <Form.Text id={`${id}-counter`} className={`text-nowrap ${value.length > RELEASE_NOTES_MAX ? 'text-danger' : ''}`}>
          {LABELS.counter(value.length, RELEASE_NOTES_MAX)}
        </Form.Text>
      </div>
    </Form.Group>
  );
}

export interface LockAppFormProps {
  deviceType: DeviceTypeCode;
  version?: LockAppVersion;
  onSubmit: (body: LockAppBody) => Promise<SaveOutcome>;
}

/** The form of a lock-app version over the API's `lockAppBody` (a chunk of its own: LOCK_APP_FORM). */
export function LockAppForm({ deviceType, version, onSubmit }: LockAppFormProps) {
  const form = useContractForm<LockAppBodyInput, LockAppBody>(lockAppBody, {
    defaultValues: {
      versionName: version?.versionName ?? '',
      versionApp: version?.versionApp ?? '',
      appType: version?.appType ?? defaultAppType(deviceType),
      packageName: version?.packageName ?? '',
      downloadUrl: version?.downloadUrl ?? '',
      sha256: version?.sha256 ?? '',
      releaseNotes: version?.releaseNotes ?? '',
    },
  });
  const { errors } = form.formState;
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    // 409 'Ya existe esa versión de la app de bloqueo…', or a 400 naming a field.
    if (outcome) showServerError(form, outcome.error);
  });
  const smartphone = deviceType === DEVICE_TYPE.SMARTPHONE;

  return (
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <Row className="g-3">
        <Col md={6}>
          <TextInput label={F.versionName} autoComplete="off" error={errors.versionName?.message} {...form.register('versionName')} />
        </Col>
        <Col md={6}>
          <TextInput label={F.versionApp} autoComplete="off" error={errors.versionApp?.message} {...form.register('versionApp')} />
        </Col>
        <Col md={6}>
          <AppTypeSelect form={form} id={`${FORM_ID}-appType`} label={F.appType} />
        </Col>
        {smartphone && (
          <Col md={6}>
            <ExactTextInput
              label={F.packageName}
              placeholder={AGENT_APPS_LABELS.businessApps.packagePlaceholder}
              help={{ id: `${FORM_ID}-packageName-help`, text: L.packageHelp }}
              error={errors.packageName?.message}
              {...form.register('packageName')}
            />
          </Col>
        )}
        <AppDownloadFields form={form} formId={FORM_ID} fieldLabels={F} labels={L} />
        <Col xs={12}>
          <ReleaseNotesField form={form} />
        </Col>
      </Row>
    </Form>
  );
}
