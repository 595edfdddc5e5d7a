import type { PageProps } from '../../app/lazyPage';

export default function DevicesPage({ title }: PageProps) {
  return <h1 className="h3 mb-4">{title}</h1>;
}
