import type { PageProps } from '../../app/lazyPage';
import { SettingsSectionView } from './SettingsSectionView';

/**
 * The restrictions pages (enrollment, lock, release) of smartphones and TVs: the section and the
 * device type come from the route's path (SETTINGS_SECTIONS' paths).
 */
export default function SettingsSectionPage(props: PageProps) {
  return <SettingsSectionView {...props} />;
}
