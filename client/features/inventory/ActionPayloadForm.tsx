import { useEffect, useId, useState, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { UseFormReturn } from 'react-hook-form';
import * as z from 'zod';
import { DEVICE_ACTION } from '../../../shared/constants/deviceActions';
import { LOCK_TYPES, type DeviceTypeCode, type LockType } from '../../../shared/constants/domain';
import { INVENTORY_LABELS } from '../../../shared/constants/inventoryLabels';
import { actionPayload, type ActionPayload, type ActionPayloadInput, type LockDefaults } from '../../../shared/contracts/deviceActions';
import { useContractForm } from '../../components/useContractForm';
import { dateTimeInstant, parseDayText } from '../../components/DateInput';
import { LABELS } from '../../../shared/constants/labels';
import { MESSAGE_MAX, NOTIFICATION_TITLE_MAX, OFFLINE_UNLOCK_MAX_DAYS } from '../../../shared/constants/limits';

const L = INVENTORY_LABELS.actions;

/** The form's fields (named like the payload's, so the shared schema's errors land on them). */
export interface PayloadFields {
  lockType: LockType;
  message: string;
  stolen: boolean;
  /** UNLOCK: a local date and time (dd/mm/aaaa hh:mm); UNLOCK_OFFLINE_WITH_DATE: a date (dd/mm/aaaa). */
  until: string;
  title: string;
  /** SEND_NOTIFICATION: stays on the screen until the customer confirms it. */
  persistent: boolean;
  reference: string;
}

const DEFAULTS: PayloadFields = { lockType: LOCK_TYPES[0].key, message: '', stolen: false, until: '', title: '', persistent: false, reference: '' };

/**
 * The lock type the lock dialog proposes for a device of a type and group (the agent setting
 * 'Tipo de bloqueo predeterminado': the group's own value, else the type's global one);
 * undefined until the defaults are loaded.
 */
export function proposedLockType(
  defaults: LockDefaults | undefined,
  deviceType: DeviceTypeCode,
  groupId: number | null = null,
): LockType | undefined {
  if (!defaults) return undefined;
  const ofType = defaults.byType[deviceType];
  return (groupId !== null ? ofType.groups[String(groupId)] : undefined) ?? ofType.global;
}

/** The last second of a local date typed as dd/mm/aaaa ('05/03/2026'); an unreadable text is passed on for the schema to refuse. */
function endOfLocalDay(value: string): string {
  const day = parseDayText(value);
  if (!day) return value;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(year, month - 1, date, 23, 59, 59).toISOString();
}

/** The API payload an action's form values make. */
export function payloadOf(action: number, v: PayloadFields): Record<string, unknown> {
  switch (action) {
    case DEVICE_ACTION.LOCK:
      return { action, lockType: v.lockType, message: v.message, stolen: v.stolen };
    case DEVICE_ACTION.UNLOCK:
      return { action, until: v.until.trim() ? dateTimeInstant(v.until) : null };
    case DEVICE_ACTION.SEND_NOTIFICATION:
      return { action, title: v.title, message: v.message, ...(v.persistent && { persistent: true }) };
    case DEVICE_ACTION.CODE_BAR:
      return { action, reference: v.reference };
    case DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE:
      return { action, until: v.until ? endOfLocalDay(v.until) : undefined };
    default:
      return { action };
  }
}

/** The shared `actionPayload` contract over the form's values. */
const schemaFor = (action: number) => z.preprocess((v: PayloadFields) => payloadOf(action, v), actionPayload);

function Counter({ id, value, max }: { id: string; value: string; max: number }) {
  return (
    <Form.Text id={id} className={`d-block text-end ${value.length > max ? 'text-danger' : ''}`}>
      {LABELS.counter(value.length, max)}
    </Form.Text>
  );
}

function Field({
  form,
  name,
  label,
  max,
  help,
  textarea = false,
  type = 'text',
  inputProps,
}: {
  form: UseFormReturn<PayloadFields, unknown, ActionPayload>;
  name: 'message' | 'title' | 'reference' | 'until';
  label: string;
  max?: number;
  help?: string;
  textarea?: boolean;
  type?: string;
  inputProps?: Record<string, string | undefined>;
}) {
  const id = useId();
  const error = form.formState.errors[name]?.message;
  const value = String(form.watch(name) ?? '');
  const describedBy = [error && `${id}-error`, max !== undefined && `${id}-counter`, help && `${id}-help`].filter(Boolean).join(' ') || undefined;
  const common = {
    isInvalid: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    autoComplete: 'off',
    ...form.register(name),
  };
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      {textarea ? <Form.Control as="textarea" rows={3} {...common} /> : <Form.Control type={type} {...inputProps} {...common} />}
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
      {help && (
        <Form.Text id={`${id}-help`} className="d-block">
          {help}
        </Form.Text>
      )}
      {max !== undefined && <Counter id={`${id}-counter`} value={value} max={max} />}
    </Form.Group>
  );
}

