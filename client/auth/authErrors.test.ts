import { authErrorMessage } from './authErrors';

const err = (code: string, message = '') => Object.assign(new Error(message), { code });

describe('authErrorMessage', () => {
  test.each([
    [err('NotAuthorizedException', 'Incorrect username or password.'), 'Correo o contraseña incorrectos'],
    [err('UserNotFoundException', 'User does not exist.'), 'Correo o contraseña incorrectos'],
    [err('NotAuthorizedException', 'User is disabled.'), 'Tu usuario está deshabilitado. Contacta a un administrador.'],
    [err('NotAuthorizedException', 'Password attempts exceeded'), 'Demasiados intentos fallidos. Espera unos minutos e inténtalo de nuevo.'],
    [err('NetworkError', 'Network error'), 'Verifica tu conexión e intentalo de nuevo'],
    [
      err('InvalidPasswordException', 'Password does not conform to policy'),
      'La contraseña no cumple la política: mínimo 8 caracteres, con mayúsculas, minúsculas, números y símbolos.',
    ],
    [new Error('boom'), 'No fue posible completar la operación. Inténtalo de nuevo.'],
  ])('%s → %s', (e, text) => {
    expect(authErrorMessage(e, 'signIn')).toBe(text);
  });

  test('a wrong current password when changing it says so', () => {
    expect(authErrorMessage(err('NotAuthorizedException', 'Incorrect username or password.'), 'changePassword')).toBe(
      'La contraseña actual no es correcta',
    );
  });
});
