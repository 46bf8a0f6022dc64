/** A request that cannot be accepted (empty, too long…); nothing was run and nothing was stored. */
export class InputError extends Error {
  override name = 'InputError';
}
