import type { ReactNode } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import type { RowData } from '@tanstack/react-table';
import { Link } from 'react-router-dom';
import { AGENT_APPS_LABELS } from '../../../shared/constants/agentAppsLabels';
import { SELECTABLE_APP_TYPES } from '../../../shared/constants/domain';
import { PATHS } from '../../../shared/constants/routes';
import { useCurrentUser } from '../../auth/CurrentUserContext';
import { DataTable, type DataTableProps } from '../../components/DataTable';
import { formatDateTime } from '../../components/formatDate';
import { IconButton } from '../../components/IconButton';
import { TextInput, type TextInputProps } from '../../components/TextInput';

const C = AGENT_APPS_LABELS.common;

/* Pieces shared by the agent apps pages (business apps, lock app). */

/**
 * A whole number typed in a text input: the number, undefined when empty (the schema's
 * 'obligatorio'), else the text itself (the schema's 'debe ser un número entero').
 */
export const integerInput = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (t === '') return undefined;
  return /^\d{1,10}$/.test(t) ? Number(t) : t;
};

/** The code of a select of numbers: undefined for the empty option. */
const codeInput = (v: unknown): unknown => (v === '' || v === null || v === undefined ? undefined : Number(v));

/** '{text} «{action}» desde {la página de dispositivos}.', the page a link when the profile holds it. */
export function DeviceActionNote({ text, action }: { text: string; action: string }) {
  const { allowed } = useCurrentUser();
  return (
    <Alert variant="info" className="small d-flex gap-2 align-items-start">
      <i className="bi bi-info-circle mt-1" aria-hidden="true" />
      <span>
        {text} «{action}» {C.from}{' '}
        {allowed.has(PATHS.devices) ? (
          <Link to={PATHS.devices} className="alert-link">
            {C.devicesPage}
          </Link>
        ) : (
          C.devicesPage
        )}
        .
      </span>
    </Alert>
  );
}

/** The last change: its date and time, and who made it. */
export function ChangedCell({ at, by }: { at: string; by: string | null }) {
  return (
    <>
      <span>{formatDateTime(at)}</span>
      {by && <div className="small text-body-secondary text-break">{C.updatedBy(by)}</div>}
    </>
  );
}

/** What the shared fields below need of an app form (react-hook-form's, over the API contract). */
interface AppForm {
  register: (name: 'appType' | 'downloadUrl' | 'sha256', options?: { setValueAs: (v: unknown) => unknown }) => UseFormRegisterReturn;
  formState: { errors: { appType?: FieldError; downloadUrl?: FieldError; sha256?: FieldError } };
}

/** The app type select of an app form ('Seleccione el tipo de app', then the selectable types), with its error. */
export function AppTypeSelect({ form, id, label }: { form: AppForm; id: string; label: string }) {
  const error = form.formState.errors.appType?.message;
  return (
    <Form.Group controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Select
        isInvalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...form.register('appType', { setValueAs: codeInput })}
      >
        <option value="">{C.selectAppType}</option>
        {SELECTABLE_APP_TYPES.map((t) => (
          <option key={t.code} value={t.code}>
            {t.label}
          </option>
        ))}
      </Form.Select>
      {error && (
        <Form.Control.Feedback type="invalid" id={`${id}-error`}>
          {error}
        </Form.Control.Feedback>
      )}
    </Form.Group>
  );
}

/** An input's help text: under it, named by the input's aria-describedby (while an error shows, TextInput names the error instead). */
export interface InputHelp {
  id: string;
  text: string;
}

/** A TextInput with, when given, its help text under it. */
export function HelpedTextInput({ help, ...props }: TextInputProps & { help?: InputHelp }) {
  return (
    <>
      <TextInput aria-describedby={help?.id} {...props} />
      {help && <Form.Text id={help.id}>{help.text}</Form.Text>}
    </>
  );
}

/** A text typed to the letter (an Android package name, an APK's SHA-256): monospace, no autocompletion, spelling or capitalisation. */
export function ExactTextInput(props: TextInputProps & { help?: InputHelp }) {
  return <HelpedTextInput className="font-monospace" autoComplete="off" spellCheck={false} autoCapitalize="off" {...props} />;
}

