import m0001 from './0001_extensions.sql';

export interface Migration {
  /** The file name without `.sql`: a four-digit number, an underscore, a name. */
  id: string;
  sql: string;
}

/** Every migration, in the order it runs. A test checks this list against the folder. */
export const migrations: readonly Migration[] = [{ id: '0001_extensions', sql: m0001 }];
