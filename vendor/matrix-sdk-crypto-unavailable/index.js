'use strict';
// matrix-bot-sdk requires @matrix-org/matrix-sdk-crypto-nodejs when it loads, but uses it only for
// end-to-end encryption (a MatrixClient given a crypto store). The real package fetches its native
// library from GitHub after install, which an npm-only install cannot do, and then cannot load at
// all. package.json's `overrides` put this module in its place: matrix-bot-sdk loads, and every
// use of the crypto API (a call, `new`, a static method) throws E2EE_UNAVAILABLE's message.

const MESSAGE =
  'end-to-end encryption is not available: @matrix-org/matrix-sdk-crypto-nodejs is replaced by ' +
  'matrix-sdk-crypto-unavailable (its native library is not on npm)';

/** A stand-in for one export (`OlmMachine`, `UserId`, …) that throws on any use. */
function unavailable(name) {
  const fail = () => {
    const err = new Error(`${MESSAGE}; used: ${name}`);
    err.code = 'E2EE_UNAVAILABLE';
    throw err;
  };
  return new Proxy(function () {}, {
    apply: fail,
    construct: fail,
    get: (_target, key) => (typeof key === 'symbol' || key === 'prototype' ? undefined : unavailable(`${name}.${String(key)}`)),
  });
}

module.exports = new Proxy(
  { E2EE_UNAVAILABLE: MESSAGE },
  {
    get(target, key) {
      if (typeof key === 'symbol' || key in target) return target[key];
      // module interop and promise probes read these; they must not look like exports
      if (key === '__esModule' || key === 'default' || key === 'then') return undefined;
      return unavailable(String(key));
    },
  },
);
