import { useEffect } from 'react';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { DEVICE_TYPES } from '../../../shared/constants/domain';
import type { Device, DeviceBody, DeviceBodyInput } from '../../../shared/contracts/devices';
import type { Group } from '../../../shared/contracts/groups';
import { showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { GroupOptions } from './GroupOptions';
import { INVENTORY_LABELS as L } from '../../../shared/constants/inventoryLabels';

export type { SaveOutcome };

/** What the form holds: texts as typed, the type and the group as numbers (null = no group). */
type DeviceFormValues = DeviceBodyInput;

/** The API's `deviceBody`, loaded once the page is idle (useContractForm): Agregar dispositivo's first load carries no zod. */
const deviceBodySchema = () => import('../../../shared/contracts/devices').then((m) => m.deviceBody);

function valuesOf(device: Device | undefined, keep?: Pick<DeviceFormValues, 'deviceType' | 'groupId'>): DeviceFormValues {
  return {
    imei: device?.imei ?? '',
    imei2: device?.imei2 ?? '',
    serial: device?.serial ?? '',
    deviceType: device?.deviceType ?? keep?.deviceType ?? DEVICE_TYPES[0].code,
    brand: device?.brand ?? '',
    model: device?.model ?? '',
    groupId: device?.groupId ?? keep?.groupId ?? null,
    customerName: device?.customerName ?? '',
    creditReference: device?.creditReference ?? '',
  };
}

export interface DeviceFormProps {
  formId: string;
  /** The device being edited (prefills the fields); absent for a new one. */
  device?: Device;
  groups: readonly Pick<Group, 'id' | 'name'>[];
  /** Called with the parsed body (the shared `deviceBody` schema); answers whether it saved. */
  onSubmit: (body: DeviceBody) => Promise<SaveOutcome> | SaveOutcome;
  /** Empties the fields after a successful save (type and group stay), for the next device. */
  resetAfterSave?: boolean;
}

/**
 * The one-device form (registration and edit), validated with the API's own schema: the
 * reason a field is wrong (15 digits, the Luhn check digit…) shows under it. A server error
 * that names a field (IMEI taken, unknown group) shows under that field too.
 */
export function DeviceForm({ formId, device, groups, onSubmit, resetAfterSave = false }: DeviceFormProps) {
  const form = useContractForm<DeviceFormValues, DeviceBody>(deviceBodySchema, { defaultValues: valuesOf(device) });
  const { errors } = form.formState;

  // The options may arrive after the form: show the chosen group once they do.
  useEffect(() => {
    form.setValue('groupId', form.getValues('groupId'));
  }, [form, groups]);

  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    if (outcome) {
      showServerError(form, outcome.error);
      return;
    }
    if (resetAfterSave) form.reset(valuesOf(undefined, { deviceType: body.deviceType, groupId: body.groupId }));
  });

  const selectError = (name: 'deviceType' | 'groupId') => {
    const message = errors[name]?.message;
    return {
      isInvalid: Boolean(message),
      'aria-invalid': message ? true : undefined,
      'aria-describedby': message ? `${formId}-${name}-error` : undefined,
    } as const;
  };

  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      <Row className="g-3">
        <Col md={6}>
          <TextInput label={L.deviceForm.imei} inputMode="numeric" autoComplete="off" error={errors.imei?.message} {...form.register('imei')} />
        </Col>
        <Col md={6}>
          <TextInput label={L.deviceForm.imei2} inputMode="numeric" autoComplete="off" error={errors.imei2?.message} {...form.register('imei2')} />
        </Col>
        <Col md={6}>
          <TextInput
            label={L.deviceForm.serial}
            autoComplete="off"

            error={errors.serial?.message}
            {...form.register('serial')}
          />
        </Col>
        <Col md={6}>
          <Form.Group controlId={`${formId}-deviceType`}>
            <Form.Label>{L.deviceForm.deviceType}</Form.Label>
            <Form.Select
              {...selectError('deviceType')}
              {...form.register('deviceType', { setValueAs: (v: unknown) => (v === '' || v == null ? undefined : Number(v)) })}
            >
              {DEVICE_TYPES.map((t) => (
                <option key={t.code} value={t.code}>
                  {t.label}
                </option>
              ))}
            </Form.Select>
            {errors.deviceType && (
              <Form.Control.Feedback type="invalid" id={`${formId}-deviceType-error`}>
                {errors.deviceType.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
        </Col>
        <Col md={6}>
          <TextInput label={L.deviceForm.brand} error={errors.brand?.message} {...form.register('brand')} />
        </Col>
        <Col md={6}>
          <TextInput label={L.deviceForm.model} error={errors.model?.message} {...form.register('model')} />
        </Col>
        <Col md={6}>
          <Form.Group controlId={`${formId}-groupId`}>
            <Form.Label>{L.deviceForm.group}</Form.Label>
            <Form.Select
              {...selectError('groupId')}
              {...form.register('groupId', { setValueAs: (v: unknown) => (v === '' || v == null ? null : Number(v)) })}
            >
              <option value="">{L.deviceForm.noGroup}</option>
              <GroupOptions groups={groups} />
            </Form.Select>
            {errors.groupId && (
              <Form.Control.Feedback type="invalid" id={`${formId}-groupId-error`}>
                {errors.groupId.message}
              </Form.Control.Feedback>
            )}
          </Form.Group>
        </Col>
        <Col md={6}>
          <TextInput
            label={L.deviceForm.customerName}

            error={errors.customerName?.message}
            {...form.register('customerName')}
          />
        </Col>
        <Col md={6}>
          <TextInput
            label={L.deviceForm.creditReference}
            autoComplete="off"

            error={errors.creditReference?.message}
            {...form.register('creditReference')}
          />
        </Col>
      </Row>
    </Form>
  );
}
