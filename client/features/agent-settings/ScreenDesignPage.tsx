import type { PageProps } from '../../app/lazyPage';
import { LockScreenPreview } from './LockScreenPreview';
import { SettingsSectionView } from './SettingsSectionView';

/**
 * The smartphone's lock-screen design: the section's form (texts, contact, colours, logo) with a
 * live preview of the screen beside it, following what is typed.
 */
export default function ScreenDesignPage(props: PageProps) {
  return <SettingsSectionView {...props} aside={(values) => <LockScreenPreview values={values} />} />;
}
