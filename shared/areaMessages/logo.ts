/**
 * Why a lock-screen logo is refused (the API's answers, and the screen design's upload before it
 * sends): AGENT_SETTINGS_MESSAGES carries them as `logo`; apart, so the upload loads only these.
 */
export const LOGO_MESSAGES = {
  empty: 'El archivo del logotipo está vacío',
  tooLarge: (kb: number) => `El logotipo no puede pesar más de ${kb} KB`,
  badType: 'El logotipo debe ser una imagen PNG o JPEG',
  svg: 'El logotipo debe ser una imagen PNG o JPEG: el SVG no se admite',
  notFound: 'El logotipo no existe: súbalo de nuevo',
} as const;
