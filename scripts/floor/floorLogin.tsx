/**
 * The floor of P3 (docs/benchmarks.md): a bare React 19 page hydrating the same sign-in form as
 * /login (an email, a password and a button in a card, Bootstrap's CSS), with no router, store or
 * library beyond react and react-dom. `npm run bench` builds it with the portal's esbuild options,
 * serves it with the response headers /login is served with (and without them), and measures it
 * beside /login in the same run.
 */
import { useLayoutEffect, useState, type FormEvent } from 'react';

export function FloorLogin() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useLayoutEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    performance.mark('portal:hydrated');
  }, []);
  const submit = (e: FormEvent) => e.preventDefault();
  return (
    <main className="min-vh-100 d-flex align-items-center justify-content-center bg-body-tertiary p-3">
      <div className="card shadow-sm portal-login-card">
        <div className="card-body p-4">
          <h1 className="h4 mb-4 text-center">Iniciar sesión</h1>
          <form method="post" noValidate onSubmit={submit}>
            <div className="mb-3">
              <label className="form-label" htmlFor="login-email">
                Correo electrónico
              </label>
              <input className="form-control" id="login-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="mb-3">
              <label className="form-label" htmlFor="login-password">
                Contraseña
              </label>
              <input className="form-control" id="login-password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </div>
            <button className="btn btn-primary w-100" type="submit">
              Entrar
            </button>
          </form>
        </div>
      </div>
    </main>
  );
}