/**
 * Where the agent downloads the APK from and its checksum, each in its column of the form's Row:
 * the https download URL, and the SHA-256 (typed to the letter) with its help text (`{formId}-sha256-help`).
 */
export function AppDownloadFields({
  form,
  formId,
  fieldLabels,
  labels,
  urlBeside = false,
}: {
  form: AppForm;
  formId: string;
  /** The fields' names (FIELD_LABELS, as the server's messages name them). */
  fieldLabels: { downloadUrl: string; sha256: string };
  labels: { urlPlaceholder: string; sha256Help: string };
  /** The URL in half a row from md up, beside the field before it (else a whole row). */
  urlBeside?: boolean;
}) {
  const { errors } = form.formState;
  return (
    <>
      <Col {...(urlBeside ? { md: 6 } : { xs: 12 })}>
        <TextInput
          label={fieldLabels.downloadUrl}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={labels.urlPlaceholder}
          error={errors.downloadUrl?.message}
          {...form.register('downloadUrl')}
        />
      </Col>
      <Col xs={12}>
        <ExactTextInput
          label={fieldLabels.sha256}
          help={{ id: `${formId}-sha256-help`, text: labels.sha256Help }}
          error={errors.sha256?.message}
          {...form.register('sha256')}
        />
      </Col>
    </>
  );
}

/** The texts of an apps page that the shared pieces below show. */
interface AppsPageLabels {
  create: string;
  loading: string;
  empty: string;
  emptyHelp: string;
  editOf: (name: string) => string;
  deleteOf: (name: string) => string;
}

/** The page's title and its create button. */
export function AppsPageHeader({ title, labels, onCreate }: { title: string; labels: AppsPageLabels; onCreate: () => void }) {
  return (
    <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
      <h1 className="h3 mb-0">{title}</h1>
      <Button onClick={onCreate}>
        <i className="bi bi-plus-lg me-2" aria-hidden="true" />
        {labels.create}
      </Button>
    </div>
  );
}

/** What an apps page's list query gives the table. */
interface AppsListQuery<T> {
  data?: { data: readonly T[] };
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * The table of an apps page over its list query: placeholder rows on the first load, the error
 * with a retry when nothing could be loaded, and an empty list that invites to create the first one.
 */
export function AppsTable<T extends RowData>({
  list,
  labels,
  onCreate,
  ...props
}: Omit<DataTableProps<T>, 'rows' | 'loading' | 'loadingLabel' | 'fetching' | 'error' | 'onRetry' | 'empty' | 'placeholderRows'> & {
  list: AppsListQuery<T>;
  labels: AppsPageLabels;
  onCreate: () => void;
}) {
  return (
    <DataTable
      {...props}
      rows={list.data?.data ?? []}
      loading={list.isLoading}
      loadingLabel={labels.loading}
      fetching={list.isFetching}
      error={list.isError && !list.data}
      onRetry={() => void list.refetch()}
      empty={
        <>
          <p className="mb-1">{labels.empty}</p>
          <p className="text-body-secondary">{labels.emptyHelp}</p>
          {/* Solid: the outline variant lacks contrast on the page's tertiary background. */}
          <Button variant="primary" onClick={onCreate}>
            {labels.create}
          </Button>
        </>
      }
      placeholderRows={3}
    />
  );
}

/** A row's actions: `children` first (other actions), then edit and delete. */
export function AppRowActions({
  name,
  labels,
  deleteTitle = C.delete,
  onEdit,
  onDelete,
  children,
}: {
  /** The row's name in the buttons' accessible labels. */
  name: string;
  labels: AppsPageLabels;
  /** The delete button's tooltip (default 'Eliminar'). */
  deleteTitle?: string;
  onEdit: () => void;
  onDelete: () => void;
  children?: ReactNode;
}) {
  return (
    <ButtonGroup size="sm">
      {children}
      <IconButton variant="outline-primary" icon="pencil" label={labels.editOf(name)} title={C.edit} onClick={onEdit} />
      <IconButton variant="outline-danger" icon="trash" label={labels.deleteOf(name)} title={deleteTitle} onClick={onDelete} />
    </ButtonGroup>
  );
}
