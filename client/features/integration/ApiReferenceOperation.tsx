import { useId, useState, type ReactNode } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import { API_REFERENCE_LABELS as L } from '../../../shared/constants/apiReferenceLabels';
import { deref, type ApiReferenceOperationEntry, type JsonSchema, type OpenApiDocument, type OpenApiParameter } from './apiReferenceApi';
import { ApiReferenceSchema, ApiReferenceText, schemaTypeText } from './ApiReferenceSchema';

const METHOD_VARIANTS: Record<string, string> = { get: 'primary', post: 'success', put: 'warning', patch: 'warning', delete: 'danger' };

/** The HTTP method as a badge. */
export function ApiReferenceMethod({ method }: { method: string }) {
  return (
    <Badge bg={METHOD_VARIANTS[method] ?? 'secondary'} className="font-monospace" text={method === 'put' || method === 'patch' ? 'dark' : undefined}>
      {method.toUpperCase()}
    </Badge>
  );
}

/** A button that shows or hides what it controls (keyboard: a plain button with aria-expanded). */
export function ApiReferenceToggle({ show, hide, testId, children }: { show: string; hide: string; testId?: string; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div>
      <Button variant="outline-secondary" size="sm" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)} data-testid={testId}>
        <i className={`bi ${open ? 'bi-chevron-up' : 'bi-chevron-down'} me-1`} aria-hidden="true" />
        {open ? hide : show}
      </Button>
      <div id={id} hidden={!open} className="mt-2">
        {open && children}
      </div>
    </div>
  );
}

/** The description's paragraphs, without the one the page shows as "Permiso necesario". */
export function ApiReferenceParagraphs({ text, skipPrefix }: { text: string | undefined; skipPrefix?: string }) {
  const paragraphs = (text ?? '').split(/\n{2,}/).filter((p) => p.trim() !== '' && !(skipPrefix && p.startsWith(skipPrefix)));
  return (
    <>
      {paragraphs.map((p, i) => (
        <p key={i} className="mb-2">
          <ApiReferenceText text={p} />
        </p>
      ))}
    </>
  );
}

/** The parameters of an operation (or the headers of a webhook) as a table. */
export function ApiReferenceParameters({ doc, parameters }: { doc: OpenApiDocument; parameters: OpenApiParameter[] }) {
  return (
    // Three columns that wrap, no scrolling box: it fits a 375 px screen.
    <Table size="sm" bordered className="small mb-0">
      <thead>
        <tr>
          <th scope="col">{L.paramName}</th>
          <th scope="col">{L.paramType}</th>
          <th scope="col">{L.paramDescription}</th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((raw) => {
          const p = deref(doc, raw as OpenApiParameter & { $ref?: string });
          const schema: JsonSchema = p.schema ?? {};
          const extras = [
            schema.enum ? `${L.values}: ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}` : undefined,
            schema.minimum !== undefined || schema.maximum !== undefined ? L.range(schema.minimum, schema.maximum) : undefined,
            schema.default !== undefined ? `${L.defaultValue}: ${JSON.stringify(schema.default)}` : undefined,
            schema.pattern ? `${L.pattern}: ${schema.pattern}` : undefined,
          ].filter((x): x is string => x !== undefined);
          return (
            <tr key={`${p.in}:${p.name}`} data-testid="parameter-row" data-name={p.name}>
              <td className="text-break">
                <code>{p.name}</code>
                <div className="text-body-secondary">
                  {L.paramLocations[p.in] ?? p.in} · {p.required ? L.required : L.optional}
                </div>
              </td>
              <td className="text-break">{schemaTypeText(schema)}</td>
              <td className="text-break">
                {p.description && <ApiReferenceText text={p.description} />}
                {extras.length > 0 && <div className="text-body-secondary">{extras.join(' · ')}</div>}
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}

/** One operation: method, path, summary, description, grant, parameters, request body, responses. */
export function ApiReferenceOperation({ doc, entry }: { doc: OpenApiDocument; entry: ApiReferenceOperationEntry }) {
  const { operation: op, method, path, anchor } = entry;
  const body = op.requestBody?.content?.['application/json']?.schema;
  const parameters = op.parameters ?? [];
  const idempotent = parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  return (
    <Card as="article" className="mb-3" id={anchor} aria-labelledby={`${anchor}-title`} data-testid="api-operation" data-operation={op.operationId}>
      <Card.Header className="d-flex flex-wrap align-items-center gap-2">
        <ApiReferenceMethod method={method} />
        <code className="text-break fs-6 text-body">{path}</code>
      </Card.Header>
      <Card.Body>
        <h3 className="h5" id={`${anchor}-title`} tabIndex={-1}>
          {op.summary}
        </h3>
        <ApiReferenceParagraphs text={op.description} skipPrefix={`${L.requires}:`} />
        <dl className="row small mb-2">
          {op['x-requires'] && (
            <>
              <dt className="col-sm-4 col-lg-3">{L.requires}</dt>
              <dd className="col-sm-8 col-lg-9">{op['x-requires']}</dd>
            </>
          )}
          {op.operationId && (
            <>
              <dt className="col-sm-4 col-lg-3">operationId</dt>
              <dd className="col-sm-8 col-lg-9">
                <code>{op.operationId}</code>
              </dd>
            </>
          )}
          {idempotent && (
            <>
              <dt className="col-sm-4 col-lg-3">Idempotency-Key</dt>
              <dd className="col-sm-8 col-lg-9">{L.idempotent}</dd>
            </>
          )}
        </dl>

        <h4 className="h6 mt-3">{L.parameters}</h4>
        {parameters.length > 0 ? (
          <ApiReferenceParameters doc={doc} parameters={parameters} />
        ) : (
          <p className="small text-body-secondary">{L.noParameters}</p>
        )}

        {body && (
          <>
            <h4 className="h6 mt-3">{L.requestBody}</h4>
            <ApiReferenceToggle show={L.showRequestBody} hide={L.hideRequestBody} testId={`${anchor}-body-toggle`}>
              <div data-testid="request-body">
                <ApiReferenceSchema doc={doc} schema={body} idPrefix={`${anchor}-body`} />
              </div>
            </ApiReferenceToggle>
          </>
        )}

        <h4 className="h6 mt-3">{L.responses}</h4>
        <ul className="list-unstyled mb-0">
          {Object.entries(op.responses ?? {}).map(([status, raw]) => {
            const res = deref(doc, raw);
            const schema = res.content?.['application/json']?.schema;
            const success = status.startsWith('2');
            return (
              <li key={status} className="py-2 border-top" data-testid="response" data-status={status}>
                <div className="d-flex flex-wrap align-items-baseline gap-2">
                  <Badge bg={success ? 'success' : 'secondary'} className="font-monospace">
                    {status}
                  </Badge>
                  <span className="small">{res.description && <ApiReferenceText text={res.description} />}</span>
                </div>
                {res.headers && (
                  <ul className="small mb-0 mt-1">
                    {Object.entries(res.headers).map(([name, h]) => (
                      <li key={name}>
                        <code>{name}</code>
                        {h.description && (
                          <>
                            {': '}
                            <ApiReferenceText text={h.description} />
                          </>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
                {schema && success && (
                  <div className="mt-2">
                    <ApiReferenceToggle show={L.responseBody} hide={L.hideResponseBody}>
                      <ApiReferenceSchema doc={doc} schema={schema} idPrefix={`${anchor}-${status}`} />
                    </ApiReferenceToggle>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      </Card.Body>
    </Card>
  );
}
