/**
 * The export's CSV lines written by the database: each cell built in SQL exactly as csvLines
 * (server/audit/csv.ts: papaparse's `unparse` with its formula guard) writes it, so a batch
 * arrives as one text, ready to send; Node neither parses nor re-writes the rows. The labels
 * come from the shared constants as parameters (already written as cells by csvLines); no value
 * of a request is ever spliced.
 */
import { DEVICE_STATUSES, DEVICE_TYPES, LOCK_TYPES } from '../../shared/constants/domain';
import { statusSql } from '../../shared/deviceStatus';
import { csvRow } from '../audit/csv';
import type { SqlWhere } from './deviceQueries';

/**
 * A text cell the formula guard rewrites (a leading apostrophe, quoted): papaparse's
 * /^[=+\-@\t\r].*$/, where '.' stops at a line terminator and '$' is the end of the text.
 */
const FORMULA = `'^[=+@\\t\\r-][^\\r\\n\\u2028\\u2029]*$'`;

/** A cell papaparse quotes: a comma, quote, line break or BOM anywhere, or a space at either edge. */
const QUOTED = `'[",\\r\\n\\uFEFF]|^ | $'`;

/** The SQL of a text value (`x`, a column or an expression) as one CSV cell; null is an empty cell. */
export const csvCellSql = (x: string): string =>
  `CASE WHEN ${x} IS NULL THEN '' WHEN ${x} ~ ${FORMULA} THEN '"''' || replace(${x}, '"', '""') || '"' ` +
  `WHEN ${x} ~ ${QUOTED} THEN '"' || replace(${x}, '"', '""') || '"' ELSE ${x} END`;

/** A value as csvLines writes it alone in a cell (no line break). */
const cellOf = (value: string) => csvRow([value]).slice(0, -2);

/**
 * The label of a code: `CASE code WHEN … THEN label …`, the labels as parameters; a code no
 * table knows is written as itself (as the labels' functions in shared/constants/domain.ts do).
 */
function labelSql(w: SqlWhere, code: string, entries: readonly { when: string | number; label: string }[], unknown: string): string {
  const whens = entries.map((e) => `WHEN ${typeof e.when === 'number' ? e.when : `${w.param(e.when)}::text`} THEN ${w.param(cellOf(e.label))}::text`);
  return `CASE ${code} ${whens.join(' ')} ELSE ${csvCellSql(unknown)} END`;
}

/**
 * The local time (`l0`, `l1`…) and offset in minutes (`o0`…, rounded as Math.round does: halves
 * up) of each of these instants in the zone `tz` (a placeholder): a lateral join named `z`,
 * computed once per row (OFFSET 0 keeps the planner from copying the expressions into every use).
 */
export function zoneJoinSql(cols: readonly string[], tz: string): string {
  const local = cols.map((c, i) => `${c} AT TIME ZONE ${tz} AS l${i}`);
  const offset = cols.map((c, i) => `zl.l${i}, floor((date_part('epoch', zl.l${i}) - date_part('epoch', ${c})) / 60 + 0.5)::integer AS o${i}`);
  return `CROSS JOIN LATERAL (SELECT ${local.join(', ')} OFFSET 0) zl CROSS JOIN LATERAL (SELECT ${offset.join(', ')} OFFSET 0) z`;
}

/**
 * An instant as the export writes it (csvZone's `instant`): ISO 8601 with milliseconds, in UTC
 * ('…Z'), or in the zone of zoneJoinSql (`zoned`: the instant's index there) with its offset at
 * that instant ('2026-11-23T08:05:00.000-06:00', 'Z' when it is zero). Null is an empty cell.
 */
export function instantSql(col: string, zoned?: number): string {
  if (zoned === undefined) return `coalesce(to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '')`;
  const [l, o] = [`z.l${zoned}`, `z.o${zoned}`];
  const pad = (n: string) => `lpad((${n})::text, 2, '0')`;
  return `CASE WHEN ${l} IS NULL THEN '' WHEN ${o} = 0 THEN to_char(${l}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    ELSE to_char(${l}, 'YYYY-MM-DD"T"HH24:MI:SS.MS') || CASE WHEN ${o} < 0 THEN '-' ELSE '+' END || ${pad(`abs(${o}) / 60`)} || ':' || ${pad(`abs(${o}) % 60`)} END`;
}

/** The date-time columns of a line, in EXPORT_COLUMNS order. */
const DATE_COLUMNS = ['d.last_seen_at', 'd.enrolled_at', 'd.created_at'] as const;

/** The free-text columns of a line (all but these are digits, labels or dates: never quoted). */
const TEXT_COLUMNS = ['d.serial', 'd.brand', 'd.model', 'g.name', 'd.customer_name', 'd.credit_reference', 'd.agent_version'] as const;
type TextColumn = (typeof TEXT_COLUMNS)[number];

/**
 * Whether any free-text cell of the line needs more than itself: the cells joined with U+001F,
 * searched once for a character that is quoted, a formula's or space's start, or an edge space.
 * A cell holding U+001F itself can only make it answer yes (then every cell is written in full).
 */
const TEXT_NEEDS_CSV = `concat_ws(E'\\x1F', ${TEXT_COLUMNS.join(', ')}) ~ '[",\\r\\n\\uFEFF]|(^|\\x1F)[ =+@\\t\\r-]| (\\x1F|$)'`;

/**
 * One export line of the device `d` (group `g`), in EXPORT_COLUMNS order and without its line
 * break: what exportLines writes for the same device, and the join its dates in `tz` need.
 * `cutoff` and `tz` are placeholders. The IMEIs are 15 digits (the table's CHECK), never quoted;
 * the free-text cells are written as themselves unless one of them needs quoting or the formula
 * guard (TEXT_NEEDS_CSV).
 */
export function exportLineSql(w: SqlWhere, cutoff: string, tz: string | undefined): { line: string; join: string } {
  const status = statusSql(cutoff, 'd');
  const date = (i: number) => instantSql(DATE_COLUMNS[i]!, tz === undefined ? undefined : i);
  const line = (text: (col: TextColumn) => string) => `concat_ws(',', d.id, d.imei, coalesce(d.imei2, ''), ${text('d.serial')},
    ${labelSql(
      w,
      'd.device_type',
      DEVICE_TYPES.map((t) => ({ when: t.code, label: t.label })),
      'd.device_type::text',
    )},
    ${text('d.brand')}, ${text('d.model')},
    ${labelSql(
      w,
      status,
      DEVICE_STATUSES.map((s) => ({ when: s.code, label: s.label })),
      `${status}::text`,
    )},
    ${labelSql(
      w,
      'd.lock_type',
      LOCK_TYPES.map((t) => ({ when: t.key, label: t.label })),
      'd.lock_type',
    )},
    ${text('g.name')}, ${text('d.customer_name')}, ${text('d.credit_reference')},
    ${date(0)}, ${text('d.agent_version')}, ${date(1)}, ${date(2)})`;
  return {
    line: `CASE WHEN ${TEXT_NEEDS_CSV} THEN ${line(csvCellSql)} ELSE ${line((col) => `coalesce(${col}, '')`)} END`,
    join: tz === undefined ? '' : zoneJoinSql(DATE_COLUMNS, tz),
  };
}
