import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';
import { MENU } from '../../shared/constants/routes';
import { PRODUCT_NAME } from '../../shared/messages';
import { usePortalConfig } from '../app/PortalConfigContext';

/** The signed-in frame: header, menu of the route table and the page. */
export function AppLayout({ children }: { children: ReactNode }) {
  const { portalVersion } = usePortalConfig();
  return (
    <div className="min-vh-100 d-flex flex-column">
      <header className="navbar navbar-dark bg-dark px-3">
        <Link to="/" className="navbar-brand fw-semibold">
          <i className="bi bi-shield-lock me-2" aria-hidden="true" />
          {PRODUCT_NAME}
        </Link>
        <span className="navbar-text small">Versión del portal {portalVersion}</span>
      </header>
      <div className="d-flex flex-grow-1">
        <nav className="bg-body-tertiary border-end p-2" style={{ width: 260 }} aria-label="Menú principal">
          <ul className="nav flex-column">
            {MENU.map((m) => (
              <li key={m.path} className="nav-item">
                <NavLink to={m.path} end className="nav-link fw-semibold">
                  <i className={`bi bi-${m.icon} me-2`} aria-hidden="true" />
                  {m.title}
                </NavLink>
                <ul className="nav flex-column ms-3">
                  {m.submodules.map((s) => (
                    <li key={s.path} className="nav-item">
                      <NavLink to={s.path} className="nav-link py-1">
                        <i className={`bi bi-${s.icon} me-2`} aria-hidden="true" />
                        {s.title}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <main className="flex-grow-1 p-4">{children}</main>
      </div>
    </div>
  );
}
