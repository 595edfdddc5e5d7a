import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router-dom';
import type { DeviceBody } from '../../../shared/contracts/devices';
import type { ApiError } from '../../api/axiosBaseQuery';
import { formErrorOf } from '../../api/apiErrors';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { LoadingButton } from '../../components/LoadingButton';
import { toastSuccess } from '../../components/toast';
import { SPEC_TEXT } from '../../../shared/messages';
import { CsvImport } from './CsvImport';
import { DeviceForm, type SaveOutcome } from './DeviceForm';
import { useCreateDeviceMutation } from './inventoryApi';
import { useListGroupsQuery } from '../../api/groupsApi';
import { ADD_DEVICE_LABELS } from '../../../shared/constants/addDeviceLabels';
import { PATHS } from '../../../shared/constants/routes';

const L = ADD_DEVICE_LABELS;
const FORM_ID = 'device-create-form';

/** Device registration: one device with the form, or many from a CSV file (both start pre-enrolled). */
export default function AddDevicePage({ title }: PageProps) {
  const { allowed } = useCurrentUser();
  const preEnrolledPath = allowed.has(PATHS.preEnrolled) ? PATHS.preEnrolled : undefined;
  const groups = useListGroupsQuery();
  const groupOptions = groups.data?.data ?? [];
  const [createDevice, createState] = useCreateDeviceMutation();
  const [registered, setRegistered] = useState<string | null>(null);

  const onCreate = async (body: DeviceBody): Promise<SaveOutcome> => {
    setRegistered(null);
    const res = await createDevice(body);
    if ('error' in res) return { error: formErrorOf(res.error as ApiError) };
    toastSuccess(L.created(res.data.imei));
    setRegistered(res.data.imei);
    return undefined;
  };

  return (
    <section>
      <h1 className="h3 mb-3">{title}</h1>
      <Card className="mb-4" as="section" aria-labelledby="add-device-one">
        <Card.Body>
          <h2 className="h5 mb-1" id="add-device-one">
            {L.oneTitle}
          </h2>
          <p className="small mb-3">{L.oneIntro}</p>
          <DeviceForm formId={FORM_ID} groups={groupOptions} onSubmit={onCreate} resetAfterSave />
          <div className="d-flex flex-wrap align-items-center gap-3 mt-3">
            <LoadingButton type="submit" form={FORM_ID} loading={createState.isLoading}>
              {SPEC_TEXT.save}
            </LoadingButton>
          </div>
          <div aria-live="polite">
            {registered && (
              <Alert variant="success" className="mt-3 mb-0" data-testid="device-registered">
                {L.createdDetail(registered)}{' '}
                {preEnrolledPath && (
                  <Link to={preEnrolledPath} className="alert-link">
                    {L.viewPreEnrolled}
                  </Link>
                )}
              </Alert>
            )}
          </div>
        </Card.Body>
      </Card>
      <Card as="section" aria-labelledby="add-device-csv">
        <Card.Body>
          <h2 className="h5 mb-3" id="add-device-csv">
            {L.csvTitle}
          </h2>
          <CsvImport groups={groupOptions} preEnrolledPath={preEnrolledPath} />
        </Card.Body>
      </Card>
    </section>
  );
}
