/** The columns the administrators list sorts by (GET /v5/admins `sort`). Zod-free: the list page reads it. */
export const ADMIN_SORTS = ['nombres', 'correo', 'profile', 'createdAt'] as const;
export type AdminSort = (typeof ADMIN_SORTS)[number];
