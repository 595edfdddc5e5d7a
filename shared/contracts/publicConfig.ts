import * as z from 'zod';

/**
 * The settings the browser receives in the server-rendered page
 * (`<script id="portal-config" type="application/json">`). Public values only.
 */
export const publicConfigSchema = z.object({
  apiBase: z.string().min(1),
  /** Send the RefreshToken header with API calls (reference §7; API_SEND_REFRESH_TOKEN). */
  apiSendRefreshToken: z.boolean(),
  portalVersion: z.string().min(1),
  cognito: z.object({
    region: z.string().min(1),
    userPoolId: z.string().min(1),
    clientId: z.string().min(1),
    /** The embedded identity endpoint; absent for a real Cognito user pool. */
    endpoint: z.string().min(1).optional(),
  }),
});

export type PublicConfig = z.infer<typeof publicConfigSchema>;
