import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages';
import { filterMenu } from '../../../shared/permissions';
import type { PageProps } from '../../app/lazyPage';
import { useCurrentUser } from '../../auth/CurrentUserContext';

/**
 * A section of the portal: a module lists the entries the profile allows; an entry shows its
 * title until its functional page lands.
 */
export default function SectionPage({ title, path }: PageProps) {
  const menu = filterMenu(useCurrentUser().allowed);
  const module = menu.find((m) => m.path === path);
  const entries = module?.submodules ?? [];
  return (
    <section>
      <h1 className="h3 mb-4">{title}</h1>
      {entries.length > 0 ? (
        <div className="row g-3">
          {entries.map((e) => (
            <div key={e.path} className="col-12 col-md-6 col-xl-4">
              <Link to={e.path} className="card h-100 text-decoration-none">
                <div className="card-body d-flex align-items-center">
                  <i className={`bi bi-${e.icon} fs-3 me-3 text-primary`} aria-hidden="true" />
                  <span className="fw-semibold">{e.title}</span>
                </div>
              </Link>
            </div>
          ))}
        </div>
      ) : (
        <p className="text-secondary-emphasis">{MESSAGES.sectionPending}</p>
      )}
    </section>
  );
}
