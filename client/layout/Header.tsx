import { useState } from 'react';
import Dropdown from 'react-bootstrap/Dropdown';
import { Link, useNavigate } from 'react-router-dom';
import { PATHS } from '../../shared/constants/routes';
import { PRODUCT_NAME, SPEC_TEXT } from '../../shared/messages';
import { useGetVersionQuery } from '../api/portalApi';
import { useAppDispatch } from '../app/hooks';
import { toggleMenu } from '../app/uiSlice';
import { useCurrentUser } from '../auth/CurrentUserContext';
import { useEndSession } from '../auth/useEndSession';
import { ConfirmModal } from '../components/ConfirmModal';
import { BrandMark } from '../components/BrandMark';

/**
 * Menu toggle, portal version, the user's names and profile, and the user menu (reference §2). It fits a
 * phone: narrower than 576 px the product's name leaves its mark alone and the version reads on two
 * short lines, so the names keep their room (they shorten with an ellipsis rather than widen the page).
 */
export function Header() {
  const dispatch = useAppDispatch();
  const { user } = useCurrentUser();
  const { data: version } = useGetVersionQuery();
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const endSession = useEndSession();
  const navigate = useNavigate();

  const userText = [user.nombres, user.profile?.nombre].filter(Boolean).join(' · ');

  const logout = async () => {
    setLeaving(true);
    await endSession(PATHS.login, { revoke: true });
  };

  return (
    <header className="navbar navbar-expand flex-nowrap bg-white border-bottom px-2 px-md-3 py-2 gap-2 gap-md-3">
      <button type="button" className="btn btn-outline-secondary" aria-label="Mostrar u ocultar el menú" onClick={() => dispatch(toggleMenu())}>
        <i className="bi bi-list" aria-hidden="true" />
      </button>
      <Link to="/" className="navbar-brand fw-semibold me-auto flex-shrink-0" aria-label={PRODUCT_NAME}>
        <BrandMark className="me-sm-2 text-primary" />
        <span className="d-none d-sm-inline">{PRODUCT_NAME}</span>
      </Link>
      <span className="text-secondary small lh-sm text-end text-sm-start flex-shrink-0" data-testid="portal-version">
        <span className="d-block d-sm-inline text-nowrap">{SPEC_TEXT.portalVersion}</span>{' '}
        <span className="text-nowrap">{version?.version_portal ?? SPEC_TEXT.emptyValue}</span>
      </span>
      {/* The user's names give way (ellipsis) when the header is narrow, and wrap on a phone; the whole text stays in the title. */}
      <Dropdown align="end" className="portal-user-menu">
        <Dropdown.Toggle variant="light" className="d-flex align-items-center gap-2 mw-100" id="user-menu" title={userText}>
          <i className="bi bi-person-circle fs-5 d-none d-sm-inline" aria-hidden="true" />
          <span className="text-start lh-sm portal-user-text">
            <span className="d-block fw-semibold portal-user-line" data-testid="user-names">
              {user.nombres}
            </span>
            <span className="d-block small text-secondary-emphasis portal-user-line" data-testid="user-profile">
              {user.profile?.nombre}
            </span>
          </span>
        </Dropdown.Toggle>
        <Dropdown.Menu>
          <Dropdown.Item onClick={() => navigate(PATHS.account)}>
            <i className="bi bi-person me-2" aria-hidden="true" />
            {SPEC_TEXT.myProfile}
          </Dropdown.Item>
          <Dropdown.Item onClick={() => setConfirming(true)}>
            <i className="bi bi-box-arrow-right me-2" aria-hidden="true" />
            {SPEC_TEXT.logout}
          </Dropdown.Item>
        </Dropdown.Menu>
      </Dropdown>
      <ConfirmModal
        show={confirming}
        title={SPEC_TEXT.logoutTitle}
        message={SPEC_TEXT.logoutQuestion}
        confirmLabel={SPEC_TEXT.logoutAccept}
        loading={leaving}
        onConfirm={logout}
        onClose={() => setConfirming(false)}
      />
    </header>
  );
}
