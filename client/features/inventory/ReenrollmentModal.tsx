import { useEffect, useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import type { Device } from '../../../shared/contracts/devices';
import {
  REENROLLMENT_DEFAULT_HOURS,
  reenrollmentBody,
  type ReenrollmentBody,
  type ReenrollmentBodyInput,
} from '../../../shared/contracts/enrollment';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { AppModal } from '../../components/AppModal';
import { showServerError } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import { useContractForm } from '../../components/useContractForm';
import { CreatedToken, shownToken, ValiditySelect, type Shown } from './EnrollmentQrModal';
import { useAuthorizeReenrollmentMutation } from './enrollmentApi';

const R = INVENTORY_LABELS.reenrollment;

export type ReenrollmentDevice = Pick<Device, 'id' | 'imei' | 'customerName'>;

/**
 * 'Autorizar reenrolamiento': the confirmation names the device (IMEI and customer) and what the
 * authorisation does; confirmed, the server issues a single-use token for that one device (24 h
 * by default), shown once as the smartphone QR code and the TV short code.
 */
export function ReenrollmentModal({ device, onClose }: { device: ReenrollmentDevice; onClose: () => void }) {
  const [authorize, state] = useAuthorizeReenrollmentMutation();
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);
  const formId = useId();
  const form = useContractForm<ReenrollmentBodyInput, ReenrollmentBody>(reenrollmentBody, {
    defaultValues: { deviceId: device.id, validHours: REENROLLMENT_DEFAULT_HOURS },
  });
  const validHoursError = form.formState.errors.validHours?.message;
  const shownSvgUrl = shown?.svgUrl;
  useEffect(
    () => () => {
      if (shownSvgUrl) URL.revokeObjectURL(shownSvgUrl);
    },
    [shownSvgUrl],
  );

  const submit = form.handleSubmit(async (body) => {
    setError(null);
    const res = await authorize(body);
    if ('error' in res) {
      const failure = formErrorOf(res.error as ApiError);
      if (!showServerError(form, failure)) setError(failure.message);
      return;
    }
    setShown(shownToken(res.data));
    toastSuccess(R.authorized);
  });

  if (shown) {
    return (
      <AppModal show size="xl" title={R.title(device.imei)} readOnly onClose={onClose}>
        <CreatedToken shown={shown} scope={{ kind: 'device', id: device.id, imei: device.imei }} title={R.resultTitle} />
      </AppModal>
    );
  }
  return (
    <AppModal
      show
      title={R.title(device.imei)}
      confirmLabel={R.confirm}
      confirmVariant="danger"
      formId={formId}
      loading={state.isLoading}
      onClose={onClose}
    >
      <Form id={formId} noValidate onSubmit={(e) => void submit(e)} data-testid="reenrollment-form">
        <p>{R.intro}</p>
        <dl className="row mb-3">
          <dt className="col-sm-4">{R.imei}</dt>
          <dd className="col-sm-8 font-monospace">{device.imei}</dd>
          <dt className="col-sm-4">{R.customer}</dt>
          <dd className="col-sm-8 mb-0">{device.customerName ?? R.noCustomer}</dd>
        </dl>
        <p className="small">{R.effects}</p>
        <Form.Group controlId={`${formId}-hours`}>
          <Form.Label>{R.validity}</Form.Label>
          <ValiditySelect errorId={`${formId}-hours-error`} error={validHoursError} {...form.register('validHours', { valueAsNumber: true })} />
          {validHoursError && (
            <div className="invalid-feedback d-block" id={`${formId}-hours-error`}>
              {validHoursError}
            </div>
          )}
        </Form.Group>
        {error && (
          <Alert variant="danger" className="mt-3 mb-0" role="alert" data-testid="reenrollment-error">
            {error}
          </Alert>
        )}
      </Form>
    </AppModal>
  );
}