export interface ActionPayloadFormProps {
  formId: string;
  action: number;
  /** The sentence above the fields (what will happen to which devices). */
  intro: ReactNode;
  onSubmit: (payload: ActionPayloadInput) => void;
  /**
   * LOCK: the lock type to start on (the configured default). It may arrive after the form is
   * shown: the select then moves to it, unless the user has already chosen a type.
   */
  defaultLockType?: LockType;
}

/**
 * The payload of an action, validated by the shared `actionPayload` contract: LOCK (lock type,
 * message, reported stolen), UNLOCK (optional end), SEND_NOTIFICATION (title, message, persistent),
 * CODE_BAR (reference), UNLOCK_OFFLINE_WITH_DATE (date); the others have no fields. LOCK starts
 * on `defaultLockType` (the configured default). The modal's confirm button submits it (`formId`).
 */
export function ActionPayloadForm({ formId, action, intro, onSubmit, defaultLockType }: ActionPayloadFormProps) {
  const form = useContractForm<PayloadFields, ActionPayload>(schemaFor(action), {
    defaultValues: { ...DEFAULTS, lockType: defaultLockType ?? DEFAULTS.lockType },
  });
  const submit = form.handleSubmit((payload) => onSubmit(payload));
  const lockTypeId = `${formId}-lock-type`;
  const lockTypeError = form.formState.errors.lockType?.message;
  // The default arrives (or changes) after the first render: follow it until the user picks a type.
  const [lockTypeChosen, setLockTypeChosen] = useState(false);
  const { resetField } = form;
  useEffect(() => {
    if (defaultLockType !== undefined && !lockTypeChosen) resetField('lockType', { defaultValue: defaultLockType });
  }, [defaultLockType, lockTypeChosen, resetField]);
  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      <div className="mb-3">{intro}</div>
      {action === DEVICE_ACTION.LOCK && (
        <>
          <Form.Group className="mb-3" controlId={lockTypeId}>
            <Form.Label>{L.lockType}</Form.Label>
            <Form.Select
              isInvalid={Boolean(lockTypeError)}
              aria-describedby={lockTypeError ? `${lockTypeId}-error` : undefined}
              {...form.register('lockType', { onChange: () => setLockTypeChosen(true) })}
            >
              {LOCK_TYPES.map((t) => (
                <option key={t.key} value={t.key}>
                  {t.label}
                </option>
              ))}
            </Form.Select>
            {lockTypeError && (
              <Form.Control.Feedback type="invalid" id={`${lockTypeId}-error`}>
                {lockTypeError}
              </Form.Control.Feedback>
            )}
          </Form.Group>
          <Field form={form} name="message" label={L.lockMessage} max={MESSAGE_MAX} textarea />
          <Form.Check type="checkbox" id={`${formId}-stolen`} label={L.stolen} {...form.register('stolen')} />
        </>
      )}
      {action === DEVICE_ACTION.UNLOCK && (
        <Field
          form={form}
          name="until"
          label={L.until}
          help={L.untilHelp}
          // Typed as dd/mm/aaaa hh:mm whatever the browser's language (a datetime-local input follows the browser's).
          inputProps={{ placeholder: LABELS.dateTimePlaceholder, autoComplete: 'off' }}
        />
      )}
      {action === DEVICE_ACTION.SEND_NOTIFICATION && (
        <>
          <Field form={form} name="title" label={L.notificationTitle} max={NOTIFICATION_TITLE_MAX} />
          <Field form={form} name="message" label={L.notificationMessage} max={MESSAGE_MAX} textarea />
          <Form.Check type="checkbox" id={`${formId}-persistent`} label={L.persistent} {...form.register('persistent')} />
        </>
      )}
      {action === DEVICE_ACTION.CODE_BAR && <Field form={form} name="reference" label={L.reference} max={64} help={L.referenceHelp} />}
      {action === DEVICE_ACTION.UNLOCK_OFFLINE_WITH_DATE && (
        <Field
          form={form}
          name="until"
          label={L.validUntil}
          help={L.validUntilHelp(OFFLINE_UNLOCK_MAX_DAYS)}
          // Typed as dd/mm/aaaa whatever the browser's language (a date input follows the browser's).
          inputProps={{ placeholder: LABELS.datePlaceholder, inputMode: 'numeric' }}
        />
      )}
    </Form>
  );
}
