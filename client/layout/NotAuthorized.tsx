import { SPEC_TEXT } from '../../shared/messages';

/** Shown in place of a page the profile does not grant (specification §2). */
export function NotAuthorized() {
  return (
    <div className="alert alert-danger d-flex align-items-center mt-3" role="alert">
      <i className="bi bi-shield-exclamation fs-4 me-3" aria-hidden="true" />
      <span>{SPEC_TEXT.notAuthorized}</span>
    </div>
  );
}
