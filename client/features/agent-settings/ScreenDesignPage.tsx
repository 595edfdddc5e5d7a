import { Suspense } from 'react';
import type { PageProps } from '../../app/lazyPage';
import { useIdlePrefetch } from '../../components/useIdlePrefetch';
import { LOGO_FIELD, SCREEN_PREVIEW } from './dialogChunks';
import { LogoInput, type SettingInputProps } from './SettingField';
import { SettingsSectionView } from './SettingsSectionView';

const logoInput = (props: SettingInputProps) => (
  <Suspense fallback={null}>
    <LOGO_FIELD.Component {...props} />
  </Suspense>
);

/**
 * The smartphone's lock-screen design: the section's form (texts, contact, colours, logo) with a
 * live preview of the screen beside it, following what is typed.
 */
export default function ScreenDesignPage(props: PageProps) {
  useIdlePrefetch(LOGO_FIELD);
  return (
    <LogoInput value={logoInput}>
      <SettingsSectionView
        {...props}
        aside={(values) => (
          <Suspense fallback={null}>
            <SCREEN_PREVIEW.Component values={values} />
          </Suspense>
        )}
      />
    </LogoInput>
  );
}
