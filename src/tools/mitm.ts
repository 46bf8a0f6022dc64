/**
 * The broker's certificate authority for https to allowed hosts: made once per process (never
 * written anywhere but the tools folder of an execution, as `ca.pem`, its certificate only), it
 * signs a certificate per host the program reaches, so the host side sees the requests and adds
 * the host's headers. The private keys never leave this process.
 */
import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import forge from 'node-forge';

/** How long the CA and host certificates are valid, in days (the CA lives as long as the process). */
const VALID_DAYS = 30;

interface Authority {
  certPem: string;
  cert: forge.pki.Certificate;
  key: forge.pki.rsa.PrivateKey;
  /** One key for every host certificate (made once: RSA key generation costs ~50 ms). */
  hostKeyPem: string;
  hostKey: forge.pki.rsa.PublicKey;
  contexts: Map<string, SecureContext>;
}

let authority: Authority | undefined;
let making: Promise<Authority> | undefined;

/** An RSA key made off the event loop (a 2048-bit key takes ~50-200 ms). */
async function rsaKey(): Promise<{ pem: string; key: forge.pki.rsa.PrivateKey }> {
  const { privateKey } = await promisify(generateKeyPair)('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  return { pem: privateKey, key: forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey };
}

function newCert(publicKey: forge.pki.PublicKey): forge.pki.Certificate {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`; // positive, 16 bytes
  cert.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  cert.validity.notAfter = new Date(Date.now() + VALID_DAYS * 24 * 3600_000);
  return cert;
}

async function makeAuthority(): Promise<Authority> {
  const [ca, host] = await Promise.all([rsaKey(), rsaKey()]);
  const caPublic = forge.pki.setRsaPublicKey(ca.key.n, ca.key.e);
  const cert = newCert(caPublic);
  const name = [{ name: 'commonName', value: `code-agent tools broker ${process.pid}` }, { name: 'organizationName', value: 'code-agent' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  return {
    certPem: forge.pki.certificateToPem(cert),
    cert,
    key: ca.key,
    hostKeyPem: host.pem,
    hostKey: forge.pki.setRsaPublicKey(host.key.n, host.key.e),
    contexts: new Map(),
  };
}

/** The CA certificate (PEM) programs trust (`SSL_CERT_FILE`, `REQUESTS_CA_BUNDLE`); makes the CA on first use. */
export async function caCertificatePem(): Promise<string> {
  making ??= makeAuthority().then(
    (a) => (authority = a),
    (err: unknown) => {
      making = undefined; // tried again by the next broker
      throw err;
    },
  );
  return (await making).certPem;
}

/**
 * A TLS server context presenting a certificate for `host` (a name or an address), signed by the CA. Cached per host.
 * @throws {Error} before {@link caCertificatePem} made the CA (a broker always awaits it when it starts)
 */
export function hostContext(host: string): SecureContext {
  const ca = authority;
  if (!ca) throw new Error('the tools CA is not made yet');
  const cached = ca.contexts.get(host);
  if (cached) return cached;
  const cert = newCert(ca.hostKey);
  cert.setSubject([{ name: 'commonName', value: host.slice(0, 64) }]);
  cert.setIssuer(ca.cert.subject.attributes);
  const altName = isIP(host) !== 0 ? { type: 7, ip: host } : { type: 2, value: host };
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [altName] },
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: ca.cert.generateSubjectKeyIdentifier().getBytes() },
  ]);
  cert.sign(ca.key, forge.md.sha256.create());
  const context = createSecureContext({ key: ca.hostKeyPem, cert: forge.pki.certificateToPem(cert) });
  ca.contexts.set(host, context);
  return context;
}
