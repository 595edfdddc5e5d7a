import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import Row from 'react-bootstrap/Row';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { ENROLLMENT_LABELS } from '../../../shared/constants/enrollmentLabels';
import {
  ENROLLMENT_TOKEN_DEFAULT_HOURS,
  enrollmentTokenBody,
  type EnrollmentToken,
  type EnrollmentTokenBody,
  type EnrollmentTokenBodyInput,
  type EnrollmentTokenCreated,
} from '../../../shared/contracts/enrollment';
import { errorMessage, formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { AppModal } from '../../components/AppModal';
import { CopyText } from '../../components/CopyText';
import { DataTable, type DataTableColumn } from '../../components/DataTable';
import { displayValue } from '../../components/EmptyValue';
import { formatDateTime } from '../../components/formatDate';
import { LoadingButton } from '../../components/LoadingButton';
import { showServerError } from '../../components/serverFieldError';
import { toastSuccess } from '../../components/toast';
import { useContractForm } from '../../components/useContractForm';
import {
  useCreateEnrollmentTokenMutation,
  useListEnrollmentTokensQuery,
  useRevokeEnrollmentTokenMutation,
  type EnrollmentScopeArgs,
} from './enrollmentApi';

const L = ENROLLMENT_LABELS;

/** Whose enrollment QR: a group's, one pre-enrolled device's, or the devices' with no group. */
export type EnrollmentScope = { kind: 'group'; id: number; name: string } | { kind: 'device'; id: number; imei: string } | { kind: 'noGroup' };

const argsOf = (scope: EnrollmentScope): EnrollmentScopeArgs =>
  scope.kind === 'group' ? { groupId: scope.id } : scope.kind === 'device' ? { deviceId: scope.id } : {};

const titleOf = (scope: EnrollmentScope): string =>
  scope.kind === 'group' ? L.titleGroup(scope.name) : scope.kind === 'device' ? L.titleDevice(scope.imei) : L.titleNoGroup;

/** 'Grupo Mérida 2' → 'grupo-merida-2' (the downloaded file's name). */
const slug = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** The downloaded SVG's name: 'enrolamiento-<scope>.svg'. */
export function svgFileName(scope: EnrollmentScope): string {
  const part = scope.kind === 'group' ? `grupo-${slug(scope.name) || scope.id}` : scope.kind === 'device' ? `dispositivo-${scope.imei}` : 'sin-grupo';
  return `enrolamiento-${part}.svg`;
}

/** The SVG markup as a base64 data URI (UTF-8 bytes), for an <img>. */
function svgDataUri(svg: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(svg)) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** The token just created (shown once) and the Blob URL of its SVG for 'Descargar SVG'. */
export interface Shown {
  token: EnrollmentTokenCreated;
  svgUrl: string;
}

/** A token just created, with the Blob URL of its SVG (revoke it with URL.revokeObjectURL when it is no longer shown). */
export const shownToken = (token: EnrollmentTokenCreated): Shown => ({
  token,
  svgUrl: URL.createObjectURL(new Blob([token.smartphone.qrSvg], { type: 'image/svg+xml' })),
});

/** What a new token shows: the smartphone QR code, the TV short code, the expiry and the token. */
export function CreatedToken({ shown, scope, title = L.resultTitle }: { shown: Shown; scope: EnrollmentScope; title?: string }) {
  const { token } = shown;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const src = useMemo(() => svgDataUri(token.smartphone.qrSvg), [token.smartphone.qrSvg]);
  useEffect(() => headingRef.current?.focus(), [token.id]);
  const installed = token.smartphone.provisioningPayload === null;
  return (
    <section className="border-top pt-3 mt-3" data-testid="enrollment-created">
      <h2 className="h5" ref={headingRef} tabIndex={-1}>
        {title}
      </h2>
      <Alert variant="info">
        <i className="bi bi-info-circle me-2" aria-hidden="true" />
        {L.shownOnce}
      </Alert>
      <Row className="g-4">
        <Col md={6}>
          <h3 className="h6">{L.smartphoneTitle}</h3>
          <img src={src} alt={L.qrAlt} width={240} height={240} className="d-block bg-white border mb-2" style={{ minWidth: 240 }} />
          <a href={shown.svgUrl} download={svgFileName(scope)} className="btn btn-outline-secondary btn-sm mb-2">
            <i className="bi bi-download me-2" aria-hidden="true" />
            {L.downloadSvg}
          </a>
          <p className="small mb-2">{installed ? L.smartphoneHelpInstalled : L.smartphoneHelp}</p>
          {installed && (
            <Alert variant="warning" className="mb-0" data-testid="enrollment-missing">
              <i className="bi bi-exclamation-triangle me-2" aria-hidden="true" />
              <strong>{L.noProvisioning}</strong> {token.smartphone.missing}
            </Alert>
          )}
        </Col>
        <Col md={6}>
          <h3 className="h6">{L.tvTitle}</h3>
          <p className="display-6 font-monospace text-nowrap mb-2" data-testid="enrollment-short-code">
            <CopyText text={token.shortCode} label={L.shortCode} />
          </p>
          <p className="small">{L.tvHelp}</p>
        </Col>
      </Row>
      <dl className="row mt-3 mb-0">
        <dt className="col-sm-3">{L.expiresAt}</dt>
        <dd className="col-sm-9">{L.expires(formatDateTime(token.expiresAt))}</dd>
        <dt className="col-sm-3">{L.token}</dt>
        <dd className="col-sm-9 font-monospace text-break" data-testid="enrollment-token">
          <CopyText text={token.token} label={L.token} />
        </dd>
        <dt className="col-sm-3">{L.serverUrl}</dt>
        <dd className="col-sm-9 text-break mb-0">{token.serverUrl}</dd>
      </dl>
    </section>
  );
}

/** The select of a token's validity (24 h to 30 days), pointing at its error when there is one. */
export function ValiditySelect({ error, errorId, ...registration }: UseFormRegisterReturn & { error: string | undefined; errorId: string }) {
  return (
    <Form.Select isInvalid={Boolean(error)} aria-invalid={error ? true : undefined} aria-describedby={error ? errorId : undefined} {...registration}>
      {L.validityOptions.map((o) => (
        <option key={o.hours} value={o.hours}>
          {o.label}
        </option>
      ))}
    </Form.Select>
  );
}

/** What a store employee does when a device refuses the code: the common refusals, by the code the device shows. */
function RefusalsHelp() {
  return (
    <details className="border-top pt-3 mt-3" data-testid="enrollment-refusals-help">
      <summary className="fw-semibold">{L.refusalsTitle}</summary>
      <p className="small mt-2 mb-2">{L.refusalsIntro}</p>
      <dl className="small mb-0">
        {L.refusals.map((r) => (
          <div key={r.code} className="mb-2">
            <dt className="font-monospace">{r.code}</dt>
            <dd className="mb-0">{r.text}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

/** The live tokens' columns (module-level: DataTable rebuilds its cells when they change). */
const COLUMNS: DataTableColumn<EnrollmentToken>[] = [
  { id: 'hint', header: L.hint, className: 'text-nowrap', cell: (t) => <span className="font-monospace">{L.hintValue(t.hint)}</span> },
  { id: 'createdAt', header: L.createdAt, className: 'text-nowrap', cell: (t) => formatDateTime(t.createdAt) },
  { id: 'createdBy', header: L.createdBy, cell: (t) => displayValue(t.createdBy) },
  { id: 'expiresAt', header: L.expiresAt, className: 'text-nowrap', cell: (t) => formatDateTime(t.expiresAt) },
  { id: 'uses', header: L.uses, className: 'text-end', cell: (t) => t.uses.toLocaleString('es-MX') },
  {
    id: 'lastUsedAt',
    header: L.lastUsedAt,
    className: 'text-nowrap',
    cell: (t) => (t.lastUsedAt ? formatDateTime(t.lastUsedAt) : displayValue(null)),
  },
];

/** The modal for one scope (remounted per scope): live tokens, revoking, generating. */
function EnrollmentBody({ scope, onClose }: { scope: EnrollmentScope; onClose: () => void }) {
  const args = argsOf(scope);
  const list = useListEnrollmentTokensQuery(args, { refetchOnMountOrArgChange: true });
  const [createToken, createState] = useCreateEnrollmentTokenMutation();
  const [revokeToken, revokeState] = useRevokeEnrollmentTokenMutation();
  const [shown, setShown] = useState<Shown | null>(null);
  const [createError, setCreateError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<EnrollmentToken | null>(null);
  const [revokeError, setRevokeError] = useState<string | null>(null);
  const revokeTrigger = useRef<HTMLElement | null>(null);
  const confirmCancelRef = useRef<HTMLButtonElement>(null);
  const selectId = useId();

  // The Blob URL of 'Descargar SVG' lives as long as its token is shown.
  const shownSvgUrl = shown?.svgUrl;
  useEffect(
    () => () => {
      if (shownSvgUrl) URL.revokeObjectURL(shownSvgUrl);
    },
    [shownSvgUrl],
  );
  useEffect(() => {
    if (confirming) confirmCancelRef.current?.focus();
  }, [confirming]);

  const form = useContractForm<EnrollmentTokenBodyInput, EnrollmentTokenBody>(enrollmentTokenBody, {
    defaultValues: { validHours: ENROLLMENT_TOKEN_DEFAULT_HOURS },
  });
  const validHoursError = form.formState.errors.validHours?.message;

  const live = list.data?.data ?? [];
  const submit = form.handleSubmit(async (body) => {
    setCreateError(null);
    const res = await createToken({ ...body, groupId: args.groupId ?? null, deviceId: args.deviceId ?? null });
    if ('error' in res) {
      const error = formErrorOf(res.error as ApiError);
      // Under the validity select when the API names it; otherwise above the button.
      if (!showServerError(form, error)) setCreateError(error.message);
      return;
    }
    setShown(shownToken(res.data));
    setConfirming(null);
    toastSuccess(L.generated);
  });

  // Stable, so the rows' buttons survive a re-render (focus returns to the one that asked).
  const rowActions = useCallback(
    (t: EnrollmentToken) => (
      <Button
        variant="outline-danger"
        size="sm"
        aria-label={L.revokeOf(t.hint)}
        onClick={(e) => {
          revokeTrigger.current = e.currentTarget;
          setRevokeError(null);
          setConfirming(t);
        }}
      >
        {L.revoke}
      </Button>
    ),
    [],
  );
  const cancelRevoke = () => {
    setConfirming(null);
    setRevokeError(null);
    revokeTrigger.current?.focus();
  };
  const revoke = async () => {
    if (!confirming) return;
    setRevokeError(null);
    const res = await revokeToken(confirming.id);
    if ('error' in res) {
      setRevokeError(errorMessage(res.error as ApiError));
      return;
    }
    toastSuccess(L.revoked(confirming.hint));
    // The token shown was just revoked: its QR code no longer enrolls anything.
    if (shown?.token.id === confirming.id) setShown(null);
    setConfirming(null);
  };

  return (
    <AppModal show size="xl" title={titleOf(scope)} readOnly onClose={onClose}>
      <section aria-labelledby={`${selectId}-live`}>
        <h2 className="h6" id={`${selectId}-live`}>
          {L.liveTitle}
        </h2>
        <DataTable
          columns={COLUMNS}
          rows={live}
          getRowId={(t) => t.id}
          rowAttributes={(t) => ({ 'data-testid': `enrollment-token-${t.hint}` })}
          caption={L.liveTitle}
          size="sm"
          loading={list.isLoading}
          fetching={list.isFetching}
          error={list.isError && !list.data}
          onRetry={() => void list.refetch()}
          emptyTestId="enrollment-tokens-empty"
          placeholderRows={1}
          empty={<p className="mb-0 text-body-secondary">{L.liveEmpty}</p>}
          rowActions={rowActions}
        />
        {confirming && (
          <Alert variant="danger" className="mt-3 mb-0" data-testid="enrollment-revoke-confirm">
            <p>{L.confirmRevoke(confirming.hint)}</p>
            {revokeError && <p className="fw-semibold">{revokeError}</p>}
            <div className="d-flex gap-2 justify-content-end">
              <Button ref={confirmCancelRef} variant="secondary" size="sm" onClick={cancelRevoke}>
                {L.cancel}
              </Button>
              <LoadingButton variant="danger" size="sm" loading={revokeState.isLoading} onClick={() => void revoke()}>
                {L.revoke}
              </LoadingButton>
            </div>
          </Alert>
        )}
      </section>

      <Form noValidate className="border-top pt-3 mt-3" onSubmit={(e) => void submit(e)} aria-labelledby={`${selectId}-new`}>
        <h2 className="h6" id={`${selectId}-new`}>
          {L.generateTitle}
        </h2>
        <Row className="g-2 align-items-end">
          <Col sm={6}>
            <Form.Group controlId={selectId}>
              <Form.Label>{L.validity}</Form.Label>
              <ValiditySelect errorId={`${selectId}-error`} error={validHoursError} {...form.register('validHours', { valueAsNumber: true })} />
            </Form.Group>
          </Col>
          <Col sm={6}>
            <LoadingButton type="submit" loading={createState.isLoading}>
              <i className={`bi ${live.length > 0 ? 'bi-arrow-repeat' : 'bi-qr-code'} me-2`} aria-hidden="true" />
              {live.length > 0 ? L.regenerate : L.generate}
            </LoadingButton>
          </Col>
        </Row>
        {validHoursError && (
          <div className="invalid-feedback d-block" id={`${selectId}-error`}>
            {validHoursError}
          </div>
        )}
        {live.length > 0 && <p className="small text-body-secondary mt-2 mb-0">{L.regenerateNote}</p>}
        {createError && (
          <Alert variant="danger" className="mt-3 mb-0">
            {createError}
          </Alert>
        )}
      </Form>

      {shown && <CreatedToken key={shown.token.id} shown={shown} scope={scope} />}
      <RefusalsHelp />
    </AppModal>
  );
}

export interface EnrollmentQrModalProps {
  scope: EnrollmentScope | null;
  onClose: () => void;
}

/**
 * QR enrollment of a scope: the live tokens (revoking one asks first), a validity and 'Generar
 * código' (or 'Regenerar', which replaces the live ones); a new token is shown once, as the
 * smartphone QR code (SVG from the server), the TV short code and the token itself. A chunk of its
 * own (ENROLLMENT_QR).
 */
export function EnrollmentQrModal({ scope, onClose }: EnrollmentQrModalProps) {
  if (!scope) return null;
  const key = scope.kind === 'noGroup' ? 'noGroup' : `${scope.kind}-${scope.id}`;
  return <EnrollmentBody key={key} scope={scope} onClose={onClose} />;
}
