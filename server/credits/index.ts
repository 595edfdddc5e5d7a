/**
 * The credits domain: the loans that finance devices, their installments and payments. Its
 * repository (all SQL of the credits' tables), the portfolio's query rules, the views computed
 * with shared/credits, and the service the portal API and the integration API call. Nothing
 * outside server/credits imports its files but this one (eslint.config.js enforces it). The
 * devices a credit finances are read through the device domain (server/devices).
 */
export { CreditsService, type CreditSettings } from './creditsService';
export { CollectionEngine, COLLECTION_ACTOR, COLLECTION_BATCH, COLLECTION_BATCH_PGLITE, COLLECTION_RETRY_MS } from './collectionEngine';
export { CollectionClock } from './collectionClock';
export { CollectionService } from './collectionService';
export { CreditExistsError, importCredits, type ImportOptions, type ImportedCredit, type ImportedPayment } from './creditImport';
export { ReconciliationService, RECONCILIATION_SUMMARY_AT } from './reconciliationService';
export { ReconciliationClock } from './reconciliationClock';
