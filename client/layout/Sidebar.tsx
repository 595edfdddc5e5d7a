import Dropdown from 'react-bootstrap/Dropdown';
import OverlayTrigger from 'react-bootstrap/OverlayTrigger';
import Tooltip from 'react-bootstrap/Tooltip';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { SPEC_TEXT } from '../../shared/messages';
import { filterMenu } from '../../shared/permissions';
import { useGetVersionAppQuery, type AppVersion } from '../api/portalApi';
import { useAppSelector } from '../app/hooks';
import { useCurrentUser } from '../auth/CurrentUserContext';
import { useNarrowScreen } from './useNarrowScreen';
import { appVersionLabel } from '../../shared/constants/domain';

/** 'name (version)' or 'N/A' (reference §3). */
export function appVersionText(v: AppVersion | undefined): string {
  return v?.version_name && v.version_app ? appVersionLabel(v.version_name, v.version_app) : SPEC_TEXT.notAvailable;
}

/**
 * The menu the profile allows (reference §2). Wide and expanded: modules with their
 * entries. Collapsed, or narrower than 768 px: module icons whose entries open in a dropdown.
 */
export function Sidebar({ pageAllowed }: { pageAllowed: boolean }) {
  const { allowed } = useCurrentUser();
  const collapsed = useAppSelector((s) => s.ui.menuCollapsed);
  const narrow = useNarrowScreen();
  const compact = collapsed || narrow;
  // Narrow, the menu is icons already: the toggle hides it, leaving the page the whole width.
  const hidden = narrow && collapsed;
  const { pathname } = useLocation();
  // The app version is requested only when the current page is allowed (reference §7).
  const { data: appVersion } = useGetVersionAppQuery(undefined, { skip: !pageAllowed });
  const versionText = appVersionText(appVersion);
  const menu = filterMenu(allowed);

  return (
    <nav
      className={`portal-sidebar bg-dark text-white flex-column flex-shrink-0 ${hidden ? 'd-none' : 'd-flex'} ${compact ? 'compact' : ''}`}
      aria-label="Menú principal"
      data-compact={compact}
    >
      <ul className="nav flex-column flex-nowrap p-2 flex-grow-1 portal-sidebar-menu">
        {menu.map((m) =>
          compact ? (
            <li key={m.path} className="nav-item mb-1">
              <Dropdown drop="end">
                <Dropdown.Toggle
                  variant="dark"
                  className={`w-100 portal-icon-toggle ${pathname.startsWith(m.path) ? 'active' : ''}`}
                  aria-label={m.title}
                  title={m.title}
                >
                  <i className={`bi bi-${m.icon} fs-5`} aria-hidden="true" />
                </Dropdown.Toggle>
                <Dropdown.Menu variant="dark">
                  <Dropdown.Header aria-level={2}>{m.title}</Dropdown.Header>
                  {m.submodules.map((s) => (
                    <Dropdown.Item key={s.path} as={Link} to={s.path} active={pathname === s.path}>
                      <i className={`bi bi-${s.icon} me-2`} aria-hidden="true" />
                      {s.title}
                    </Dropdown.Item>
                  ))}
                </Dropdown.Menu>
              </Dropdown>
            </li>
          ) : (
            <li key={m.path} className="nav-item mb-2">
              <NavLink to={m.path} end className="nav-link text-white fw-semibold">
                <i className={`bi bi-${m.icon} me-2`} aria-hidden="true" />
                {m.title}
              </NavLink>
              {m.submodules.length > 0 && (
                <ul className="nav flex-column ms-3">
                  {m.submodules.map((s) => (
                    <li key={s.path} className="nav-item">
                      <NavLink to={s.path} className="nav-link portal-sublink py-1">
                        <i className={`bi bi-${s.icon} me-2`} aria-hidden="true" />
                        {s.title}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ),
        )}
      </ul>
      <div className="border-top border-secondary p-2 small portal-sublink text-center" data-testid="app-version">
        {compact ? (
          <OverlayTrigger placement="right" overlay={<Tooltip id="app-version-tooltip">{versionText}</Tooltip>}>
            <button type="button" className="btn btn-link p-0 text-reset" aria-label={versionText}>
              <i className="bi bi-phone" aria-hidden="true" />
            </button>
          </OverlayTrigger>
        ) : (
          versionText
        )}
      </div>
    </nav>
  );
}
