/**
 * PAdES signing of a finished report: @signpdf/signpdf fills the placeholder's byte range, and the CMS
 * signature (CAdES-BES: content type, message digest and signing-certificate-v2 signed attributes) is
 * built here with node-forge's ASN.1 writer and signed by node:crypto. node-forge's own PKCS#7 signer
 * cannot add signing-certificate-v2 (PAdES requires it) and signs in JavaScript, tens of times slower.
 */
import { createHash, createPrivateKey, sign as cryptoSign, type KeyObject } from 'node:crypto';
import type { SignPdf as SignPdfClass } from '@signpdf/signpdf';
import type { Signer as SignerClass } from '@signpdf/utils';
import type forge from 'node-forge';
import { onFirstUse, packageOnFirstUse } from '../first-use';
import type { SigningMaterial } from './certificate';
import { nodeForge } from './forge';

const signpdf = packageOnFirstUse<{ SignPdf: typeof SignPdfClass }>('@signpdf/signpdf');
const signpdfUtils = packageOnFirstUse<{ Signer: typeof SignerClass }>('@signpdf/utils');

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  sha256: '2.16.840.1.101.3.4.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
};

/** The DER writers the signature is built with, over node-forge's ASN.1 (made on the first signature). */
const derWriters = onFirstUse(() => {
  const { asn1 } = nodeForge();
  const U = asn1.Class.UNIVERSAL;
  const C = asn1.Class.CONTEXT_SPECIFIC;
  const T = asn1.Type;
  const oid = (o: string) => asn1.create(U, T.OID, false, asn1.oidToDer(o).getBytes());
  const seq = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SEQUENCE, true, items);
  const set = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SET, true, items);
  return {
    asn1,
    C,
    oid,
    seq,
    set,
    octets: (b: Buffer) => asn1.create(U, T.OCTETSTRING, false, b.toString('binary')),
    int: (n: number) => asn1.create(U, T.INTEGER, false, asn1.integerToDer(n).getBytes()),
    algorithm: (o: string, nullParams: boolean) => seq(nullParams ? [oid(o), asn1.create(U, T.NULL, false, '')] : [oid(o)]),
    attribute: (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]),
  };
});

interface PreparedSigner {
  certDer: Buffer;
  certAsn: forge.asn1.Asn1;
  issuer: forge.asn1.Asn1;
  serial: forge.asn1.Asn1;
  key: KeyObject;
  ec: boolean;
}

// The parsed certificate and key per certificate fingerprint: parsing PEM and ASN.1 for every report would
// cost more than the signature itself.
const prepared = new Map<string, PreparedSigner>();

function prepare(m: SigningMaterial): PreparedSigner {
  const hit = prepared.get(m.fingerprint);
  if (hit) return hit;
  const { pem, asn1 } = nodeForge();
  const certDer = Buffer.from(pem.decode(m.certPem)[0]!.body, 'binary');
  const certAsn = asn1.fromDer(certDer.toString('binary'));
  const tbs = (certAsn.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  // tbsCertificate: [0] version (explicit, optional), serialNumber, signature, issuer, …
  const i = tbs[0]!.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 1 : 0;
  const key = createPrivateKey(m.keyPem);
  const p: PreparedSigner = { certDer, certAsn, issuer: tbs[i + 2]!, serial: tbs[i]!, key, ec: key.asymmetricKeyType === 'ec' };
  if (prepared.size > 8) prepared.clear();
  prepared.set(m.fingerprint, p);
  return p;
}

/** The CMS SignedData (detached) over `content`, DER. */
export function cmsSign(content: Buffer, m: SigningMaterial): Buffer {
  const p = prepare(m);
  const { asn1, C, oid, seq, set, octets, int, algorithm, attribute } = derWriters();
  const digest = createHash('sha256').update(content).digest();
  const certHash = createHash('sha256').update(p.certDer).digest();
  const attrs = [
    attribute(OID.contentType, oid(OID.data)),
    attribute(OID.messageDigest, octets(digest)),
    // ESSCertIDv2 with the default hash (SHA-256) left out, as DER requires for defaults.
    attribute(OID.signingCertificateV2, seq([seq([seq([octets(certHash)])])])),
  ];
  // The signature covers the attributes DER-encoded as a SET (RFC 5652 §5.4), stored as [0] IMPLICIT.
  const signedBytes = Buffer.from(asn1.toDer(set(attrs)).getBytes(), 'binary');
  const signature = cryptoSign('sha256', signedBytes, p.key);
  const signerInfo = seq([
    int(1),
    seq([p.issuer, p.serial]),
    algorithm(OID.sha256, false),
    asn1.create(C, 0, true, attrs),
    p.ec ? algorithm(OID.ecdsaSha256, false) : algorithm(OID.rsaEncryption, true),
    octets(signature),
  ]);
  const signedData = seq([
    int(1),
    set([algorithm(OID.sha256, false)]),
    seq([oid(OID.data)]),
    asn1.create(C, 0, true, [p.certAsn]),
    set([signerInfo]),
  ]);
  const contentInfo = seq([oid(OID.signedData), asn1.create(C, 0, true, [signedData])]);
  return Buffer.from(asn1.toDer(contentInfo).getBytes(), 'binary');
}

/**
 * @signpdf's Signer for this module's CMS signature: a subclass of its class (SignPdf checks for one), made on
 * first use since its base class is @signpdf's.
 */
const cadesSignerClass = onFirstUse(
  () =>
    class CadesSigner extends signpdfUtils().Signer {
      constructor(private readonly material: SigningMaterial) {
        super();
      }

      override async sign(pdfBuffer: Buffer): Promise<Buffer> {
        return cmsSign(pdfBuffer, this.material);
      }
    },
);

/** Bytes to reserve for the signature of this certificate: the certificate, the signature and the attributes. */
export function signatureLength(m: SigningMaterial): number {
  return prepare(m).certDer.length + 1536;
}

/** Signs a PDF rendered with a signature placeholder. */
export async function signPdf(pdf: Buffer, m: SigningMaterial): Promise<Buffer> {
  return new (signpdf().SignPdf)().sign(pdf, new (cadesSignerClass())(m));
}
