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
 * Menu toggle, portal version, the user's names and profile, and the user menu (§2). It fits a
 * phone: narrower than 768 px the version moves into the user menu, and the names shorten with an
 * ellipsis rather than widen the page.
 */
export function Header() {
  const dispatch = useAppDispatch();
  const { user } = useCurrentUser();
  const { data: version } = useGetVersionQuery();
  const [confirming, setConfirming] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const endSession = useEndSession();
  const navigate = useNavigate();

  const versionText = `${SPEC_TEXT.portalVersion} ${version?.version_portal ?? SPEC_TEXT.emptyValue}`;
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
      <Link to="/" className="navbar-brand fw-semibold me-auto flex-shrink-0">
        <BrandMark className="me-2 text-primary" />
        {PRODUCT_NAME}
      </Link>
      <span className="text-secondary small text-nowrap d-none d-md-inline" data-testid="portal-version">
        {versionText}
      </span>
      {/* The user's names give way (ellipsis) when the header is narrow; the whole text stays in the title. */}
      <Dropdown align="end" className="portal-user-menu">
        <Dropdown.Toggle variant="light" className="d-flex align-items-center gap-2 mw-100" id="user-menu" title={userText}>
          <i className="bi bi-person-circle fs-5" aria-hidden="true" />
          <span className="text-start lh-sm portal-user-text">
            <span className="d-block fw-semibold text-truncate" data-testid="user-names">
              {user.nombres}
            </span>
            <span className="d-block small text-secondary-emphasis text-truncate" data-testid="user-profile">
              {user.profile?.nombre}
            </span>
          </span>
        </Dropdown.Toggle>
        <Dropdown.Menu>
          {/* Narrower than 768 px the portal version is read here. */}
          <Dropdown.ItemText className="d-md-none small text-secondary text-nowrap" data-testid="portal-version-menu">
            {versionText}
          </Dropdown.ItemText>
          <Dropdown.Divider className="d-md-none" />
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
