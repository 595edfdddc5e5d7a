import { Link, useSearchParams } from 'react-router-dom';
import { PATHS } from '../../../shared/constants/routes';
import { MESSAGES } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';

/** The bare page (no header, no menu) that receives Android Enterprise's sign-up redirect. */
export default function GooglePage(_props: PageProps) {
  const [params] = useSearchParams();
  const token = params.get('enterpriseToken');
  return (
    <main className="container py-5">
      <h1 className="h4">{MESSAGES.googleTitle}</h1>
      <p className="text-secondary">{token ? MESSAGES.googleReceived : MESSAGES.googleMissing}</p>
      <Link to={PATHS.home} className="btn btn-primary">
        {MESSAGES.backHome}
      </Link>
    </main>
  );
}
