import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useWatch } from 'react-hook-form';
import { LOGO_MAX_BYTES, logoUrl } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';
import { LOGO_MESSAGES } from '../../../shared/areaMessages/logo';
import { formErrorOf } from '../../api/apiErrors';
import type { ApiError } from '../../api/axiosBaseQuery';
import { useUploadLogoMutation } from './agentSettingsApi';
import type { SettingInputProps } from './SettingField';

const L = AGENT_SETTINGS_LABELS.screen;
const LOGO_TYPES = ['image/png', 'image/jpeg'];

/** Why a chosen file cannot be the logo (checked before uploading it; the server checks its content again). */
export function logoFileProblem(file: Pick<File, 'size' | 'type'>): string | undefined {
  // Only an SVG is told why it is refused; any other file is just not a PNG or a JPEG.
  if (file.type === 'image/svg+xml') return LOGO_MESSAGES.svg;
  if (!LOGO_TYPES.includes(file.type)) return LOGO_MESSAGES.badType;
  if (file.size === 0) return LOGO_MESSAGES.empty;
  if (file.size > LOGO_MAX_BYTES) return LOGO_MESSAGES.tooLarge(LOGO_MAX_BYTES / 1024);
  return undefined;
}

/**
 * The screen design's logo: the current image, a file input (PNG or JPEG up to LOGO_MAX_BYTES)
 * that uploads the file at once and puts the answer's `logo` into the form, and 'Quitar logotipo'.
 * The new logo applies when the form is saved.
 */
export function LogoField({ form, name, label, describedBy, invalid, onEdited }: SettingInputProps) {
  const id = useId();
  const value = useWatch({ control: form.control, name });
  const [upload, uploading] = useUploadLogoMutation();
  const [uploaded, setUploaded] = useState(false);
  // A new input after each choice: the same file can be chosen again.
  const [inputKey, setInputKey] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const hash = typeof value === 'string' && value !== '' ? value : null;

  const set = (next: string) => {
    form.setValue(name, next, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    onEdited();
  };
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setUploaded(false);
    form.clearErrors(name);
    const problem = logoFileProblem(file);
    if (problem) {
      form.setError(name, { type: 'client', message: problem });
      setInputKey((k) => k + 1);
      return;
    }
    const res = await upload(file);
    setInputKey((k) => k + 1);
    if ('error' in res) {
      form.setError(name, { type: 'server', message: formErrorOf(res.error as ApiError).message });
      return;
    }
    set(res.data.logo);
    setUploaded(true);
  };

  return (
    <div className="d-flex flex-wrap align-items-start gap-3">
      <div className="border rounded bg-body d-flex align-items-center justify-content-center p-1" style={{ width: 96, height: 96 }}>
        {hash ? (
          <img src={logoUrl(hash)} alt={L.logoCurrent} data-testid="logo-current" style={{ maxWidth: '100%', maxHeight: '100%' }} />
        ) : (
          <span className="small text-body-secondary text-center">{L.logoNone}</span>
        )}
      </div>
      <div className="flex-grow-1" style={{ minWidth: '12rem' }}>
        {/* The browser's own file button speaks the browser's language: a Spanish button opens it. */}
        <input
          key={inputKey}
          ref={input}
          id={id}
          type="file"
          hidden
          accept={LOGO_TYPES.join(',')}
          aria-label={`${label}: ${hash ? L.logoReplace : L.logoUpload}`}
          onChange={(e) => void choose(e.target.files?.[0])}
        />
        <div className="d-flex flex-wrap align-items-center gap-2">
          <Button
            variant={invalid ? 'outline-danger' : 'outline-primary'}
            size="sm"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            disabled={uploading.isLoading}
            onClick={() => input.current?.click()}
          >
            <i className="bi bi-upload me-2" aria-hidden="true" />
            {hash ? L.logoReplace : L.logoUpload}
          </Button>
          {hash && (
            <Button
              variant="outline-danger"
              size="sm"
              onClick={() => {
                setUploaded(false);
                set('');
              }}
            >
              {L.logoRemove}
            </Button>
          )}
          {uploading.isLoading && (
            <span className="small" role="status">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              {AGENT_SETTINGS_LABELS.common.loading}
            </span>
          )}
          {uploaded && (
            <span className="small text-success" role="status">
              {L.logoUploaded}
            </span>
          )}
        </div>
      </div>
    </div>
  );
}
