import { lazyChunk } from '../../app/lazyPage';
import type { CreditDetailPageProps } from './CreditDetailPage';

/**
 * A credit's page, opened from the portfolio (`?credit=`): a chunk of its own, fetched once the
 * list is idle. Not in DIALOGS, which the server loads before its first render (as DEVICE_DETAIL).
 */
export const CREDIT_DETAIL = lazyChunk<CreditDetailPageProps>('client/features/credits/CreditDetailPage.tsx', () => import('./CreditDetailPage'));
