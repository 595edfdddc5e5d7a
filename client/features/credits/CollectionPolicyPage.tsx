import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { get, useFieldArray, useWatch, type FieldPath } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { COLLECTION_POLICY_LABELS } from '../../../shared/constants/collectionPolicyLabels';
import { COLLECTION_POLICY_FIELD_LABELS } from '../../../shared/constants/collectionPolicyFieldLabels';
import { PATHS } from '../../../shared/constants/routes';
import type { CollectionPolicyAnswer, CollectionPolicyValues } from '../../../shared/contracts/credits';
import { LADDER_KINDS, RELEASE_MODES } from '../../../shared/credits/collectionPlan';
import type { PolicyKey } from '../../../shared/credits/policySettings';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { useListGroupsQuery } from '../../api/groupsApi';
import { useAppDispatch } from '../../app/hooks';
import type { PageProps } from '../../app/lazyPage';
import { ScopedSaveBar } from '../../components/ScopedSaveBar';
import { LoadError } from '../../components/LoadError';
import { LoadingButton } from '../../components/LoadingButton';
import { PageSpinner } from '../../components/PageSpinner';
import { showServerError } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import { useContractForm } from '../../components/useContractForm';
import { useUnsavedChangesGuard } from '../../components/useUnsavedChangesGuard';
import { HistoryCard } from '../../components/HistoryCard';
import { ScopeMarker } from '../../components/ScopeMarker';
import { SettingsOverrides } from '../../components/SettingsOverrides';
import { groupIdParam, SettingsScopeBar } from '../../components/SettingsScopeBar';
import { creditsApi, useCollectionPolicyQuery, useSaveCollectionPolicyMutation } from './creditsApi';
import {
  formValuesOf,
  policyChangeText,
  policyLabel,
  policyValueText,
  toFormValue,
  type PolicyFormFields,
  type PolicyFormOutput,
} from './policyForm';

const P = COLLECTION_POLICY_LABELS;
const CP = COLLECTION_POLICY_FIELD_LABELS;
const S = AGENT_SETTINGS_LABELS;
const L = S.form;
const CONFLICT = 'POLICY_VERSION_CONFLICT';

type PolicyForm = ReturnType<typeof useContractForm<PolicyFormFields, PolicyFormOutput>>;

/**
 * Política de cobranza: the scope bar (Global or a group, kept in `?groupId=`), the policy's form
 * for that scope, the groups that override it and the scope's history, as the agent settings'
 * section pages show theirs. Leaving with unsaved changes asks first.
 */
export default function CollectionPolicyPage({ title }: PageProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  const groupId = groupIdParam(searchParams.get('groupId'));
  const args = groupId === undefined ? {} : { groupId };
  const query = useCollectionPolicyQuery(args);
  const groups = useListGroupsQuery();
  const [dirty, setDirty] = useState(false);
  const guard = useUnsavedChangesGuard(dirty);
  const [reloads, setReloads] = useState(0);
  const onDirtyChange = useCallback((d: boolean) => setDirty(d), []);

  const changeScope = (next: number | undefined) => guard.confirmLeave(() => setSearchParams(next === undefined ? {} : { groupId: String(next) }));
  const reload = () => {
    void query.refetch().then(() => setReloads((r) => r + 1));
  };

  // The answer of this scope only: another scope's answer never fills this scope's form.
  const answer = query.currentData;
  const groupList = groups.data?.data;
  const groupName = groupId === undefined ? undefined : (groupList?.find((g) => g.id === groupId)?.name ?? answer?.groupName ?? undefined);
  const error = query.error as ApiError | undefined;

  let content: ReactNode;
  if (!answer && query.isError) {
    content =
      groupId !== undefined && error?.status === 404 ? (
        <Alert variant="warning" className="d-flex flex-wrap align-items-center justify-content-between gap-2">
          <span>{S.scope.groupNotFound}</span>
          <Button variant="outline-dark" size="sm" onClick={() => changeScope(undefined)}>
            {S.scope.backToGlobal}
          </Button>
        </Alert>
      ) : (
        <LoadError message={P.loadError} onRetry={() => void query.refetch()} />
      );
  } else if (!answer) {
    content = <PageSpinner />;
  } else {
    const isGroup = answer.groupId !== null;
    content = (
      <>
        <PolicyForm
          key={`${groupId ?? 'global'}:${reloads}`}
          args={args}
          title={title}
          answer={answer}
          groupName={groupName}
          onDirtyChange={onDirtyChange}
          onReload={reload}
          reloading={query.isFetching}
        />
        <Row className="g-3 mt-1">
          <Col lg={6}>
            <Card className="mb-3">
              <Card.Body>
                <h2 className="h6">{S.overrides.title}</h2>
                <SettingsOverrides overrides={answer.overrides} pagePath={PATHS.collectionPolicy} />
              </Card.Body>
            </Card>
          </Col>
          <Col lg={6}>
            <HistoryCard entries={answer.history} describe={(c) => policyChangeText(c, isGroup)} />
          </Col>
        </Row>
      </>
    );
  }

  return (
    <section>
      <h1 className="h3 mb-1">{title}</h1>
      <p className="text-body-secondary">{P.description}</p>
      <SettingsScopeBar groupId={groupId} groups={groupList} groupsError={groups.isError && !groups.data} onChange={changeScope} />
      {content}
      {guard.dialog}
    </section>
  );
}

