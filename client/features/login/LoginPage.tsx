import { Button, Card, Form } from 'react-bootstrap';
import { MESSAGES, PRODUCT_NAME } from '../../../shared/messages';
import type { PageProps } from '../../app/lazyPage';

/** The sign-in page. Server-rendered, so the form is there before the scripts run. */
export default function LoginPage(_props: PageProps) {
  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center bg-body-tertiary p-3">
      <Card className="shadow-sm" style={{ maxWidth: 420, width: '100%' }}>
        <Card.Body className="p-4">
          <h1 className="h4 mb-1 text-center">{PRODUCT_NAME}</h1>
          <h2 className="h6 mb-4 text-center text-secondary">{MESSAGES.loginTitle}</h2>
          <Form method="post" noValidate>
            <Form.Group className="mb-3" controlId="login-email">
              <Form.Label>{MESSAGES.loginEmail}</Form.Label>
              <Form.Control type="email" name="email" autoComplete="username" required />
            </Form.Group>
            <Form.Group className="mb-4" controlId="login-password">
              <Form.Label>{MESSAGES.loginPassword}</Form.Label>
              <Form.Control type="password" name="password" autoComplete="current-password" required />
            </Form.Group>
            <Button type="submit" variant="primary" className="w-100">
              {MESSAGES.loginSubmit}
            </Button>
          </Form>
        </Card.Body>
      </Card>
    </main>
  );
}
