/**
 * Import first in a jsdom test that loads react-router: it needs TextEncoder/TextDecoder,
 * which jest's jsdom environment lacks (imports run in order, so this runs before it).
 * `./renderPortal` imports it first too.
 */
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });
