/** A self-signed certificate for one address (PEM): a local https server for tests and benchmarks (also the CA to trust). */
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

/** @returns the key and the certificate (also the CA to trust) for `ip` */
export function selfSignedFor(ip: string): { key: string; cert: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const key = forge.pki.privateKeyFromPem(privateKey) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const name = [{ name: 'commonName', value: ip }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'subjectAltName', altNames: [{ type: 7, ip }] }]);
  cert.sign(key, forge.md.sha256.create());
  return { key: privateKey, cert: forge.pki.certificateToPem(cert) };
}
