import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import { useWatch } from 'react-hook-form';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { FIELD_LABELS } from '../../../shared/constants/fieldLabels';
import { businessAppBody, type BusinessApp, type BusinessAppBody, type BusinessAppBodyInput } from '../../../shared/contracts/agentSettings';
import { showServerError, type SaveOutcome, firstMessage } from '../../components/serverFieldError';
import { TextInput } from '../../components/TextInput';
import { useContractForm } from '../../components/useContractForm';
import { useListGroupsQuery } from '../../api/groupsApi';
import { AppDownloadFields, AppTypeSelect, ExactTextInput, HelpedTextInput, integerInput } from './agentAppsShared';
import { BUSINESS_APP_FORM_ID } from './appFormIds';
import { DATA_TABLE_LABELS } from '../../../shared/constants/labels';

const L = AGENT_APPS_LABELS.businessApps;
const F = FIELD_LABELS.businessApps;
const FORM_ID = BUSINESS_APP_FORM_ID;
/** More groups than this: a filter above the list. */
const FILTER_FROM = 8;

// The business app form ----------------------------------------------------------------

interface GroupOption {
  id: number;
  name: string;
}

/**
 * The groups that receive the app: 'Todos los smartphones' (checked when none is selected;
 * checking it clears the selection) and one checkbox per device group, with a filter when
 * there are many.
 */
function GroupPicker({
  selected,
  extra,
  error,
  onChange,
}: {
  selected: readonly number[];
  /** Groups the app already has (kept even if the list does not hold them). */
  extra: readonly GroupOption[];
  error: string | undefined;
  onChange: (ids: number[]) => void;
}) {
  const id = useId();
  const groups = useListGroupsQuery();
  const [filter, setFilter] = useState('');
  const known = groups.data?.data ?? [];
  const options: GroupOption[] = [...known, ...extra.filter((g) => !known.some((k) => k.id === g.id))];
  const needle = filter.trim().toLocaleLowerCase('es-MX');
  const shown = needle ? options.filter((g) => g.name.toLocaleLowerCase('es-MX').includes(needle)) : options;
  const chosen = new Set(selected);
  const toggle = (groupId: number) => onChange(chosen.has(groupId) ? selected.filter((g) => g !== groupId) : [...selected, groupId]);
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;

  return (
    <fieldset aria-describedby={[helpId, error && errorId].filter(Boolean).join(' ')}>
      <legend className="form-label fs-6 mb-2">{F.groupIds}</legend>
      <Form.Check
        type="checkbox"
        id={`${id}-all`}
        className="fw-semibold"
        label={L.allSmartphones}
        checked={selected.length === 0}
        onChange={(e) => {
          if (e.target.checked) onChange([]);
        }}
      />
      <Form.Text id={helpId} className="d-block mb-2">
        {selected.length === 0 ? L.allSmartphonesHelp : L.groupsSelected(selected.length)}
      </Form.Text>
      {groups.isLoading ? (
        <p className="text-body-secondary mb-0" role="status">
          {L.groupsLoading}
        </p>
      ) : groups.isError && options.length === 0 ? (
        <div className="d-flex align-items-center gap-2 text-danger-emphasis">
          <span>{L.groupsError}</span>
          <Button variant="outline-danger" size="sm" onClick={() => void groups.refetch()}>
            {DATA_TABLE_LABELS.retry}
          </Button>
        </div>
      ) : options.length === 0 ? (
        <p className="text-body-secondary mb-0">{L.groupsEmpty}</p>
      ) : (
        <>
          {options.length > FILTER_FROM && (
            <Form.Control
              type="search"
              size="sm"
              className="mb-2"
              aria-label={L.filterGroups}
              placeholder={L.filterGroups}
              value={filter}
              onChange={(e) => setFilter(e.target.value)}
            />
          )}
          <div className="border rounded px-3 py-2 overflow-auto" style={{ maxHeight: '14rem' }} data-testid="business-app-groups">
            {shown.length === 0 ? (
              <p className="text-body-secondary mb-0">{L.noGroupMatches}</p>
            ) : (
              shown.map((g) => (
                <Form.Check
                  key={g.id}
                  type="checkbox"
                  id={`${id}-group-${g.id}`}
                  label={g.name}
                  checked={chosen.has(g.id)}
                  onChange={() => toggle(g.id)}
                />
              ))
            )}
          </div>
        </>
      )}
      {error && (
        <div className="invalid-feedback d-block" id={errorId}>
          {error}
        </div>
      )}
    </fieldset>
  );
}

export interface BusinessAppFormProps {
  app?: BusinessApp;
  onSubmit: (body: BusinessAppBody) => Promise<SaveOutcome>;
}

/** The form of a business app over the API's `businessAppBody` (a chunk of its own: BUSINESS_APP_FORM). */
export function BusinessAppForm({ app, onSubmit }: BusinessAppFormProps) {
  const form = useContractForm<BusinessAppBodyInput, BusinessAppBody>(businessAppBody, {
    defaultValues: app
      ? {
          name: app.name,
          packageName: app.packageName,
          versionName: app.versionName,
          versionCode: app.versionCode,
          appType: app.appType,
          downloadUrl: app.downloadUrl,
          sha256: app.sha256,
          groupIds: app.groups.map((g) => g.id),
        }
      : { name: '', packageName: '', versionName: '', downloadUrl: '', sha256: '', groupIds: [] },
  });
  const { errors, isSubmitted } = form.formState;
  const groupIds = useWatch({ control: form.control, name: 'groupIds' }) ?? [];
  const submit = form.handleSubmit(async (body) => {
    const outcome = await onSubmit(body);
    // 409 'Ya existe una app de negocio con ese nombre de paquete', a missing group, or a 400 naming a field.
    if (outcome) showServerError(form, outcome.error);
  });

  return (
    <Form id={FORM_ID} noValidate onSubmit={(e) => void submit(e)}>
      <Row className="g-3">
        <Col md={6}>
          <TextInput label={F.name} autoComplete="off" error={errors.name?.message} {...form.register('name')} />
        </Col>
        <Col md={6}>
          <ExactTextInput
            label={F.packageName}
            placeholder={L.packagePlaceholder}
            error={errors.packageName?.message}
            {...form.register('packageName')}
          />
        </Col>
        <Col md={6}>
          <TextInput label={F.versionName} autoComplete="off" error={errors.versionName?.message} {...form.register('versionName')} />
        </Col>
        <Col md={6}>
          <HelpedTextInput
            label={F.versionCode}
            inputMode="numeric"
            autoComplete="off"
            help={{ id: `${FORM_ID}-versionCode-help`, text: L.versionCodeHelp }}
            error={errors.versionCode?.message}
            {...form.register('versionCode', { setValueAs: integerInput })}
          />
        </Col>
        <Col md={6}>
          <AppTypeSelect form={form} id={`${FORM_ID}-appType`} label={F.appType} />
        </Col>
        <AppDownloadFields form={form} formId={FORM_ID} fieldLabels={F} labels={L} urlBeside />
        <Col xs={12}>
          <GroupPicker
            selected={groupIds}
            extra={app?.groups ?? []}
            error={firstMessage(errors.groupIds)}
            onChange={(ids) => form.setValue('groupIds', ids, { shouldDirty: true, shouldValidate: isSubmitted })}
          />
        </Col>
      </Row>
    </Form>
  );
}
