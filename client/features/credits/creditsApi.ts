import { API_PATHS } from '../../../shared/constants/apiPaths';
import type {
  Approval,
  ApprovalList,
  CollectionPolicyAnswer,
  CollectionPolicyValues,
  CreditDetail,
  CreditFilter,
  CreditList,
  CreditSummary,
  PauseBody,
  PaymentBodyInput,
  PaymentResult,
  ReconciliationList,
} from '../../../shared/contracts/credits';
import { CREDIT_FILE_NAMES } from '../../../shared/constants/creditFileNames';
import type { ReconciliationKind } from '../../../shared/constants/creditLabels';
import type { CreditImportResult } from '../../../shared/contracts/creditImport';
import { apiSlice } from '../../api/apiSlice';
import { http, type ApiExtra } from '../../api/axiosBaseQuery';
import { downloadFile } from '../../api/downloadFile';
import { queryParams } from '../../api/queryParams';
import type { CreditSort, CreditImportKind } from '../../../shared/constants/limits';

/** The portfolio's filters as the URL and the API carry them (strings, empty = absent). */
export type CreditFilterArgs = { [K in keyof CreditFilter]?: string };
export type CreditFilterKey = keyof CreditFilter;

export interface CreditListArgs extends CreditFilterArgs {
  sort?: CreditSort;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/**
 * The credit portfolio (/v5/credits): list, summary, export, a credit's detail, payments and their
 * reversals. Every credit answer carries the 'Credits' tag: a payment or a reversal changes the
 * list, the summary, the credit and the Crédito panel of its devices at once.
 */
export const creditsApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listCredits: build.query<CreditList, CreditListArgs>({
      query: (args) => http.get(API_PATHS.credits.base, queryParams(args)),
      providesTags: ['Credits'],
    }),
    creditSummary: build.query<CreditSummary, void>({
      query: () => http.get(API_PATHS.credits.summary()),
      providesTags: ['Credits'],
    }),
    getCredit: build.query<CreditDetail, string>({
      query: (reference) => http.get(API_PATHS.credits.one(reference)),
      providesTags: ['Credits'],
    }),
    /** Conciliación: tagged with the devices too, so a fix made on a device re-reads it. */
    listReconciliation: build.query<ReconciliationList, { kind?: ReconciliationKind; page: number; perPage: number }>({
      query: (args) => http.get(API_PATHS.credits.reconciliation(), queryParams(args)),
      providesTags: ['Credits', 'Devices'],
    }),
    exportReconciliation: build.mutation<null, { kind?: ReconciliationKind }>({
      queryFn: (args, api) =>
        downloadFile(api.extra as ApiExtra, API_PATHS.credits.reconciliationExport(), queryParams(args), CREDIT_FILE_NAMES.reconciliation),
    }),
    exportCredits: build.mutation<null, CreditFilterArgs & { sort?: CreditSort; order?: 'asc' | 'desc' }>({
      queryFn: (args, api) => downloadFile(api.extra as ApiExtra, API_PATHS.credits.export(), queryParams(args), CREDIT_FILE_NAMES.portfolio),
    }),
    /** Validates (mode preview) or applies all or nothing (mode commit) a CSV of schedules or payments, sent as its bytes. */
    importCredits: build.mutation<CreditImportResult, { kind: CreditImportKind; file: Blob; mode: 'preview' | 'commit' }>({
      query: ({ kind, file, mode }) => ({
        url: API_PATHS.credits.import(),
        method: 'POST',
        params: { kind, mode },
        data: file,
        headers: { 'Content-Type': 'text/csv' },
      }),
      // Devices: a payment may unlock them, a schedule give them its reference.
      invalidatesTags: (_r, _e, { mode }) => (mode === 'commit' ? ['Credits', 'Devices', 'Device', 'Audit'] : []),
    }),
    downloadCreditImportTemplate: build.mutation<null, CreditImportKind>({
      queryFn: (kind, api) => downloadFile(api.extra as ApiExtra, API_PATHS.credits.importTemplate(), { kind }, CREDIT_FILE_NAMES.template[kind]),
    }),
    /** The body's externalId is made once per dialog: a retried submit is the same payment. */
    registerPayment: build.mutation<PaymentResult, { reference: string; body: PaymentBodyInput }>({
      query: ({ reference, body }) => http.post(API_PATHS.credits.payments(reference), body),
      // Devices: a payment may unlock them (the engine's unlock is a command on the device).
      invalidatesTags: ['Credits', 'Devices', 'Device', 'Audit'],
    }),
    reversePayment: build.mutation<PaymentResult, { reference: string; externalId: string }>({
      query: ({ reference, externalId }) => http.post(API_PATHS.credits.reversal(reference, externalId)),
      invalidatesTags: ['Credits', 'Devices', 'Device', 'Audit'],
    }),
    /** Promesa de pago: the answer is the credit again, its pause and next step re-planned. */
    pauseCollection: build.mutation<CreditDetail, { reference: string; body: PauseBody }>({
      query: ({ reference, body }) => http.post(API_PATHS.credits.pause(reference), body),
      invalidatesTags: ['Credits', 'Device', 'Audit'],
    }),
    resumeCollection: build.mutation<CreditDetail, string>({
      query: (reference) => ({ url: API_PATHS.credits.pause(reference), method: 'DELETE' }),
      // Resuming re-plans at once: a lock already due may be sent to the devices.
      invalidatesTags: ['Credits', 'Devices', 'Device', 'Audit'],
    }),
    /** The releases at payoff waiting for approval (a payment that pays a credit off adds one: the 'Credits' tag). */
    listApprovals: build.query<ApprovalList, { page: number; perPage: number }>({
      query: (args) => http.get(API_PATHS.credits.approvals(), { status: 'pending', ...args }),
      providesTags: ['Credits'],
    }),
    decideApproval: build.mutation<Approval, { id: number; approve: boolean }>({
      query: ({ id, approve }) => http.post((approve ? API_PATHS.credits.approve : API_PATHS.credits.reject)(id)),
      invalidatesTags: ['Credits', 'Devices', 'Device', 'Audit'],
    }),
    /** Política de cobranza of a scope (absent groupId: Global). */
    collectionPolicy: build.query<CollectionPolicyAnswer, { groupId?: number }>({
      query: ({ groupId }) => http.get(API_PATHS.collectionPolicy.base, queryParams({ groupId })),
      providesTags: ['CollectionPolicy'],
    }),
    /** `values`: every value (Global) or the keys the group overrides (`{}` removes its override). */
    saveCollectionPolicy: build.mutation<CollectionPolicyAnswer, { groupId?: number; version: number | null; values: CollectionPolicyValues }>({
      query: ({ groupId, version, values }) => ({
        ...http.put(API_PATHS.collectionPolicy.base, { version, values }),
        params: queryParams({ groupId }),
      }),
      // Credits: a new policy re-plans every credit's next step.
      invalidatesTags: ['CollectionPolicy', 'Credits', 'Device', 'Audit'],
    }),
  }),
});

export const {
  useListCreditsQuery,
  useCreditSummaryQuery,
  useGetCreditQuery,
  useExportCreditsMutation,
  useListReconciliationQuery,
  useExportReconciliationMutation,
  useImportCreditsMutation,
  useDownloadCreditImportTemplateMutation,
  useRegisterPaymentMutation,
  useReversePaymentMutation,
  usePauseCollectionMutation,
  useResumeCollectionMutation,
  useListApprovalsQuery,
  useDecideApprovalMutation,
  useCollectionPolicyQuery,
  useSaveCollectionPolicyMutation,
} = creditsApi;
