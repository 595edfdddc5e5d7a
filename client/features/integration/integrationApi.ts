import { API_PATHS } from '../../../shared/constants/apiPaths';
import type { ApiKey, ApiKeyBody, ApiKeyCreated, ApiKeyList, ApiKeyRoles } from '../../../shared/contracts/apiKeys';
import type { WebhookDeliveryStatus } from '../../../shared/constants/integration';
import type { Webhook, WebhookBody, WebhookCreated, WebhookDelivery, WebhookDeliveryList, WebhookList } from '../../../shared/contracts/webhooks';
import { apiSlice } from '../../api/apiSlice';
import { http } from '../../api/axiosBaseQuery';
import { queryParams } from '../../api/queryParams';

export interface PageArgs {
  page: number;
  perPage: number;
}

export interface DeliveriesArgs extends PageArgs {
  webhookId: number;
  status?: WebhookDeliveryStatus;
}

/** API keys (/v5/api-keys) and webhook subscriptions with their delivery log (/v5/webhooks). */
export const integrationApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    listApiKeys: build.query<ApiKeyList, PageArgs>({
      query: (args) => http.get(API_PATHS.apiKeys.base, queryParams(args)),
      // Whether each key is manageable depends on the roles' grants too.
      providesTags: ['ApiKeys', 'Roles'],
    }),
    listApiKeyRoles: build.query<ApiKeyRoles, void>({
      query: () => http.get(API_PATHS.apiKeys.roles()),
      providesTags: ['Roles'],
    }),
    createApiKey: build.mutation<ApiKeyCreated, ApiKeyBody>({
      query: (body) => http.post(API_PATHS.apiKeys.base, body),
      invalidatesTags: ['ApiKeys', 'Audit'],
    }),
    revokeApiKey: build.mutation<ApiKey, number>({
      query: (id) => http.post(API_PATHS.apiKeys.revoke(id)),
      invalidatesTags: ['ApiKeys', 'Audit'],
    }),
    listWebhooks: build.query<WebhookList, void>({
      query: () => http.get(API_PATHS.webhooks.base),
      providesTags: ['Webhooks'],
    }),
    createWebhook: build.mutation<WebhookCreated, WebhookBody>({
      query: (body) => http.post(API_PATHS.webhooks.base, body),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    updateWebhook: build.mutation<Webhook, { id: number; body: WebhookBody }>({
      query: ({ id, body }) => http.put(API_PATHS.webhooks.base, body, id),
      invalidatesTags: ['Webhooks', 'WebhookDeliveries', 'Audit'],
    }),
    deleteWebhook: build.mutation<void, number>({
      query: (id) => http.delete(API_PATHS.webhooks.base, id),
      invalidatesTags: ['Webhooks', 'WebhookDeliveries', 'Audit'],
    }),
    listWebhookDeliveries: build.query<WebhookDeliveryList, DeliveriesArgs>({
      query: ({ webhookId, ...args }) => http.get(API_PATHS.webhooks.deliveries(webhookId), queryParams(args)),
      providesTags: ['WebhookDeliveries'],
    }),
    resendWebhookDelivery: build.mutation<WebhookDelivery, { webhookId: number; deliveryId: number }>({
      query: ({ webhookId, deliveryId }) => http.post(API_PATHS.webhooks.resend(webhookId, deliveryId)),
      invalidatesTags: ['WebhookDeliveries', 'Webhooks', 'Audit'],
    }),
  }),
});

export const {
  useListApiKeysQuery,
  useListApiKeyRolesQuery,
  useCreateApiKeyMutation,
  useRevokeApiKeyMutation,
  useListWebhooksQuery,
  useCreateWebhookMutation,
  useUpdateWebhookMutation,
  useDeleteWebhookMutation,
  useListWebhookDeliveriesQuery,
  useResendWebhookDeliveryMutation,
} = integrationApi;
