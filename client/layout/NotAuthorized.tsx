import { Link } from 'react-router-dom';
import { MESSAGES, SPEC_TEXT } from '../../shared/messages';
import { PATHS } from '../../shared/constants/routes';

/** Shown in place of a page the profile does not grant (reference §2, its text alone in the alert), with the way back home. */
export function NotAuthorized() {
  return (
    <>
      <div className="alert alert-danger d-flex align-items-center mt-3" role="alert">
        <i className="bi bi-shield-exclamation fs-4 me-3" aria-hidden="true" />
        <span>{SPEC_TEXT.notAuthorized}</span>
      </div>
      <Link to={PATHS.home} className="btn btn-primary">
        {MESSAGES.backHome}
      </Link>
    </>
  );
}
