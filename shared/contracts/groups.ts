import * as z from 'zod';
import { FIELD_LABELS } from '../constants/fieldLabels';
import { ADMIN_API_MESSAGES } from '../areaMessages/admin';
import { intParam, listResponse, optionalTextField, textField } from './fields';

const F = ADMIN_API_MESSAGES.field;
const L = FIELD_LABELS.groups;

/** Device groups (/v5/groups). */

export const GROUP_NAME_MAX = 80;
export const GROUP_DESCRIPTION_MAX = 300;

/** POST /v5/groups and PUT /v5/groups/:id. */
export const groupBody = z.object(
  {
    name: textField(L.name, { min: 1, max: GROUP_NAME_MAX }),
    description: optionalTextField(L.description, GROUP_DESCRIPTION_MAX).default(null),
  },
  { error: F.body },
);
export type GroupBody = z.infer<typeof groupBody>;

/** DELETE /v5/groups/:id?moveTo=<id>: move the group's devices before deleting it. */
export const deleteGroupQuery = z.object({ moveTo: intParam(L.moveTo, 1, 2_147_483_647).optional() });
export type DeleteGroupQuery = z.infer<typeof deleteGroupQuery>;

/** A group as the API answers it. */
export const groupResponse = z.strictObject({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** Every live device of the group: the enrolled and the pre-enrolled. */
  deviceCount: z.number().int(),
  /** On the enrolled devices page (every status but pre-enrolled). */
  enrolledCount: z.number().int(),
  /** On the pre-enrolled devices page. */
  preEnrolledCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Group = z.infer<typeof groupResponse>;

/** GET /v5/groups: the groups, and the devices in none (the groups page's *Sin grupo* row). */
export const groupListResponse = listResponse(groupResponse).extend({
  ungrouped: z.strictObject({ enrolledCount: z.number().int(), preEnrolledCount: z.number().int() }),
});
export type GroupList = z.infer<typeof groupListResponse>;
