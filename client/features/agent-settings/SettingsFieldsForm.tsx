import { useEffect, useMemo, useState, type ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useWatch } from 'react-hook-form';
import { fieldsOf, isActive, type SettingField as SettingFieldDef, type SettingsSection, type SettingsValues } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import type { SettingsSectionAnswer } from '../../../shared/contracts/agentSettings';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { useAppDispatch } from '../../app/hooks';
import { ScopedSaveBar } from '../../components/ScopedSaveBar';
import { LoadingButton } from '../../components/LoadingButton';
import { showServerError } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import { useContractForm } from '../../components/useContractForm';
import { agentSettingsApi, useSaveSettingsSectionMutation, type SectionArgs } from './agentSettingsApi';
import { SettingField } from './SettingField';
import { formValuesOf, toFormValue, type SettingsFormFields, type SettingsFormOutput } from './settingsForm';

const L = AGENT_SETTINGS_LABELS.form;
const CONFLICT = 'SETTINGS_VERSION_CONFLICT';

/** The fields of a section under their block headings, in page order. */
function blocksOf(fields: readonly SettingFieldDef[]): { block: string; fields: SettingFieldDef[] }[] {
  const blocks: { block: string; fields: SettingFieldDef[] }[] = [];
  for (const f of fields) {
    const last = blocks.at(-1);
    if (last?.block === f.block) last.fields.push(f);
    else blocks.push({ block: f.block, fields: [f] });
  }
  return blocks;
}

const formFieldsOf = (fields: readonly SettingFieldDef[], answer: SettingsSectionAnswer): SettingsFormFields => ({
  values: formValuesOf(fields, answer.values),
  overridden: [...answer.overridden],
});

/** The message of a field's error (errors.values.<key>). */
function errorOf(errors: unknown, key: string): string | undefined {
  const values = (errors as { values?: Record<string, { message?: string } | undefined> }).values;
  return values?.[key]?.message;
}

export interface SettingsFieldsFormProps {
  /** The query's arguments (the scope): the save's answer is stored under them. */
  args: SectionArgs;
  section: SettingsSection;
  /**
   * The scope's answer when the form mounts. The form keeps it (its values and version) until it
   * saves or is remounted ('Recargar'): a refetch in between never changes what an edit is based on.
   */
  answer: SettingsSectionAnswer;
  /** The group's name in a group's scope. */
  groupName?: string;
  /** Whether the form has unsaved changes (for the page's guard). */
  onDirtyChange: (dirty: boolean) => void;
  /** The latest version was asked for ('Recargar' after a conflict). */
  onReload: () => void;
  reloading: boolean;
  /** Shown beside the form with the values as typed (the screen design's preview). */
  aside?: (values: Record<string, unknown>) => ReactNode;
}

/**
 * A section's form for one scope. Global: every value, saved all together with the version the
 * page loaded. A group: each value inherited from Global or the group's own (editing a value makes
 * it the group's; 'Usar valor global' inherits it again), saved as the group's own keys only;
 * 'Quitar personalización del grupo' saves none. A 409 conflict offers 'Recargar'.
 */
export function SettingsFieldsForm({
  args,
  section,
  answer: initial,
  groupName,
  onDirtyChange,
  onReload,
  reloading,
  aside,
}: SettingsFieldsFormProps) {
  const dispatch = useAppDispatch();
  const [answer, setAnswer] = useState(initial);
  const fields = useMemo(() => fieldsOf(args.deviceType, section.key), [args.deviceType, section.key]);
  const isGroup = answer.groupId !== null;
  const loaded = useMemo(() => formFieldsOf(fields, answer), [fields, answer]);
  const schema = useMemo(
    () => () =>
      import('./settingsFormSchema').then((m) =>
        m.settingsFormSchema(args.deviceType, section.key, { group: isGroup, loaded: answer.values, globalValues: answer.globalValues }),
      ),
    [args.deviceType, section.key, isGroup, answer],
  );
  const form = useContractForm<SettingsFormFields, SettingsFormOutput>(schema, { defaultValues: loaded });
  const values = useWatch({ control: form.control, name: 'values' });
  const overridden = useWatch({ control: form.control, name: 'overridden' });
  const { errors, isDirty } = form.formState;
  const [save, saving] = useSaveSettingsSectionMutation();
  const [conflict, setConflict] = useState<string | null>(null);
  const [confirmRemove, setConfirmRemove] = useState(false);

  useEffect(() => onDirtyChange(isDirty), [isDirty, onDirtyChange]);
  useEffect(() => () => onDirtyChange(false), [onDirtyChange]);

  const send = async (sent: SettingsValues): Promise<boolean> => {
    setConflict(null);
    const res = await save({ ...args, version: answer.version, values: sent });
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
    form.reset(formFieldsOf(fields, res.data));
    dispatch(agentSettingsApi.util.upsertQueryData('settingsSection', args, res.data));
    return true;
  };

  const submit = form.handleSubmit(async (out) => {
    if (await send(out.values)) toastSuccess(L.saved);
  });

  const removeOverride = async () => {
    if (await send({})) {
      setConfirmRemove(false);
      toastSuccess(L.overrideRemoved(groupName ?? ''));
    } else setConfirmRemove(false);
  };

  const markOverridden = (key: string) => {
    if (!isGroup) return;
    const own = form.getValues('overridden');
    if (!own.includes(key)) form.setValue('overridden', [...own, key], { shouldDirty: true });
  };
  const inheritGlobal = (key: string) => {
    form.setValue(`values.${key}`, toFormValue(answer.globalValues[key]), { shouldDirty: true });
    form.setValue(
      'overridden',
      form.getValues('overridden').filter((k) => k !== key),
      { shouldDirty: true },
    );
    form.clearErrors(`values.${key}`);
  };

  const current = values as SettingsValues;
  const visible = fields.filter((f) => isActive(f, current));

  const formBody = (
    <>
      <Form noValidate onSubmit={(e) => void submit(e)} aria-label={section.title} data-testid="settings-form">
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
        {blocksOf(visible).map(({ block, fields: inBlock }) => (
          <Card key={block} className="mb-3">
            <Card.Body>
              <fieldset>
                <legend className="h6 fw-semibold mb-3">{block}</legend>
                {inBlock.map((f) => (
                  <SettingField
                    key={f.key}
                    field={f}
                    form={form}
                    error={errorOf(errors, f.key)}
                    onEdited={() => markOverridden(f.key)}
                    group={
                      isGroup
                        ? {
                            overridden: overridden.includes(f.key),
                            globalValue: answer.globalValues[f.key] ?? null,
                            onUseGlobal: () => inheritGlobal(f.key),
                          }
                        : undefined
                    }
                  />
                ))}
              </fieldset>
            </Card.Body>
          </Card>
        ))}
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
          removeQuestion={L.removeOverrideQuestion(groupName ?? '', section.title)}
          onRemove={removeOverride}
        />
      </Form>
    </>
  );

  // As wide as the scope card above it: a narrower column left the cards' right edge ragged.
  if (!aside) return formBody;
  return (
    <Row className="g-3">
      <Col lg={7} xl={8}>
        {formBody}
      </Col>
      <Col lg={5} xl={4}>
        <div className="sticky-lg-top" style={{ top: '1rem' }}>
          {aside(values)}
        </div>
      </Col>
    </Row>
  );
}
