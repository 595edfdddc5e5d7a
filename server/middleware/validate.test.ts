import fs from 'node:fs';
import path from 'node:path';
import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import * as z from 'zod';
import { idParams, intParam, textField, textParam } from '../../shared/contracts/fields';
import { AppError } from '../errors';
import * as validate from './validate';
import { route } from './validate';

/** A bare app with one typed route and an error handler that shows what was thrown. */
function appWith(mount: (app: express.Express) => void) {
  const app = express();
  app.use(express.json());
  mount(app);
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const e = err as AppError;
    res.status(e.status ?? 500).json({ code: e.code, message: e.message });
  };
  app.use(onError);
  return app;
}

describe('route(): validated input handed to the handler, typed', () => {
  test('the parsed params, query and body reach the handler (coerced and trimmed), not the raw strings', async () => {
    const seen: unknown[] = [];
    const app = appWith((a) =>
      a.post(
        '/things/:id',
        route(
          { params: idParams, query: z.object({ page: intParam('page', 1, 100) }), body: z.object({ name: textParam('name', 20) }) },
          ({ params, query, body }, _req, res) => {
            // The inferred types: a number id and page, a string name (a compile error otherwise).
            const n: number = params.id + query.page;
            const name: string | undefined = body.name;
            seen.push({ params, query, body });
            res.json({ n, name });
          },
        ),
      ),
    );
    const res = await request(app).post('/things/7?page=3').send({ name: '  Lima  ' }).expect(200);
    expect(res.body).toEqual({ n: 10, name: 'Lima' });
    expect(seen).toEqual([{ params: { id: 7 }, query: { page: 3 }, body: { name: 'Lima' } }]);
  });

  test('an input without a schema is undefined; a rejected handler reaches the error handler', async () => {
    const app = appWith((a) =>
      a.get(
        '/fails',
        route({}, async ({ params, query, body }) => {
          expect([params, query, body]).toEqual([undefined, undefined, undefined]);
          throw new AppError(409, 'CONFLICT', 'En conflicto');
        }),
      ),
    );
    const res = await request(app).get('/fails').expect(409);
    expect(res.body).toEqual({ code: 'CONFLICT', message: 'En conflicto' });
  });

  test('a bad parameter is a 400 naming it, checked before the body (the handler never runs)', async () => {
    let ran = false;
    const app = appWith((a) =>
      a.put(
        '/things/:id',
        route({ params: idParams, body: z.object({ name: z.string() }) }, (_input, _req, res) => {
          ran = true;
          res.end();
        }),
      ),
    );
    const bad = await request(app).put('/things/abc').send({}).expect(400);
    expect(bad.body.code).toBe('VALIDATION');
    expect(bad.body.message).toMatch(/^El parámetro Id /);
    const missing = await request(app).put('/things/1').send({}).expect(400);
    expect(missing.body.message).toBe('El campo name es obligatorio');
    const notObject = await request(app).put('/things/1').set('Content-Type', 'application/json').send('[1]').expect(400);
    expect(notObject.body.code).toBe('VALIDATION');
    expect(ran).toBe(false);
  });

  test('a field of the shared builders is named by its Spanish label, absent or wrong, the path staying in `field`', async () => {
    const app = express();
    app.use(express.json());
    app.post(
      '/named',
      route({ body: z.object({ name: textField('Nombre', { min: 1, max: 5 }) }) }, (_i, _req, res) => res.end()),
    );
    const onError: ErrorRequestHandler = (err, _req, res, _next) => {
      const e = err as AppError;
      res.status(e.status).json({ message: e.message, field: e.field });
    };
    app.use(onError);
    const missing = await request(app).post('/named').send({}).expect(400);
    expect(missing.body).toEqual({ message: 'El campo Nombre es obligatorio', field: 'name' });
    const long = await request(app).post('/named').send({ name: 'demasiado' }).expect(400);
    expect(long.body).toEqual({ message: 'El campo Nombre admite como máximo 5 caracteres', field: 'name' });
  });

  test('a missing query parameter is named as a parameter', async () => {
    const app = appWith((a) =>
      a.get(
        '/q',
        route({ query: z.object({ mode: z.string() }) }, (_i, _req, res) => res.end()),
      ),
    );
    const res = await request(app).get('/q').expect(400);
    expect(res.body.message).toBe('El parámetro mode es obligatorio');
  });
});

describe('API routers: one way to read validated input', () => {
  const apiDir = path.join(__dirname, '..', 'api');
  const routers = fs
    .readdirSync(apiDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('Router.ts'))
    .map((f) => ({ file: f, text: fs.readFileSync(path.join(apiDir, f), 'utf8') }));

  test('route() is the only validator the middleware offers (the middleware-chain validators are gone)', () => {
    expect(Object.keys(validate)).not.toEqual(expect.arrayContaining(['validateBody']));
    expect(Object.keys(validate).filter((name) => /^validate/.test(name))).toEqual([]);
    expect(typeof validate.route).toBe('function');
  });

  test('no double cast anywhere under server/api (sources and tests)', () => {
    const all = fs
      .readdirSync(apiDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => fs.readFileSync(path.join(apiDir, f), 'utf8').includes('as unknown as'));
    expect(all).toEqual([]);
  });

  test('the routers are found', () => {
    expect(routers.length).toBeGreaterThanOrEqual(8);
  });

  test('no router casts its input (`as unknown as`, `req.body as`, `req.params as`) or re-declares an id helper', () => {
    const offenders = routers.flatMap(({ file, text }) =>
      [/as unknown as/, /req\.(body|query|params) as\b/, /\(params as IdParams\)/, /validate(Body|Query|Params)\(/]
        .filter((re) => re.test(text))
        .map((re) => `${file}: ${re.source}`),
    );
    expect(offenders).toEqual([]);
  });
});
