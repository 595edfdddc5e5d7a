/**
 * The parts of the screen design that draw a moment after the page: the logo upload and the
 * lock-screen preview, in one chunk of their own (LOGO_FIELD and SCREEN_PREVIEW in dialogChunks.ts).
 */
export { LockScreenPreview } from './LockScreenPreview';
export { LogoField } from './LogoField';
