/**
 * The signing certificate: a self-signed one generated for the company on first use (so that signing works
 * out of the box), or the company's own from a PKCS#12 file. Keys are generated and used with node:crypto
 * (fast, native); node-forge builds the X.509 certificate and reads PKCS#12, which node:crypto cannot.
 */
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, X509Certificate } from 'node:crypto';
import type forge from 'node-forge';
import type { CertificateInfo } from '../../../shared/contract/settings';
import { AppError } from '../../../shared/errors';
import { nodeForge } from './forge';
import { largestIterationCount, MAX_PKCS12_ITERATIONS } from './pkcs12-cost';

export interface SigningMaterial {
  certPem: string;
  keyPem: string;
  fingerprint: string;
}

/** `AB:CD:…`, as browsers and `openssl x509 -fingerprint -sha256` show it. */
export function fingerprintOf(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256;
}

/** A self-signed certificate for document signing, valid ten years, named after the company. */
export function generateSelfSigned(companyName: string, now = new Date()): SigningMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const { pki, asn1, md } = nodeForge();
  const cert = pki.createCertificate();
  cert.publicKey = pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial of 16 random bytes (the top bit cleared), as RFC 5280 asks.
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString('hex');
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime());
  cert.validity.notAfter.setFullYear(now.getFullYear() + 10);
  // UTF8String values (forge encodes them): with its default string type a company name in Chinese is cut
  // to its low bytes and makes an unreadable certificate. X.520 bounds both at 64 characters.
  // (@types/node-forge types the field as an ASN.1 class; forge reads it as the value's type tag.)
  const utf8 = (v: string) => ({ value: [...v].slice(0, 64).join(''), valueTagClass: asn1.Type.UTF8 as unknown as forge.asn1.Class });
  const attrs = [
    { name: 'commonName', ...utf8(`${companyName} (document signing)`) },
    { name: 'organizationName', ...utf8(companyName) },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(pki.privateKeyFromPem(keyPem), md.sha256.create());
  const certPem = pki.certificateToPem(cert);
  return { certPem, keyPem, fingerprint: fingerprintOf(certPem) };
}

function badCertificate(key = 'settings.certificateUnreadable'): AppError {
  return new AppError('invalid-argument', key, { fields: [{ field: 'file', key }] });
}

/** RSA keys shorter than this are refused: NIST SP 800-131A has disallowed them for signatures since 2013. */
export const MIN_RSA_BITS = 2048;

/**
 * The certificate and key of a PKCS#12 file. Refused (400, naming the field): not PKCS#12, one asking for
 * more key-derivation rounds than MAX_PKCS12_ITERATIONS (checked before any is run), a wrong password, no
 * key, a key without its certificate, an expired certificate, an RSA key under MIN_RSA_BITS.
 */
export function readPkcs12(bytes: Buffer, password: string, now = new Date()): SigningMaterial {
  let iterations: number;
  try {
    iterations = largestIterationCount(bytes);
  } catch {
    throw badCertificate();
  }
  if (iterations > MAX_PKCS12_ITERATIONS) {
    throw new AppError('invalid-argument', 'limits.pkcs12Iterations', {
      params: { max: MAX_PKCS12_ITERATIONS },
      fields: [{ field: 'file', key: 'limits.pkcs12Iterations', params: { max: MAX_PKCS12_ITERATIONS } }],
    });
  }
  const { pki, asn1, util, pkcs12 } = nodeForge();
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    const asn = asn1.fromDer(util.createBuffer(bytes.toString('binary')));
    p12 = pkcs12.pkcs12FromAsn1(asn, false, password);
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    if (/password|MAC|decrypt/i.test(message)) {
      throw new AppError('invalid-argument', 'settings.certificatePassword', {
        fields: [{ field: 'password', key: 'settings.certificatePassword' }],
      });
    }
    throw badCertificate();
  }
  const oids = pki.oids as Record<string, string>;
  const bags = (type: string): forge.pkcs12.Bag[] => p12.getBags({ bagType: oids[type]! })[oids[type]!] ?? [];
  const keyBag = [...bags('pkcs8ShroudedKeyBag'), ...bags('keyBag')].find((b) => b.key);
  if (!keyBag?.key) throw badCertificate('settings.certificateNoKey');
  const key = keyBag.key as forge.pki.rsa.PrivateKey;
  const certs = bags('certBag').flatMap((b) => (b.cert ? [b.cert] : []));
  const cert = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(key.n) === 0 && pub.e?.compareTo(key.e) === 0;
  });
  if (!cert) throw badCertificate('settings.certificateNoKey');
  if (cert.validity.notAfter < now) throw badCertificate('settings.certificateExpired');
  const privateKey = createPrivateKey(pki.privateKeyToPem(key));
  const bits = privateKey.asymmetricKeyDetails?.modulusLength ?? 0;
  if (privateKey.asymmetricKeyType === 'rsa' && bits < MIN_RSA_BITS) {
    throw new AppError('invalid-argument', 'limits.rsaKeyTooShort', {
      params: { bits, min: MIN_RSA_BITS },
      fields: [{ field: 'file', key: 'limits.rsaKeyTooShort', params: { bits, min: MIN_RSA_BITS } }],
    });
  }
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const certPem = pki.certificateToPem(cert);
  return { certPem, keyPem, fingerprint: fingerprintOf(certPem) };
}

function unescapeDn(s: string): string {
  return s.replace(/\\(.)/g, '$1');
}

/**
 * What is read of a certificate, kept for the last one read: the certificate in force is read for every
 * report issued (its name for the signature, its details with the settings), and parsing and verifying it
 * each time cost the app's thread 1–2 ms a report (docs/decisions/0020). A pure function of the PEM.
 */
let lastRead: { certPem: string; info: Omit<CertificateInfo, 'source'>; name: string } | undefined;

function readCertificate(certPem: string): { info: Omit<CertificateInfo, 'source'>; name: string } {
  if (lastRead?.certPem === certPem) return lastRead;
  const x = new X509Certificate(certPem);
  // node prints one attribute a line with RFC 4514 escapes (`Co.\, Ltd.`); people read it unescaped.
  const oneLine = (dn: string) => dn.split('\n').filter(Boolean).map(unescapeDn).join(', ');
  const parts = Object.fromEntries(x.subject.split('\n').map((l) => [l.split('=')[0], unescapeDn(l.slice(l.indexOf('=') + 1))]));
  lastRead = {
    certPem,
    info: {
      subject: oneLine(x.subject),
      issuer: oneLine(x.issuer),
      notBefore: new Date(x.validFrom).toISOString(),
      notAfter: new Date(x.validTo).toISOString(),
      fingerprintSha256: x.fingerprint256,
      selfSigned: x.subject === x.issuer && x.verify(x.publicKey),
    },
    name: parts.CN ?? parts.O ?? '',
  };
  return lastRead;
}

/** What staff see of a certificate: never the key. */
export function certificateInfo(certPem: string, source: 'generated' | 'uploaded'): CertificateInfo {
  return { source, ...readCertificate(certPem).info };
}

/** The certificate's common name (or organisation), for the signature's Name entry. */
export function certificateName(certPem: string): string {
  return readCertificate(certPem).name;
}

export function sha256Hex(b: Buffer | string): string {
  return createHash('sha256').update(b).digest('hex');
}
