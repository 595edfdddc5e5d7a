import express from 'express';
import request from 'supertest';
import { MESSAGES } from '../shared/messages';
import { AppError, errorHandler } from './errors';

function appThrowing(err: unknown) {
  const app = express();
  app.get('/x', () => {
    throw err;
  });
  app.use(errorHandler);
  return app;
}

describe('errorHandler and the database being unreachable', () => {
  test.each([
    ['connection refused', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['connection terminated', new Error('Connection terminated unexpectedly')],
    ['SQLSTATE 57P01', Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })],
    ['SQLSTATE 08006', Object.assign(new Error('connection failure'), { code: '08006' })],
  ])('%s → 503 with Retry-After and the Spanish message', async (_name, err) => {
    const res = await request(appThrowing(err)).get('/x');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toEqual({ message: MESSAGES.api.serviceUnavailable, code: 'SERVICE_UNAVAILABLE' });
  });

  test('other errors keep their answers: a constraint violation is still a 500, an AppError its own status', async () => {
    const unique = Object.assign(new Error('duplicate key value'), { code: '23505' });
    expect((await request(appThrowing(unique)).get('/x')).status).toBe(500);
    const res = await request(appThrowing(new AppError(409, 'X', 'Conflicto'))).get('/x');
    expect(res.status).toBe(409);
    expect(res.headers['retry-after']).toBeUndefined();
  });
});
