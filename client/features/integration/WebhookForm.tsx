import { useId } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useWatch } from 'react-hook-form';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { WEBHOOK_DISABLED_FAILING, WEBHOOK_EVENTS } from '../../../shared/constants/integration';
import { INTEGRATION_LABELS } from '../../../shared/constants/integrationLabels';
import { webhookBody, type Webhook, type WebhookBody, type WebhookBodyInput } from '../../../shared/contracts/webhooks';
import { firstMessage, showServerError, type SaveOutcome } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';

const L = INTEGRATION_LABELS.webhooks;
const F = FIELD_LABELS.webhooks;

export interface WebhookFormProps {
  /** The id of the form, which the dialog's 'Guardar' submits. */
  formId: string;
  webhook?: Webhook;
  onSubmit: (body: WebhookBody) => Promise<SaveOutcome>;
}

/** The form of a subscription over the API's `webhookBody`. */
export function WebhookForm({ formId, webhook, onSubmit }: WebhookFormProps) {
  const id = useId();
  const form = useContractForm<WebhookBodyInput, WebhookBody>(webhookBody, {
    defaultValues: webhook
      ? { name: webhook.name, url: webhook.url, events: [...webhook.events], enabled: webhook.enabled }
      : { name: '', url: '', events: [], enabled: true },
  });
  const { errors, isSubmitted } = form.formState;
  const events = useWatch({ control: form.control, name: 'events' }) ?? [];
  const enabled = useWatch({ control: form.control, name: 'enabled' });
  const eventsError = firstMessage(errors.events);
  const chosen = new Set<string>(events);
  const setEvents = (list: WebhookBodyInput['events']) => form.setValue('events', list, { shouldDirty: true, shouldValidate: isSubmitted });
  const toggle = (type: (typeof WEBHOOK_EVENTS)[number]['type']) =>
    setEvents(chosen.has(type) ? events.filter((t) => t !== type) : [...events, type]);
  const all = WEBHOOK_EVENTS.every((e) => chosen.has(e.type));
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    // A URL refused by the server (a private address in production) or a 400 naming a field.
    if (outcome) showServerError(form, outcome.error);
  });
  const failing = webhook && !webhook.enabled && webhook.disabledReason === WEBHOOK_DISABLED_FAILING;
  const enabledHelp = enabled ? (failing ? L.reenableNote : undefined) : L.enabledHelp;

  return (
    <Form id={formId} noValidate onSubmit={(e) => void submit(e)}>
      {failing && (
        <Alert variant="danger" className="small">
          <strong>{L.disabledFailing}</strong> {L.failingHelp}
        </Alert>
      )}
      <TextInput label={F.name} groupClassName="mb-3" autoComplete="off" error={errors.name?.message} {...form.register('name')} />
      <TextInput
        label={F.url}
        groupClassName="mb-1"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={L.urlPlaceholder}
        aria-describedby={`${id}-url-help`}
        error={errors.url?.message}
        {...form.register('url')}
      />
      <Form.Text id={`${id}-url-help`} className="d-block mb-3">
        {L.urlHelp}
      </Form.Text>
      <fieldset className="mb-3" aria-describedby={[`${id}-events-help`, eventsError && `${id}-events-error`].filter(Boolean).join(' ')}>
        <legend className="form-label fs-6 mb-1">{F.events}</legend>
        <Form.Text id={`${id}-events-help`} className="d-block mb-2">
          {L.eventsHelp}
        </Form.Text>
        <Form.Check
          type="checkbox"
          id={`${id}-events-all`}
          className="fw-semibold"
          label={L.allEvents}
          checked={all}
          onChange={() => setEvents(all ? [] : WEBHOOK_EVENTS.map((e) => e.type))}
        />
        <div className="border rounded px-3 py-2" data-testid="webhook-events">
          {WEBHOOK_EVENTS.map((e) => (
            <Form.Check
              key={e.type}
              type="checkbox"
              id={`${id}-event-${e.type}`}
              label={
                <>
                  {e.label} <code className="small text-body-secondary">{e.type}</code>
                </>
              }
              checked={chosen.has(e.type)}
              isInvalid={Boolean(eventsError)}
              onChange={() => toggle(e.type)}
            />
          ))}
        </div>
        {eventsError && (
          <div className="invalid-feedback d-block" id={`${id}-events-error`}>
            {eventsError}
          </div>
        )}
      </fieldset>
      <Form.Check
        type="switch"
        role="switch"
        id={`${id}-enabled`}
        label={F.enabled}
        aria-describedby={enabledHelp ? `${id}-enabled-help` : undefined}
        {...form.register('enabled')}
      />
      {enabledHelp && (
        <Form.Text id={`${id}-enabled-help`} className="d-block">
          {enabledHelp}
        </Form.Text>
      )}
    </Form>
  );
}
