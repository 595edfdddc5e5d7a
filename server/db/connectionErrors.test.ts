import { isConnectionError } from './connectionErrors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  test.each([
    ['refused', withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['reset', withCode('ECONNRESET')],
    ['timed out', withCode('ETIMEDOUT')],
    ['host not found', withCode('ENOTFOUND')],
    ['SQLSTATE 08006 connection failure', withCode('08006')],
    ['SQLSTATE 08001 cannot connect', withCode('08001')],
    ['SQLSTATE 57P01 admin shutdown (backend terminated)', withCode('57P01', 'terminating connection due to administrator command')],
    ['SQLSTATE 57P03 cannot connect now (starting up)', withCode('57P03', 'the database system is starting up')],
    ['connection terminated unexpectedly', new Error('Connection terminated unexpectedly')],
    ['client not queryable', new Error('Client has encountered a connection error and is not queryable')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['both addresses refused (AggregateError)', new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], '')],
    ['wrapped in a cause', new Error('outer', { cause: withCode('57P02') })],
  ])('%s → true', (_name, err) => {
    expect(isConnectionError(err)).toBe(true);
  });

  test.each([
    ['unique violation 23505', withCode('23505')],
    ['wrong password 28P01', withCode('28P01')],
    ['missing database 3D000', withCode('3D000')],
    ['statement timeout 57014 (class 57, not 57P)', withCode('57014')],
    ['syntax error 42601', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
    ['null', null],
  ])('%s → false', (_name, err) => {
    expect(isConnectionError(err)).toBe(false);
  });
});
