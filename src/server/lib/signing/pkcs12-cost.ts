/**
 * What a PKCS#12 file will cost to open, read from its ASN.1 before any key is derived: each of its
 * password-based steps (the MAC, the encryption of its bags) runs as many hash rounds as the file itself
 * asks, and node-forge runs them in JavaScript on the event loop: a file asking for 10 million rounds held
 * the server for a minute (docs/decisions/0020).
 *
 * The counts sit in three shapes, all `SEQUENCE { OCTET STRING salt, INTEGER iterations, … }` or, for the
 * MAC, `SEQUENCE { DigestInfo, OCTET STRING salt, INTEGER iterations }`: an INTEGER right after an OCTET
 * STRING in a SEQUENCE. Contents carried as DER inside OCTET STRINGs (the authenticated safe, plain safe
 * contents) are read too; encrypted contents cannot be, but their own encryption's count is outside them.
 */
import type forge from 'node-forge';
import { nodeForge } from './forge';

// node-forge takes an options object here; its type declarations know only the older boolean.
type FromDer = (
  bytes: forge.util.ByteStringBuffer,
  options: { strict: boolean; parseAllBytes?: boolean; decodeBitStrings: boolean },
) => forge.asn1.Asn1;

/**
 * Far above what tools write (OpenSSL, Windows and macOS: about 2,000), and at most a second or so of
 * hashing for each of a file's steps.
 */
export const MAX_PKCS12_ITERATIONS = 200_000;
const MAX_NESTING = 12;

function integerValue(node: forge.asn1.Asn1): number {
  const bytes = node.value as string;
  // More than six bytes is beyond any real count (and beyond exact doubles): treat it as endless.
  if (bytes.length > 6) return Number.POSITIVE_INFINITY;
  let n = 0;
  for (let i = 0; i < bytes.length; i++) n = n * 256 + bytes.charCodeAt(i);
  return n;
}

function nestedDer(fromDer: FromDer, util: typeof forge.util, node: forge.asn1.Asn1): forge.asn1.Asn1 | null {
  const bytes = node.value;
  if (typeof bytes !== 'string' || bytes.length < 2 || bytes.charCodeAt(0) !== 0x30) return null;
  try {
    return fromDer(util.createBuffer(bytes), { strict: true, parseAllBytes: true, decodeBitStrings: false });
  } catch {
    return null;
  }
}

/** The largest iteration count the file asks for (0 when it names none); throws when it is not DER. */
export function largestIterationCount(der: Buffer): number {
  const { asn1, util } = nodeForge();
  const fromDer = asn1.fromDer as unknown as FromDer;
  const root = fromDer(util.createBuffer(der.toString('binary')), { strict: true, decodeBitStrings: false });
  let largest = 0;
  const visit = (node: forge.asn1.Asn1, depth: number): void => {
    if (depth > MAX_NESTING) return;
    if (node.tagClass === asn1.Class.UNIVERSAL && node.type === asn1.Type.OCTETSTRING && !node.constructed) {
      const inner = nestedDer(fromDer, util, node);
      if (inner) visit(inner, depth + 1);
      return;
    }
    if (!Array.isArray(node.value)) return;
    const children = node.value;
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      const previous = children[i - 1];
      if (
        node.type === asn1.Type.SEQUENCE &&
        previous?.tagClass === asn1.Class.UNIVERSAL &&
        previous.type === asn1.Type.OCTETSTRING &&
        child.tagClass === asn1.Class.UNIVERSAL &&
        child.type === asn1.Type.INTEGER
      ) {
        largest = Math.max(largest, integerValue(child));
      }
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return largest;
}
