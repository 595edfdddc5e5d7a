/** Every Spanish text of the portal lives here (specification texts copied exactly). */

/** The product name: the document title and the header brand (specification §1). */
export const PRODUCT_NAME = 'Macrolock';

export const MESSAGES = {
  notFoundTitle: 'Página no encontrada',
  notFoundText: 'La dirección que abriste no existe en el portal.',
  backHome: 'Ir al inicio',
  loading: 'Cargando...',
  emptyValue: '-',
  loginTitle: 'Iniciar sesión',
  loginEmail: 'Correo electrónico',
  loginPassword: 'Contraseña',
  loginSubmit: 'Iniciar sesión',
  googleTitle: 'Registro de Android Enterprise',
  googleReceived: 'Se recibió la respuesta de Google. Puedes cerrar esta ventana.',
  googleMissing: 'No se recibió ningún token de Google.',
  sectionPending: 'Esta sección aún no está disponible.',
  api: {
    notFound: 'Recurso no encontrado',
    badRequest: 'Solicitud inválida',
    unauthorized: 'Unauthorized',
    forbidden: 'No Autorizado',
    userNotFound: 'Usuario no encontrado',
    userDisabled: 'El usuario está deshabilitado',
    invalidJson: 'El cuerpo de la solicitud no es JSON válido',
    tooLarge: 'El cuerpo de la solicitud es demasiado grande',
    unsupportedType: 'Tipo de contenido no admitido',
    internal: 'Error interno del servidor',
  },
  health: {
    shuttingDown: 'El servidor se está deteniendo',
    dbUnavailable: 'La base de datos no responde',
    timeout: 'Tiempo de espera agotado',
    keysUnavailable: 'Las claves de identidad no están cargadas',
  },
} as const;
