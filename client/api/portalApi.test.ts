import '../testing/textEncoderPolyfill';
import { USER_DATA_EXTRA_RETRIES } from '../../shared/constants/business';
import { SPEC_TEXT } from '../../shared/messages';
import { makeStore } from '../app/makeStore';
import { API_BASE, apiError, portalUser, stubRoutes } from '../testing/renderPortal';
import { portalApi } from './portalApi';

jest.mock('../components/toast', () => ({ toastError: jest.fn(), toastSuccess: jest.fn() }));
const { toastError } = jest.requireMock('../components/toast') as { toastError: jest.Mock };

const USER_URL = 'POST /v5/users/getUserByEmail';

function loadUser() {
  const onUnauthorized = jest.fn();
  const store = makeStore(undefined, { apiBase: API_BASE, getAuthHeaders: async () => ({}), onUnauthorized });
  return { result: store.dispatch(portalApi.endpoints.getUserByEmail.initiate('a@b.mx')), onUnauthorized };
}

describe('the signed-in user query (RTK Query retry)', () => {
  beforeEach(() => toastError.mockClear());
  afterEach(() => jest.restoreAllMocks());

  test(`a failing record is requested ${USER_DATA_EXTRA_RETRIES + 1} times, then one toast 'Error al cargar datos del Usuario'`, async () => {
    const calls = stubRoutes({
      [USER_URL]: () => {
        throw apiError(404, { message: 'Usuario no encontrado' });
      },
    });
    const { result } = loadUser();
    const answer = await result;
    expect(answer.isError).toBe(true);
    expect(calls).toHaveLength(USER_DATA_EXTRA_RETRIES + 1);
    expect(toastError).toHaveBeenCalledTimes(1);
    expect(toastError).toHaveBeenCalledWith(SPEC_TEXT.userLoadError);
  });

  test('a record without a profile counts as a failure and is retried', async () => {
    const calls = stubRoutes({ [USER_URL]: () => portalUser() });
    const answer = await loadUser().result;
    expect(answer.isError).toBe(true);
    expect(calls).toHaveLength(USER_DATA_EXTRA_RETRIES + 1);
    expect(toastError).toHaveBeenCalledWith(SPEC_TEXT.userLoadError);
  });

  test('the record answered at the third attempt: data, no toast', async () => {
    let n = 0;
    const calls = stubRoutes({
      [USER_URL]: () => {
        n += 1;
        if (n < 3) throw apiError(404, { message: 'Usuario no encontrado' });
        return portalUser([1]);
      },
    });
    const answer = await loadUser().result;
    expect(answer.data?.profile?.actions).toEqual([1]);
    expect(calls).toHaveLength(3);
    expect(toastError).not.toHaveBeenCalled();
  });

  test('a 401 is not retried: the session ends, no toast', async () => {
    const calls = stubRoutes({
      [USER_URL]: () => {
        throw apiError(401, { message: 'Unauthorized' });
      },
    });
    const { result, onUnauthorized } = loadUser();
    await result;
    expect(calls).toHaveLength(1);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(toastError).not.toHaveBeenCalled();
  });
});
