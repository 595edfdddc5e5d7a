import { lazyChunk } from '../../app/lazyPage';
import type { BusinessAppFormProps } from './BusinessAppForm';
import type { LockAppFormProps } from './LockAppForm';
import type { SettingInputProps } from './SettingField';

/**
 * The app dialogs' forms, each in a chunk of its own: react-hook-form and the body's schema load
 * after the page has shown (useIdlePrefetch), not in its first load.
 */
export const LOCK_APP_FORM = lazyChunk<LockAppFormProps>('client/features/agent-settings/LockAppForm.tsx', () =>
  import('./LockAppForm').then((m) => ({ default: m.LockAppForm })),
);
export const BUSINESS_APP_FORM = lazyChunk<BusinessAppFormProps>('client/features/agent-settings/BusinessAppForm.tsx', () =>
  import('./BusinessAppForm').then((m) => ({ default: m.BusinessAppForm })),
);
/**
 * The screen design's logo upload and its lock-screen preview (screenDesignParts.ts), fetched once
 * the page is idle; until then the server's markup of both stays as it was drawn.
 */
export const LOGO_FIELD = lazyChunk<SettingInputProps>('client/features/agent-settings/screenDesignParts.ts', () =>
  import('./screenDesignParts').then((m) => ({ default: m.LogoField })),
);
export const SCREEN_PREVIEW = lazyChunk<{ values: Record<string, unknown> }>('client/features/agent-settings/screenDesignParts.ts', () =>
  import('./screenDesignParts').then((m) => ({ default: m.LockScreenPreview })),
);
