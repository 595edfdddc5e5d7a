/** The SQLSTATE of a database error (both engines report PostgreSQL's codes), or undefined. */
export const pgCode = (err: unknown): string | undefined =>
  err !== null && typeof err === 'object' && 'code' in err && typeof err.code === 'string' ? err.code : undefined;

/** A unique index refused the row: a concurrent request passed the same check first. */
export const isUniqueViolation = (err: unknown): boolean => pgCode(err) === '23505';

/** The constraint (or unique index) a database error names, when it names one. */
export const constraintOf = (err: unknown): string | undefined =>
  err !== null && typeof err === 'object' && 'constraint' in err && typeof err.constraint === 'string' ? err.constraint : undefined;
