import { Link } from 'react-router-dom';
import { MESSAGES } from '../../../shared/messages';
import { PATHS } from '../../../shared/constants/routes';

export function NotFoundPage() {
  return (
    <main className="container py-5 text-center">
      <h1 className="display-6">{MESSAGES.notFoundTitle}</h1>
      <p className="text-secondary">{MESSAGES.notFoundText}</p>
      <Link to={PATHS.home} className="btn btn-primary">
        {MESSAGES.backHome}
      </Link>
    </main>
  );
}
