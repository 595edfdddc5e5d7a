import type { Db } from '../../db/Db';

/** Device groups with their device counts. */
export class GroupsService {
  constructor(private readonly db: Db) {}
}
