import { configureStore, createSlice } from '@reduxjs/toolkit';
import { createApi, fakeBaseQuery } from '@reduxjs/toolkit/query';
import { apiErrorMiddleware, errorMessage } from './apiErrors';
import type { ApiError, ApiExtra } from './axiosBaseQuery';

jest.mock('../components/toast', () => ({ toastError: jest.fn(), toastSuccess: jest.fn() }));
const { toastError } = jest.requireMock('../components/toast') as { toastError: jest.Mock };

describe('errorMessage (reference §8)', () => {
  test.each<[ApiError, string]>([
    [{ status: 'NETWORK_ERROR', code: 'ERR_NETWORK', data: 'Network Error' }, 'Verifica tu conexión e intentalo de nuevo'],
    [{ status: 500, data: { message: 'Algo falló' } }, 'Algo falló'],
    [{ status: 403, data: { message: '' } }, 'No Autorizado'],
    [{ status: 500, data: null }, 'No Autorizado'],
    [{ status: 502, data: 'Bad gateway text' }, 'Bad gateway text'],
  ])('%j → %s', (error, text) => {
    expect(errorMessage(error)).toBe(text);
  });
});

describe('apiErrorMiddleware', () => {
  function setup(answer: ApiError) {
    const extra: ApiExtra = { apiBase: '/api', getAuthHeaders: async () => ({}), onUnauthorized: jest.fn() };
    const api = createApi({
      baseQuery: fakeBaseQuery<ApiError>(),
      endpoints: (b) => ({
        getVersion: b.query<unknown, void>({ queryFn: async () => ({ error: answer }) }),
        getUserByEmail: b.query<unknown, string>({ queryFn: async () => ({ error: answer }) }),
      }),
    });
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, x: createSlice({ name: 'x', initialState: 0, reducers: {} }).reducer },
      middleware: (g) => g().concat(api.middleware, apiErrorMiddleware(extra)),
    });
    return { api, store, extra };
  }

  beforeEach(() => toastError.mockClear());

  test('HTTP 401 ends the session and shows no toast', async () => {
    const { api, store, extra } = setup({ status: 401, data: { message: 'Unauthorized' } });
    await store.dispatch(api.endpoints.getVersion.initiate());
    expect(extra.onUnauthorized).toHaveBeenCalledTimes(1);
    expect(toastError).not.toHaveBeenCalled();
  });

  test('other failures are one error toast with the message', async () => {
    const { api, store, extra } = setup({ status: 500, data: { message: 'Algo falló' } });
    await store.dispatch(api.endpoints.getVersion.initiate());
    expect(toastError).toHaveBeenCalledWith('Algo falló');
    expect(extra.onUnauthorized).not.toHaveBeenCalled();
  });

  test('no endpoint is an exception: a failed user load is one toast too', async () => {
    const { api, store } = setup({ status: 404, data: { message: 'Error al cargar datos del Usuario' } });
    await store.dispatch(api.endpoints.getUserByEmail.initiate('a@b.c'));
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith('Error al cargar datos del Usuario');
  });
});
