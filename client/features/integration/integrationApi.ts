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
      query: (args) => http.get('/v5/api-keys', queryParams(args)),
      // Whether each key is manageable depends on the roles' grants too.
      providesTags: ['ApiKeys', 'Roles'],
    }),
    listApiKeyRoles: build.query<ApiKeyRoles, void>({
      query: () => http.get('/v5/api-keys/roles'),
      providesTags: ['Roles'],
    }),
    createApiKey: build.mutation<ApiKeyCreated, ApiKeyBody>({
      query: (body) => http.post('/v5/api-keys', body),
      invalidatesTags: ['ApiKeys', 'Audit'],
    }),
    revokeApiKey: build.mutation<ApiKey, number>({
      query: (id) => http.post(`/v5/api-keys/${id}/revoke`),
      invalidatesTags: ['ApiKeys', 'Audit'],
    }),
    listWebhooks: build.query<WebhookList, void>({
      query: () => http.get('/v5/webhooks'),
      providesTags: ['Webhooks'],
    }),
    createWebhook: build.mutation<WebhookCreated, WebhookBody>({
      query: (body) => http.post('/v5/webhooks', body),
      invalidatesTags: ['Webhooks', 'Audit'],
    }),
    updateWebhook: build.mutation<Webhook, { id: number; body: WebhookBody }>({
      query: ({ id, body }) => http.put('/v5/webhooks', body, id),
      invalidatesTags: ['Webhooks', 'WebhookDeliveries', 'Audit'],
    }),
    deleteWebhook: build.mutation<void, number>({
      query: (id) => http.delete('/v5/webhooks', id),
      invalidatesTags: ['Webhooks', 'WebhookDeliveries', 'Audit'],
    }),
    listWebhookDeliveries: build.query<WebhookDeliveryList, DeliveriesArgs>({
      query: ({ webhookId, ...args }) => http.get(`/v5/webhooks/${webhookId}/deliveries`, queryParams(args)),
      providesTags: ['WebhookDeliveries'],
    }),
    resendWebhookDelivery: build.mutation<WebhookDelivery, { webhookId: number; deliveryId: number }>({
      query: ({ webhookId, deliveryId }) => http.post(`/v5/webhooks/${webhookId}/deliveries/${deliveryId}/resend`),
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
