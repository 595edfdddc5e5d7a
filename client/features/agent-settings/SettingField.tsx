import { createContext, useContext, useId, type ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { SettingField as SettingFieldDef, SettingValue } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { ScopeMarker } from '../../components/ScopeMarker';
import { formatSettingValue, type SettingsFormFields, type SettingsFormOutput } from './settingsForm';
import { LABELS } from '../../../shared/constants/labels';

const L = AGENT_SETTINGS_LABELS.form;

export type SettingsForm = UseFormReturn<SettingsFormFields, unknown, SettingsFormOutput>;

/**
 * The logo's input (LogoField), given by the one page whose section has a logo (the screen
 * design): its upload and its messages stay out of the other sections' pages.
 */
export const LogoInput = createContext<((props: InputProps) => ReactNode) | null>(null);

/** In a group's scope: whether the field is the group's own, the value it would inherit, and the way back to it. */
export interface GroupFieldState {
  overridden: boolean;
  globalValue: SettingValue;
  onUseGlobal: () => void;
}

export interface SettingFieldProps {
  field: SettingFieldDef;
  form: SettingsForm;
  /** The message under the field (the contract's, or the server's). */
  error?: string;
  /** A change of the value (it makes the field the group's own in a group's scope). */
  onEdited: () => void;
  /** Absent in the global scope. */
  group?: GroupFieldState;
}

const HEX = /^#[0-9a-fA-F]{6}$/;

/** Where the field's value comes from, in a group's scope: 'Heredado de Global' or 'Personalizado para este grupo'. */
function ScopeState({ field, group }: { field: SettingFieldDef; group: GroupFieldState }) {
  return (
    <ScopeMarker
      testId={`scope-state-${field.key}`}
      label={field.label}
      overridden={group.overridden}
      globalText={formatSettingValue(field, group.globalValue)}
      onUseGlobal={group.onUseGlobal}
    />
  );
}

/** The character counter 'n / max' of a text (red past the maximum). */
function Counter({ id, form, name, label, max }: { id: string; form: SettingsForm; name: `values.${string}`; label: string; max: number }) {
  const value = useWatch({ control: form.control, name });
  const length = typeof value === 'string' ? value.length : 0;
  return (
    <Form.Text id={id} className={`d-block text-end text-nowrap ${length > max ? 'text-danger' : ''}`}>
      <span aria-hidden="true">{LABELS.counter(length, max)}</span>
      <span className="visually-hidden">{L.counterOf(label, length, max)}</span>
    </Form.Text>
  );
}

/** A colour: the browser's picker and the hexadecimal text, one value. */
function ColorInput({ form, name, label, describedBy, invalid, onEdited }: InputProps) {
  const watched = useWatch({ control: form.control, name });
  const value = typeof watched === 'string' ? watched : '';
  const change = (next: string) => {
    form.setValue(name, next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    onEdited();
  };
  return (
    <InputGroup hasValidation style={{ maxWidth: '16rem' }}>
      <Form.Control
        type="color"
        style={{ flex: '0 0 3.5rem' }}
        value={HEX.test(value) ? value.toLowerCase() : '#000000'}
        aria-label={L.colorPicker(label)}
        onChange={(e) => change(e.target.value)}
      />
      <Form.Control
        name={name}
        value={value}
        aria-label={L.colorHex(label)}
        aria-describedby={describedBy}
        isInvalid={invalid}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        spellCheck={false}
        className="font-monospace"
        onChange={(e) => change(e.target.value)}
      />
    </InputGroup>
  );
}

interface InputProps {
  form: SettingsForm;
  name: `values.${string}`;
  label: string;
  describedBy: string;
  invalid: boolean;
  onEdited: () => void;
}

const INPUT_TYPES = { url: 'url', email: 'email', phone: 'tel', time: 'time' } as const;
const AUTOCOMPLETE = { url: 'url', email: 'email', phone: 'tel', time: 'off' } as const;

/**
 * One setting as its kind asks: a switch for a flag (its help text under it), a number with its
 * unit, a select, a text or text area with its live counter, the matching input for URLs,
 * e-mails, phones and times, a colour picker with its hex text, the logo upload. In a group's
 * scope it says whether the value is inherited or the group's own, with 'Usar valor global'.
 */
export function SettingField({ field, form, error, onEdited, group }: SettingFieldProps) {
  const id = useId();
  const name = `values.${field.key}` as const;
  const helpId = `${id}-help`;
  const errorId = `${id}-error`;
  const counterId = `${id}-counter`;
  const invalid = Boolean(error);
  const logoInput = useContext(LogoInput);
  const describedBy = [invalid && errorId, helpId, field.kind === 'text' && counterId].filter(Boolean).join(' ');
  const register = (options: { valueAsNumber?: boolean } = {}) => form.register(name, { ...options, onChange: onEdited });
  const common = { id, isInvalid: invalid, 'aria-invalid': invalid || undefined, 'aria-describedby': describedBy };

  const help = (
    <Form.Text id={helpId} className="d-block">
      {field.help}
    </Form.Text>
  );
  const feedback = error ? (
    <Form.Control.Feedback type="invalid" id={errorId} className="d-block">
      {error}
    </Form.Control.Feedback>
  ) : null;

  /** The label (or the switch) with, in a group's scope, where the value comes from at its right. */
  const header = (main: ReactNode) =>
    group ? (
      <div className="d-flex flex-wrap align-items-center justify-content-between column-gap-3 row-gap-1 mb-2">
        {main}
        <ScopeState field={field} group={group} />
      </div>
    ) : (
      main
    );
  // In a group's scope a bar at the left tells the group's own values from the inherited ones.
  const frame = group ? `mb-3 ps-2 border-start border-3 ${group.overridden ? 'border-primary' : 'border-secondary-subtle'}` : 'mb-3';

  let control: ReactNode;
  switch (field.kind) {
    case 'flag':
      return (
        <div className={frame} data-testid={`setting-${field.key}`}>
          {header(
            <Form.Check
              type="switch"
              role="switch"
              id={id}
              className="mb-0"
              label={field.label}
              isInvalid={invalid}
              aria-describedby={describedBy}
              {...register()}
            />,
          )}
          {help}
          {feedback}
        </div>
      );
    case 'integer':
      control = (
        <InputGroup hasValidation style={{ maxWidth: '16rem' }}>
          <Form.Control
            {...common}
            type="number"
            inputMode="numeric"
            min={field.min}
            max={field.max}
            step={1}
            {...register({ valueAsNumber: true })}
          />
          <InputGroup.Text>{field.unit}</InputGroup.Text>
        </InputGroup>
      );
      break;
    case 'choice':
      control = (
        <Form.Select {...common} style={{ maxWidth: '24rem' }} {...register()}>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </Form.Select>
      );
      break;
    case 'text':
      control = field.multiline ? (
        <Form.Control {...common} as="textarea" rows={4} autoComplete="off" {...register()} />
      ) : (
        <Form.Control {...common} type="text" autoComplete="off" style={{ maxWidth: '36rem' }} {...register()} />
      );
      break;
    case 'url':
    case 'email':
    case 'phone':
    case 'time':
      control = (
        <Form.Control
          {...common}
          type={INPUT_TYPES[field.kind]}
          autoComplete={AUTOCOMPLETE[field.kind]}
          style={{ maxWidth: field.kind === 'time' ? '10rem' : '36rem' }}
          {...register()}
        />
      );
      break;
    case 'color':
      control = <ColorInput form={form} name={name} label={field.label} describedBy={describedBy} invalid={invalid} onEdited={onEdited} />;
      break;
    case 'logo':
      if (!logoInput) throw new Error(`${field.key}: a logo field needs the LogoInput of its page`);
      control = logoInput({ form, name, label: field.label, describedBy, invalid, onEdited });
      break;
  }
  const labelled = field.kind !== 'color' && field.kind !== 'logo';
  return (
    <div
      className={frame}
      data-testid={`setting-${field.key}`}
      role={labelled ? undefined : 'group'}
      aria-labelledby={labelled ? undefined : `${id}-label`}
    >
      {header(
        labelled ? (
          <Form.Label htmlFor={id} className={group ? 'mb-0' : undefined}>
            {field.label}
          </Form.Label>
        ) : (
          <div className={group ? 'form-label mb-0' : 'form-label'} id={`${id}-label`}>
            {field.label}
          </div>
        ),
      )}
      {control}
      {feedback}
      {field.kind === 'text' ? (
        // The help and the counter on one line under the input, as wide as it.
        <div className="d-flex justify-content-between align-items-start column-gap-3" style={{ maxWidth: field.multiline ? undefined : '36rem' }}>
          {help}
          <Counter id={counterId} form={form} name={name} label={field.label} max={field.max} />
        </div>
      ) : (
        help
      )}
    </div>
  );
}

export type { InputProps as SettingInputProps };
