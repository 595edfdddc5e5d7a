import { lazyChunk } from '../../app/lazyPage';
import type { ApiKeyFormProps } from './ApiKeyForm';
import type { WebhookFormProps } from './WebhookForm';

/**
 * The integration dialogs' forms, each in a chunk of its own: react-hook-form and the body's
 * schema load after the page has shown (useIdlePrefetch), not in its first load.
 */
export const API_KEY_FORM_ID = 'api-key-form';
export const API_KEY_FORM = lazyChunk<ApiKeyFormProps>('client/features/integration/ApiKeyForm.tsx', () =>
  import('./ApiKeyForm').then((m) => ({ default: m.ApiKeyForm })),
);
export const WEBHOOK_FORM = lazyChunk<WebhookFormProps>('client/features/integration/WebhookForm.tsx', () =>
  import('./WebhookForm').then((m) => ({ default: m.WebhookForm })),
);
