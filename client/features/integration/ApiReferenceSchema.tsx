import { Fragment, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import { API_REFERENCE_LABELS as L } from '../../../shared/constants/apiReferenceLabels';
import { deref, type JsonSchema, type OpenApiDocument } from './apiReferenceApi';

/** A text with `code` in backquotes, the code shown as code. */
export function ApiReferenceText({ text }: { text: string }) {
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>))}</>;
}

const typeName = (t: string) => L.types[t] ?? t;
const shown = (v: unknown) => JSON.stringify(v);

/** The types a schema allows, without null, and whether it allows null. */
function typesOf(s: JsonSchema): { types: string[]; nullable: boolean } {
  const list = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  const variants = s.anyOf ?? [];
  const fromVariants = variants.flatMap((v) => (Array.isArray(v.type) ? v.type : v.type ? [v.type] : []));
  const all = [...list, ...fromVariants];
  return { types: [...new Set(all.filter((t) => t !== 'null'))], nullable: all.includes('null') || (s.enum?.includes(null) ?? false) };
}

/** A schema's non-null variant of a nullable anyOf (the one holding the constraints). */
function mainVariant(s: JsonSchema): JsonSchema {
  const variants = (s.anyOf ?? []).filter((v) => v.type !== 'null');
  return variants.length === 1 ? { ...variants[0], ...s, anyOf: undefined } : s;
}

/** The schema's type in words: 'texto', 'lista de objeto', 'entero o null'. */
export function schemaTypeText(schema: JsonSchema): string {
  const s = mainVariant(schema);
  const { types, nullable } = typesOf(schema);
  let text: string;
  if (s.const !== undefined) text = shown(s.const);
  else if (types.length === 0) text = s.oneOf ? L.oneOf.toLowerCase() : s.properties ? typeName('object') : L.anyValue;
  else text = types.map((t) => (t === 'array' && s.items ? L.listOf(schemaTypeText(s.items)) : typeName(t))).join(' / ');
  if (s.format && L.formats[s.format]) text = `${text} (${L.formats[s.format]})`;
  return nullable ? `${text} ${L.nullable}` : text;
}

/** The constraints of a schema, in words. */
function constraints(s: JsonSchema): ReactNode[] {
  const out: ReactNode[] = [];
  const enumValues = s.enum?.filter((v) => v !== null);
  if (enumValues && enumValues.length > 0) {
    out.push(
      <span key="enum">
        {L.values}:{' '}
        {enumValues.map((v, i) => (
          <Fragment key={String(v)}>
            {i > 0 && ', '}
            <code>{shown(v)}</code>
          </Fragment>
        ))}
      </span>,
    );
  }
  if (s.pattern) {
    out.push(
      <span key="pattern">
        {L.pattern}: <code>{s.pattern}</code>
      </span>,
    );
  }
  if ((s.minLength !== undefined && s.minLength > 0) || s.maxLength !== undefined)
    out.push(<span key="length">{L.length(s.minLength || undefined, s.maxLength)}</span>);
  if (s.minimum !== undefined || s.maximum !== undefined) out.push(<span key="range">{L.range(s.minimum, s.maximum)}</span>);
  if (s.minItems !== undefined || s.maxItems !== undefined) out.push(<span key="items">{L.items(s.minItems, s.maxItems)}</span>);
  if (s.default !== undefined) {
    out.push(
      <span key="default">
        {L.defaultValue}: <code>{shown(s.default)}</code>
      </span>,
    );
  }
  return out;
}

/** Names that exactly one of must be given (a `oneOf` of `{ required: [name] }`). */
function exactlyOneOf(s: JsonSchema): string[] | undefined {
  if (!s.oneOf || !s.oneOf.every((v) => v.required?.length === 1 && !v.properties && !v.type)) return undefined;
  return s.oneOf.map((v) => v.required![0]!);
}

/** The children of a schema worth a nested list: an object's fields, or those of a list's items. */
function childrenOf(s: JsonSchema): JsonSchema | undefined {
  if (s.properties || (s.oneOf && !exactlyOneOf(s))) return s;
  if (s.items && (s.items.properties || s.items.oneOf)) return s.items;
  return undefined;
}

