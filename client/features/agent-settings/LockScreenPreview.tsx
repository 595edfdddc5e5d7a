import { useId } from 'react';
import { settingField, logoUrl } from '../../../shared/agentSettings';
import { AGENT_SETTINGS_LABELS } from '../../../shared/constants/agentSettingsLabels';

const L = AGENT_SETTINGS_LABELS.screen;
const HEX = /^#[0-9a-fA-F]{6}$/;
const SHA256 = /^[0-9a-f]{64}$/;
const DARK = '#212529';
const LIGHT = '#ffffff';

/** The defaults of a colour setting (what the agent shows while the typed value is not a colour yet). */
const defaultColor = (key: string) => {
  const f = settingField(key);
  return f?.kind === 'color' ? f.defaults[1] : DARK;
};

/** The relative luminance of a #rrggbb colour (WCAG 2). */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** The WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The text colour (dark or white) that reads best over a background. */
export function textOn(background: string): string {
  return contrastRatio(background, DARK) >= contrastRatio(background, LIGHT) ? DARK : LIGHT;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const color = (v: unknown, key: string) => (typeof v === 'string' && HEX.test(v) ? v.toLowerCase() : defaultColor(key));

/**
 * The phone's lock screen as the customer will see it, from the screen design's values as they
 * are typed: background colour, logo, title in the primary colour, message, contact phone and
 * e-mail, and the call button. Warns when the title would read poorly over the background.
 */
export function LockScreenPreview({ values }: { values: Record<string, unknown> }) {
  const captionId = useId();
  const background = color(values.background_color, 'background_color');
  const primary = color(values.primary_color, 'primary_color');
  const logo = typeof values.logo === 'string' && SHA256.test(values.logo) ? values.logo : null;
  const phone = text(values.contact_phone);
  const email = text(values.contact_email);
  const lowContrast = contrastRatio(primary, background) < 3;
  return (
    <figure className="mb-0" aria-labelledby={captionId} data-testid="lock-preview">
      <figcaption id={captionId} className="h6 text-center">
        {L.preview}
      </figcaption>
      <div className="lock-preview-phone">
        <div className="lock-preview-screen" style={{ backgroundColor: background, color: textOn(background) }} data-testid="lock-preview-screen">
          <i className="bi bi-lock-fill lock-preview-lock" aria-hidden="true" />
          {logo && <img className="lock-preview-logo" src={logoUrl(logo)} alt={L.previewLogo} data-testid="preview-logo" />}
          <p className="lock-preview-title" style={{ color: primary }} data-testid="preview-title">
            {text(values.screen_title)}
          </p>
          <p className="lock-preview-message" data-testid="preview-message">
            {text(values.screen_message)}
          </p>
          {(phone || email) && (
            <div className="lock-preview-contact" data-testid="preview-contact">
              {phone && (
                <span className="d-block">
                  <i className="bi bi-telephone me-1" aria-hidden="true" />
                  {phone}
                </span>
              )}
              {email && (
                <span className="d-block">
                  <i className="bi bi-envelope me-1" aria-hidden="true" />
                  {email}
                </span>
              )}
            </div>
          )}
          <div className="lock-preview-actions">
            {phone && (
              <span className="lock-preview-button" style={{ backgroundColor: primary, color: textOn(primary) }}>
                {L.previewCall}
              </span>
            )}
            <span className="lock-preview-emergency">{L.previewEmergency}</span>
          </div>
        </div>
      </div>
      <p className="small text-body-secondary text-center mt-2 mb-0">{L.previewNote}</p>
      {lowContrast && (
        <p className="small text-danger-emphasis text-center mt-1 mb-0" data-testid="preview-low-contrast">
          {L.lowContrast}
        </p>
      )}
    </figure>
  );
}
