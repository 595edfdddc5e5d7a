import Card from 'react-bootstrap/Card';
import { API_REFERENCE_LABELS as L } from '../../../shared/constants/apiReferenceLabels';
import type { ApiReferenceOperationEntry, OpenApiDocument } from './apiReferenceApi';
import { ApiReferenceParagraphs } from './ApiReferenceOperation';
import { ApiReferenceSchema } from './ApiReferenceSchema';

/** One webhook event: its type, name, description and the payload's fields. */
export function ApiReferenceWebhook({ doc, entry }: { doc: OpenApiDocument; entry: ApiReferenceOperationEntry }) {
  const { operation: op, path: type, anchor } = entry;
  const payload = op.requestBody?.content?.['application/json']?.schema;
  return (
    <Card as="article" className="mb-3" id={anchor} aria-labelledby={`${anchor}-title`} data-testid="api-webhook" data-event={type}>
      <Card.Header className="d-flex flex-wrap align-items-center gap-2">
        <code className="text-break fs-6 text-body">{type}</code>
      </Card.Header>
      <Card.Body>
        <h3 className="h5" id={`${anchor}-title`} tabIndex={-1}>
          {op.summary}
        </h3>
        <ApiReferenceParagraphs text={op.description} />
        {payload && (
          <>
            <h4 className="h6 mt-3">{L.payload}</h4>
            <ApiReferenceSchema doc={doc} schema={payload} idPrefix={`${anchor}-payload`} />
          </>
        )}
      </Card.Body>
    </Card>
  );
}