interface SchemaProps {
  doc: OpenApiDocument;
  schema: JsonSchema;
  /** Keeps ids unique on the page. */
  idPrefix: string;
  depth?: number;
}

/** One field: name, type, obligatory or not, description, constraints, its own fields. */
function Field({ doc, name, schema, required, idPrefix, depth }: SchemaProps & { name: string; required: boolean }) {
  const s = mainVariant(deref(doc, schema));
  const nested = childrenOf(s);
  const notes = constraints(s);
  return (
    <li className="py-2 border-top" data-testid="schema-field" data-field={name}>
      <div className="d-flex flex-wrap align-items-baseline gap-2">
        <code className="fw-semibold text-break">{name}</code>
        <span className="text-body-secondary small">{schemaTypeText(schema)}</span>
        {required ? (
          <Badge bg="danger-subtle" text="danger-emphasis" className="border border-danger-subtle">
            {L.required}
          </Badge>
        ) : (
          <span className="small text-body-secondary">{L.optional}</span>
        )}
      </div>
      {s.description && (
        <div className="small mt-1">
          <ApiReferenceText text={s.description} />
        </div>
      )}
      {notes.length > 0 && (
        <div className="small text-body-secondary mt-1 d-flex flex-wrap column-gap-3 row-gap-1">
          {notes.map((n, i) => (
            <Fragment key={i}>{n}</Fragment>
          ))}
        </div>
      )}
      {nested && (
        <div className="ms-2 ms-sm-3 ps-2 border-start mt-2">
          <ApiReferenceSchema doc={doc} schema={nested} idPrefix={`${idPrefix}-${name}`} depth={(depth ?? 0) + 1} />
        </div>
      )}
    </li>
  );
}

/**
 * A schema as a readable tree: each field with its type, whether it is obligatory, its
 * description and constraints (values, format, lengths, default); variants (`oneOf`) one after
 * the other with their titles; "exactly one of" rules in words.
 */
export function ApiReferenceSchema({ doc, schema, idPrefix, depth = 0 }: SchemaProps) {
  const s = mainVariant(deref(doc, schema));
  const required = new Set(s.required ?? []);
  const oneOfNames = exactlyOneOf(s);
  const variants = s.oneOf && !oneOfNames ? s.oneOf : undefined;
  const items = !s.properties && !variants && s.items ? childrenOf(s) : undefined;
  if (items) return <ApiReferenceSchema doc={doc} schema={items} idPrefix={idPrefix} depth={depth} />;
  return (
    <div>
      {s.description && depth === 0 && (
        <p className="small mb-2">
          <ApiReferenceText text={s.description} />
        </p>
      )}
      {oneOfNames && <p className="small mb-2 fw-semibold">{L.exactlyOne(oneOfNames)}</p>}
      {s.properties && (
        <ul className="list-unstyled mb-0">
          {Object.entries(s.properties).map(([name, child]) => (
            <Field key={name} doc={doc} name={name} schema={child} required={required.has(name)} idPrefix={idPrefix} depth={depth} />
          ))}
        </ul>
      )}
      {variants && (
        <div>
          <p className="small mb-1">{L.oneOf}:</p>
          <ol className="list-unstyled mb-0">
            {variants.map((variant, i) => {
              const v = deref(doc, variant);
              return (
                <li key={i} className="border rounded p-2 mb-2" data-testid="schema-variant">
                  <div className="small fw-semibold mb-1">{v.title ?? L.variant(i + 1)}</div>
                  <ApiReferenceSchema doc={doc} schema={{ ...v, description: undefined }} idPrefix={`${idPrefix}-${i}`} depth={depth + 1} />
                </li>
              );
            })}
          </ol>
        </div>
      )}
      {!s.properties && !variants && !oneOfNames && <p className="small mb-0 text-body-secondary">{schemaTypeText(s)}</p>}
    </div>
  );
}
