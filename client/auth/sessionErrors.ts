/**
 * The stored session exists but cannot be read (corrupt storage). In a module of its own, which
 * imports nothing: the signed-in frame tells it apart without loading the identity library (a
 * chunk of its own), and the identity library shares no module with the sign-in page's entry.
 */
export class SessionUnreadableError extends Error {
  constructor(cause: unknown) {
    super(`stored session unreadable: ${String(cause)}`);
    this.name = 'SessionUnreadableError';
  }
}
