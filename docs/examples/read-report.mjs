#!/usr/bin/env node
/**
 * Reads a Test Report Center report PDF as a customer's system would: extracts the embedded
 * test-report.json and checks the PDF's PAdES signature, with Node.js ≥ 20 alone (no packages).
 *
 *   node read-report.mjs report.pdf [https://reports.example.com]
 *
 * Prints the signer and the JSON's key facts; exits 1 when the signature does not hold. With a base URL it
 * also asks that server whether it issued exactly this file (GET /api/v1/public/reports/by-hash/<sha256>).
 * Imported as a module, `readReport(bytes)` answers { json, signature } for the caller to use.
 */
import { createHash, verify, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { inflateSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';

/** One DER element at `off`: tag, where its content starts and where it ends. */
function der(buf, off) {
  const tag = buf[off];
  let len = buf[off + 1];
  let start = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[off + 2 + i];
    start += n;
  }
  return { tag, off, start, end: start + len };
}

/** The elements inside a constructed DER element. */
function children(buf, el) {
  const out = [];
  for (let off = el.start; off < el.end;) {
    const c = der(buf, off);
    out.push(c);
    off = c.end;
  }
  return out;
}

const OID_MESSAGE_DIGEST = Buffer.from('06092a864886f70d010904', 'hex');

/** The embedded file test-report.json, parsed (PDFKit writes it as one FlateDecode stream, not in an object stream). */
export function embeddedJson(pdf) {
  const at = pdf.indexOf('/Type /EmbeddedFile');
  if (at < 0) throw new Error('no embedded file');
  const dictStart = pdf.lastIndexOf('<<', at);
  const streamAt = pdf.indexOf('stream', at);
  const dict = pdf.subarray(dictStart, streamAt).toString('latin1');
  let begin = streamAt + 'stream'.length;
  if (pdf[begin] === 0x0d) begin++;
  if (pdf[begin] === 0x0a) begin++;
  const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
  const raw = pdf.subarray(begin, begin + length);
  const data = /\/FlateDecode/.test(dict) ? inflateSync(raw) : raw;
  return JSON.parse(data.toString('utf8'));
}

/** Checks the (last) signature: the byte range covers the whole file but the signature, the digest matches, the CMS signature holds. */
export function checkSignature(pdf) {
  const m = [...pdf.toString('latin1').matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].pop();
  if (!m) throw new Error('not signed');
  const [a, b, c, d] = m.slice(1).map(Number);
  const problems = [];
  if (a !== 0 || c + d !== pdf.length) problems.push('the signature does not cover the whole file');
  if (pdf[b] !== 0x3c || pdf[c - 1] !== 0x3e) problems.push('the byte range does not frame the signature');
  const cms = Buffer.from(pdf.subarray(b + 1, c - 1).toString('latin1'), 'hex');
  const signedContent = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);

  // ContentInfo → [0] → SignedData { version, digestAlgorithms, encapContentInfo, [0] certificates, …, signerInfos }
  const signedData = children(cms, children(cms, children(cms, der(cms, 0))[1])[0]);
  const certs = signedData.find((e) => e.tag === 0xa0);
  const signerInfos = signedData[signedData.length - 1];
  const signer = children(cms, children(cms, signerInfos)[0]);
  const certEl = children(cms, certs)[0];
  const cert = new X509Certificate(cms.subarray(certEl.off, certEl.end));
  const attrsEl = signer.find((e) => e.tag === 0xa0);
  const sigEl = signer[signer.length - 1];
  // The signature covers the signed attributes DER-encoded as a SET: the same bytes with the tag 0x31.
  const signedAttrs = Buffer.from(cms.subarray(attrsEl.off, attrsEl.end));
  signedAttrs[0] = 0x31;
  let messageDigest = null;
  for (const attr of children(cms, attrsEl)) {
    const [type, values] = children(cms, attr);
    if (cms.subarray(type.off, type.end).equals(OID_MESSAGE_DIGEST)) {
      const v = children(cms, values)[0];
      messageDigest = cms.subarray(v.start, v.end);
    }
  }
  if (!messageDigest || !messageDigest.equals(createHash('sha256').update(signedContent).digest())) {
    problems.push('the document was changed after signing (digest differs)');
  }
  if (!verify('sha256', signedAttrs, cert.publicKey, cms.subarray(sigEl.start, sigEl.end))) problems.push('the signature does not verify');
  return {
    valid: problems.length === 0,
    problems,
    signer: cert.subject,
    certificateSha256: cert.fingerprint256,
    validTo: cert.validTo,
  };
}

/** Both, and the one link between them: the JSON names the certificate that must have signed the file. */
export function readReport(pdf) {
  const json = embeddedJson(pdf);
  const signature = checkSignature(pdf);
  if (json.Z03_validation?.certificateSha256 !== signature.certificateSha256) {
    signature.valid = false;
    signature.problems.push('the certificate named in test-report.json did not sign the file');
  }
  return { json, signature, sha256: createHash('sha256').update(pdf).digest('hex') };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, base] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node read-report.mjs report.pdf [https://reports.example.com]');
    process.exit(2);
  }
  const { json, signature, sha256 } = readReport(fs.readFileSync(file));
  console.log(`Report ${json.A03_documentNumber} for ${json.B07_productIdentification.serial} (${json.B01_product.name})`);
  for (const t of json.D51_pressureTests) console.log(`  ${t.testType}: ${t.result} at ${t.testPressureMPa} MPa`);
  console.log(`Signature: ${signature.valid ? 'valid' : `NOT valid (${signature.problems.join('; ')})`}`);
  console.log(`Signer: ${signature.signer.replace(/\n/g, ', ')}; certificate SHA-256 ${signature.certificateSha256}`);
  if (base) {
    const res = await fetch(`${base.replace(/\/+$/, '')}/api/v1/public/reports/by-hash/${sha256}`);
    console.log(res.ok ? `Issued by ${base}: yes (${(await res.json()).data.number})` : `Issued by ${base}: not known (${res.status})`);
    if (!res.ok) process.exit(1);
  }
  if (!signature.valid) process.exit(1);
}