interface PolicyFormProps {
  args: { groupId?: number };
  title: string;
  /** The scope's answer when the form mounts; kept until a save or 'Recargar' remounts it. */
  answer: CollectionPolicyAnswer;
  groupName?: string;
  onDirtyChange: (dirty: boolean) => void;
  onReload: () => void;
  reloading: boolean;
}

const formFieldsOf = (answer: CollectionPolicyAnswer): PolicyFormFields => ({
  values: formValuesOf(answer.values),
  overridden: [...answer.overridden],
});

/**
 * The policy's form for one scope, as the agent settings' section form: Global saves every value
 * with the version the page loaded; a group inherits each key from Global or makes it its own
 * (editing it; 'Usar valor global' inherits it again) and saves its own keys only. A 409 offers 'Recargar'.
 */
function PolicyForm({ args, title, answer: initial, groupName, onDirtyChange, onReload, reloading }: PolicyFormProps) {
  const dispatch = useAppDispatch();
  const [answer, setAnswer] = useState(initial);
  const isGroup = answer.groupId !== null;
  const loaded = useMemo(() => formFieldsOf(answer), [answer]);
  const schema = useMemo(
    () => () => import('./policyFormSchema').then((m) => m.policyFormSchema(isGroup, answer.globalValues)),
    [isGroup, answer.globalValues],
  );
  const form = useContractForm<PolicyFormFields, PolicyFormOutput>(schema, { defaultValues: loaded });
  const overridden = useWatch({ control: form.control, name: 'overridden' });
  const { isDirty } = form.formState;
  const [save, saving] = useSaveCollectionPolicyMutation();
  const [conflict, setConflict] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const send = async (values: CollectionPolicyValues): Promise<boolean> => {
    setConflict(null);
    const res = await save({ ...args, version: answer.version, values });
    if ('error' in res) {
      const error = res.error as ApiError;
      const formError = formErrorOf(error);
      if (error.status === 409 && (error.data as { code?: unknown } | null)?.code === CONFLICT) setConflict(formError.message);
      else showServerError(form, formError);
      return false;
    }
    // The answer is the scope's new state: the form goes on from it (its version), and the page
    // shows it (overrides, history) without waiting for the refetch.
    setAnswer(res.data);
    form.reset(formFieldsOf(res.data));
    dispatch(creditsApi.util.upsertQueryData('collectionPolicy', args, res.data));
    return true;
  };

  const submit = form.handleSubmit(async (out) => {
    if (await send(out.values)) toastSuccess(P.saved);
  });
  const removeOverride = async () => {
    const done = await send({});
    setConfirmRemove(false);
    if (done) toastSuccess(L.overrideRemoved(groupName ?? ''));
  };

  const markOverridden = (key: PolicyKey) => {
    if (!isGroup) return;
    const own = form.getValues('overridden');
    if (!own.includes(key)) form.setValue('overridden', [...own, key], { shouldDirty: true });
  };
  const inheritGlobal = (key: PolicyKey) => {
    form.setValue(`values.${key}`, toFormValue(key, answer.globalValues[key]), { shouldDirty: true });
    form.setValue(
      'overridden',
      form.getValues('overridden').filter((k) => k !== key),
      { shouldDirty: true },
    );
    form.clearErrors(`values.${key}`);
  };

  /**
   * A key's inputs under its heading and, in a group's scope, its inherited marker; any edit makes
   * it the group's. A key alone in its card heads the card (level 2).
   */
  const block = (key: PolicyKey, children: ReactNode, opts: { hint?: string; level?: 2 | 3 } = {}) => {
    const Heading = opts.level === 2 ? 'h2' : 'h3';
    return (
      <fieldset className="mb-3" aria-label={policyLabel(key)} onChange={() => markOverridden(key)} data-testid={`policy-${key}`}>
        <div className="d-flex flex-wrap align-items-center justify-content-between column-gap-3 row-gap-1 mb-2">
          <Heading className={opts.level === 2 ? 'h5 mb-0' : 'h6 mb-0'}>{policyLabel(key)}</Heading>
          {isGroup && (
            <ScopeMarker
              testId={`scope-state-${key}`}
              label={policyLabel(key)}
              overridden={overridden.includes(key)}
              globalText={policyValueText(key, answer.globalValues[key])}
              onUseGlobal={() => inheritGlobal(key)}
            />
          )}
        </div>
        {opts.hint && <p className="small text-body-secondary">{opts.hint}</p>}
        {children}
      </fieldset>
    );
  };

  return (
    <>
      <Form noValidate onSubmit={(e) => void submit(e)} aria-label={title} data-testid="settings-form">
        {isGroup && (
          <p className="small mb-3" data-testid="group-override-count">
            {answer.overridden.length > 0 ? L.overriddenCount(answer.overridden.length) : L.noOverrideYet}
          </p>
        )}
        {conflict && (
          <Alert variant="warning" className="d-flex flex-wrap align-items-center justify-content-between gap-2" data-testid="settings-conflict">
            <span>{conflict}</span>
            <LoadingButton variant="outline-dark" size="sm" loading={reloading} onClick={onReload}>
              {L.reload}
            </LoadingButton>
          </Alert>
        )}
        <PolicyCard>
          {block('reminders', <Reminders form={form} onEdited={() => markOverridden('reminders')} />, { hint: P.remindersHint, level: 2 })}
        </PolicyCard>
        <PolicyCard>{block('ladder', <Ladder form={form} onEdited={() => markOverridden('ladder')} />, { hint: P.ladderHint, level: 2 })}</PolicyCard>
        <PolicyCard>
          {block(
            'lock',
            <>
              <Check form={form} name="values.lock.enabled" label={CP.lockEnabled} />
              <Row className="g-2">
                <Col sm={6} md={4}>
                  <Input form={form} name="values.lock.daysOverdue" label={CP.lockDays} type="number" />
                </Col>
              </Row>
              <Input form={form} name="values.lock.message" label={CP.lockMessage} as="textarea" />
            </>,
            { hint: P.lockHint, level: 2 },
          )}
        </PolicyCard>
        <PolicyCard>
          {block(
            'hours',
            <Row className="g-2">
              <Col sm={6} md={4}>
                <Input form={form} name="values.hours.from" label={CP.hoursFrom} type="time" />
              </Col>
              <Col sm={6} md={4}>
                <Input form={form} name="values.hours.to" label={CP.hoursTo} type="time" />
              </Col>
            </Row>,
            { hint: P.hoursHint, level: 2 },
          )}
        </PolicyCard>
        <PolicyCard title={P.calendar} hint={P.calendarHint}>
          {block('nonWorkingWeekdays', <Weekdays form={form} onEdited={() => markOverridden('nonWorkingWeekdays')} />)}
          {block('mexicanHolidays', <Check form={form} name="values.mexicanHolidays" label={CP.mexicanHolidays} />)}
          {block('holidays', <Input form={form} name="values.holidays" label={CP.holidays} as="textarea" hint={P.holidaysHint} />)}
          {block('shiftDueDates', <Check form={form} name="values.shiftDueDates" label={CP.shiftDueDates} />)}
        </PolicyCard>
        <PolicyCard title={P.unlock}>
          {block(
            'unlockThresholdCents',
            <Input form={form} name="values.unlockThresholdCents" label={CP.unlockThresholdCents} inputMode="decimal" hint={P.unlockThresholdHint} />,
          )}
          {block(
            'release',
            <Select
              form={form}
              name="values.release"
              label={CP.release}
              options={RELEASE_MODES.map((m) => ({ value: m, label: P.releaseModes[m] }))}
            />,
          )}
          {block(
            'manualUnlockHoldHours',
            <Input form={form} name="values.manualUnlockHoldHours" label={CP.manualUnlockHoldHours} type="number" hint={P.holdHint} />,
          )}
        </PolicyCard>
        <ScopedSaveBar
          saving={saving.isLoading}
          dirty={isDirty}
          onCancel={() => {
            setConflict(null);
            form.reset(loaded);
          }}
          canRemove={isGroup && answer.overridden.length > 0}
          confirmRemove={confirmRemove}
          onConfirmRemoveChange={setConfirmRemove}
          removeQuestion={L.removeOverrideQuestion(groupName ?? '', title)}
          onRemove={removeOverride}
        />
      </Form>
    </>
  );
}

