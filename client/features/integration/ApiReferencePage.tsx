import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { API_REFERENCE_LABELS as L, API_REFERENCE_NOTES, OPENAPI_DOCUMENT_PATH } from '../../../shared/constants/apiReferenceLabels';
import type { PageProps } from '../../app/lazyPage';
import { LoadError } from '../../components/LoadError';
import { PageSpinner } from '../../components/PageSpinner';
import { baseUrlOf, operationsOf, useGetOpenApiDocumentQuery, type OpenApiDocument } from './apiReferenceApi';
import { ApiReferenceMethod, ApiReferenceOperation, ApiReferenceParameters } from './ApiReferenceOperation';
import { ApiReferenceText } from './ApiReferenceSchema';
import { ApiReferenceWebhook } from './ApiReferenceWebhook';

/** The list of sections and operations: in-page links (a plain list, keyboard reachable). */
function Contents({ doc }: { doc: OpenApiDocument }) {
  const operations = operationsOf(doc.paths, 'op');
  const webhooks = operationsOf(doc.webhooks, 'webhook');
  return (
    <nav aria-label={L.contents} className="small card card-body">
      <h2 className="h6">{L.contents}</h2>
      <p className="mb-1 fw-semibold">{L.general}</p>
      <ul className="list-unstyled ms-2">
        {API_REFERENCE_NOTES.map((n) => (
          <li key={n.id}>
            <a href={`#nota-${n.id}`}>{n.title}</a>
          </li>
        ))}
      </ul>
      <p className="mb-1 fw-semibold">{L.operations}</p>
      <ul className="list-unstyled ms-2">
        {operations.map((o) => (
          <li key={o.anchor} className="mb-1">
            <a href={`#${o.anchor}`} className="d-inline-flex flex-wrap align-items-baseline gap-1">
              <ApiReferenceMethod method={o.method} />
              <span className="text-break">{o.operation.summary ?? o.path}</span>
            </a>
          </li>
        ))}
      </ul>
      {webhooks.length > 0 && (
        <>
          <p className="mb-1 fw-semibold">
            <a href="#webhooks">{L.webhooks}</a>
          </p>
          <ul className="list-unstyled ms-2">
            {webhooks.map((w) => (
              <li key={w.anchor}>
                <a href={`#${w.anchor}`}>
                  <code>{w.path}</code>
                </a>
              </li>
            ))}
          </ul>
        </>
      )}
    </nav>
  );
}

/** The reference itself, once the document is loaded. */
function Reference({ doc }: { doc: OpenApiDocument }) {
  const baseUrl = baseUrlOf(doc, typeof window === 'undefined' ? '' : window.location.origin);
  const operations = operationsOf(doc.paths, 'op');
  const webhooks = operationsOf(doc.webhooks, 'webhook');
  const webhookHeaders = webhooks[0]?.operation.parameters ?? [];
  return (
    <Row className="g-3">
      <Col lg={3} as="aside">
        <div className="sticky-lg-top pt-lg-2">
          <Contents doc={doc} />
        </div>
      </Col>
      <Col lg={9}>
        <Card className="mb-4">
          <Card.Body>
            <p>{L.intro}</p>
            <dl className="row mb-0">
              <dt className="col-sm-3">{L.baseUrl}</dt>
              <dd className="col-sm-9">
                <code className="text-break" data-testid="api-base-url">
                  {baseUrl}
                </code>
              </dd>
              <dt className="col-sm-3">{L.version}</dt>
              <dd className="col-sm-9">{doc.info.version}</dd>
            </dl>
          </Card.Body>
        </Card>

        <section aria-labelledby="api-general" className="mb-4">
          <h2 className="h4" id="api-general">
            {L.general}
          </h2>
          <Card>
            <Card.Body>
              {API_REFERENCE_NOTES.map((note) => (
                <section key={note.id} id={`nota-${note.id}`} aria-labelledby={`nota-${note.id}-title`} className="mb-3">
                  <h3 className="h5" id={`nota-${note.id}-title`} tabIndex={-1}>
                    {note.title}
                  </h3>
                  {note.paragraphs.map((p, i) => (
                    <p key={i} className="mb-2">
                      <ApiReferenceText text={p} />
                    </p>
                  ))}
                </section>
              ))}
            </Card.Body>
          </Card>
        </section>

        <section aria-labelledby="api-operations" className="mb-4">
          <h2 className="h4" id="api-operations">
            {L.operations}
          </h2>
          {operations.map((entry) => (
            <ApiReferenceOperation key={entry.anchor} doc={doc} entry={entry} />
          ))}
        </section>

        {webhooks.length > 0 && (
          <section aria-labelledby="webhooks" className="mb-4">
            <h2 className="h4" id="webhooks" tabIndex={-1}>
              {L.webhooks}
            </h2>
            {webhookHeaders.length > 0 && (
              <Card className="mb-3">
                <Card.Body>
                  <h3 className="h5">{L.headers}</h3>
                  <ApiReferenceParameters doc={doc} parameters={webhookHeaders} />
                  <h3 className="h5 mt-3">{L.verifyTitle}</h3>
                  <p className="small">{L.verifyIntro}</p>
                  <pre
                    className="bg-body-tertiary border rounded p-2 small mb-0"
                    data-testid="verify-snippet"
                    style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
                  >
                    <code>{L.verifySnippet}</code>
                  </pre>
                </Card.Body>
              </Card>
            )}
            {webhooks.map((entry) => (
              <ApiReferenceWebhook key={entry.anchor} doc={doc} entry={entry} />
            ))}
          </section>
        )}
      </Col>
    </Row>
  );
}

/**
 * The integration API's reference, from its OpenAPI document: base URL, the general notes
 * (authentication, idempotency, rate limit, errors, webhooks), every operation with its
 * parameters, request body and responses, and the webhook events with their payloads. Rendered
 * with the portal's own components (no OpenAPI renderer: those inject styles the CSP refuses).
 */
export default function ApiReferencePage({ title }: PageProps) {
  const query = useGetOpenApiDocumentQuery();
  let content;
  if (query.data) content = <Reference doc={query.data} />;
  else if (query.isError) content = <LoadError message={L.loadError} onRetry={() => void query.refetch()} />;
  else content = <PageSpinner />;
  return (
    <section>
      <div className="d-flex flex-wrap align-items-center justify-content-between gap-2 mb-3">
        <h1 className="h3 mb-0">{title}</h1>
        <a className="btn btn-primary" href={OPENAPI_DOCUMENT_PATH} download="openapi.json">
          <i className="bi bi-download me-2" aria-hidden="true" />
          {L.download}
        </a>
      </div>
      {content}
    </section>
  );
}
