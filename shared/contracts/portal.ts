import * as z from 'zod';

/**
 * Response contracts of /api/portal (reference §7): the server answers these shapes and the
 * client reads them; both use the types inferred here.
 */

/** GET /portal/getVersion: the portal's own version. */
export const portalVersionResponse = z.strictObject({ version_portal: z.string() });
export type PortalVersion = z.infer<typeof portalVersionResponse>;

/** GET /portal/getVersionApp: the current lock-app version (null when none is recorded). */
export const appVersionResponse = z.strictObject({ version_name: z.string().nullable(), version_app: z.string().nullable() });
export type AppVersion = z.infer<typeof appVersionResponse>;