/** A card of the form; a card of several keys has its own title. */
function PolicyCard({ title, hint, children }: { title?: string; hint?: string; children: ReactNode }) {
  return (
    <Card className="mb-3">
      <Card.Body>
        {title && <h2 className="h5 mb-3">{title}</h2>}
        {hint && <p className="small text-body-secondary">{hint}</p>}
        {children}
      </Card.Body>
    </Card>
  );
}

type Name = FieldPath<PolicyFormFields>;

/** The message of a field's error (the contract's, or the server's). */
function useError(form: PolicyForm, name: Name): string | undefined {
  const error = get(form.formState.errors, name) as { message?: string } | undefined;
  return error?.message;
}

interface InputProps {
  form: PolicyForm;
  name: Name;
  label: string;
  type?: 'number' | 'time' | 'text';
  as?: 'textarea';
  inputMode?: 'decimal';
  hint?: string;
}

/** A labelled input with its hint and its error, the error tied to it for screen readers. */
function Input({ form, name, label, type = 'text', as, inputMode, hint }: InputProps) {
  const id = useId();
  const error = useError(form, name);
  const describedBy = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ') || undefined;
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...form.register(name, { valueAsNumber: type === 'number' })}
        type={as ? undefined : type}
        inputMode={inputMode}
        as={as}
        rows={as ? 3 : undefined}
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      />
      {hint && (
        <Form.Text id={`${id}-hint`} className="d-block">
          {hint}
        </Form.Text>
      )}
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`} className="d-block">
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

function Check({ form, name, label }: { form: PolicyForm; name: Name; label: string }) {
  const id = useId();
  const error = useError(form, name);
  return (
    <div className="mb-2">
      <Form.Check type="switch" role="switch" id={id} label={label} {...form.register(name)} isInvalid={Boolean(error)} />
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </div>
  );
}

function Select({ form, name, label, options }: { form: PolicyForm; name: Name; label: string; options: { value: string; label: string }[] }) {
  const id = useId();
  const error = useError(form, name);
  return (
    <Form.Group className="mb-2" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Select {...form.register(name)} isInvalid={Boolean(error)} style={{ maxWidth: '24rem' }}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Form.Select>
      {error && <Form.Control.Feedback type="invalid">{error}</Form.Control.Feedback>}
    </Form.Group>
  );
}

/** The days of the week nobody works: a checkbox a day, one list of day numbers. */
function Weekdays({ form, onEdited }: { form: PolicyForm; onEdited: () => void }) {
  const id = useId();
  const days = useWatch({ control: form.control, name: 'values.nonWorkingWeekdays' });
  const error = useError(form, 'values.nonWorkingWeekdays');
  const toggle = (day: number, on: boolean) => {
    const next = on ? [...days, day].sort((a, b) => a - b) : days.filter((d) => d !== day);
    form.setValue('values.nonWorkingWeekdays', next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    onEdited();
  };
  return (
    <div className="mb-2">
      <div className="d-flex flex-wrap column-gap-3">
        {P.weekdays.map((name, day) => (
          <Form.Check
            key={name}
            inline
            id={`${id}-${day}`}
            label={name}
            checked={days.includes(day)}
            onChange={(e) => toggle(day, e.target.checked)}
          />
        ))}
      </div>
      {error && <div className="invalid-feedback d-block">{error}</div>}
    </div>
  );
}

/** The reminders: offset, message and the barcode option of each, added and removed. */
function Reminders({ form, onEdited }: { form: PolicyForm; onEdited: () => void }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'values.reminders' });
  return (
    <>
      {fields.length === 0 && <p className="small">{P.noReminders}</p>}
      {fields.map((f, i) => (
        <fieldset key={f.id} className="border rounded p-2 mb-2" aria-label={P.reminder(i + 1)}>
          <div className="d-flex justify-content-between align-items-center">
            <span className="fw-semibold small">{P.reminder(i + 1)}</span>
            <Button
              variant="link"
              size="sm"
              className="text-danger p-0"
              onClick={() => {
                remove(i);
                onEdited();
              }}
            >
              {P.removeReminder(i + 1)}
            </Button>
          </div>
          <Row className="g-2">
            <Col sm={6} md={4}>
              <Input form={form} name={`values.reminders.${i}.offsetDays`} label={CP.offsetDays} type="number" />
            </Col>
          </Row>
          <Input form={form} name={`values.reminders.${i}.message`} label={CP.reminderMessage} as="textarea" />
          <Check form={form} name={`values.reminders.${i}.barcode`} label={CP.barcode} />
        </fieldset>
      ))}
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => {
          append({ offsetDays: 0, message: '', barcode: false });
          onEdited();
        }}
      >
        {P.addReminder}
      </Button>
    </>
  );
}

/** The ladder's rungs: the day overdue, the kind and the message of each, added and removed. */
function Ladder({ form, onEdited }: { form: PolicyForm; onEdited: () => void }) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'values.ladder' });
  return (
    <>
      {fields.length === 0 && <p className="small">{P.noRungs}</p>}
      {fields.map((f, i) => (
        <fieldset key={f.id} className="border rounded p-2 mb-2" aria-label={P.rung(i + 1)}>
          <div className="d-flex justify-content-between align-items-center">
            <span className="fw-semibold small">{P.rung(i + 1)}</span>
            <Button
              variant="link"
              size="sm"
              className="text-danger p-0"
              onClick={() => {
                remove(i);
                onEdited();
              }}
            >
              {P.removeRung(i + 1)}
            </Button>
          </div>
          <Row className="g-2">
            <Col sm={6} md={4}>
              <Input form={form} name={`values.ladder.${i}.daysOverdue`} label={CP.daysOverdue} type="number" />
            </Col>
            <Col sm={6} md={8}>
              <Select
                form={form}
                name={`values.ladder.${i}.kind`}
                label={CP.kind}
                options={LADDER_KINDS.map((k) => ({ value: k, label: P.kinds[k] }))}
              />
            </Col>
          </Row>
          <Input form={form} name={`values.ladder.${i}.message`} label={CP.rungMessage} as="textarea" />
        </fieldset>
      ))}
      <Button
        variant="outline-primary"
        size="sm"
        onClick={() => {
          append({ daysOverdue: 1, kind: 'notification', message: '' });
          onEdited();
        }}
      >
        {P.addRung}
      </Button>
    </>
  );
}
