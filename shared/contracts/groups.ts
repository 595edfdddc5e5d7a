import * as z from 'zod';
import { ADMIN_API_MESSAGES } from '../messages';
import { intParam, optionalTextField, textField, type ListResponse } from './fields';

const F = ADMIN_API_MESSAGES.field;

/** Device groups (/v5/groups). */

export const GROUP_NAME_MAX = 80;
export const GROUP_DESCRIPTION_MAX = 300;

/** POST /v5/groups and PUT /v5/groups/:id. */
export const groupBody = z.object(
  {
    name: textField('name', { min: 1, max: GROUP_NAME_MAX }),
    description: optionalTextField('description', GROUP_DESCRIPTION_MAX).default(null),
  },
  { error: F.body },
);
export type GroupBody = z.infer<typeof groupBody>;

/** DELETE /v5/groups/:id?moveTo=<id>: move the group's devices before deleting it. */
export const deleteGroupQuery = z.object({ moveTo: intParam('moveTo', 1, 2_147_483_647).optional() });
export type DeleteGroupQuery = z.infer<typeof deleteGroupQuery>;

export interface Group {
  id: number;
  name: string;
  description: string | null;
  deviceCount: number;
  createdAt: string;
  updatedAt: string;
}
export type GroupList = ListResponse<Group>;
