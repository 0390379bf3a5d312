/**
 * The demo's materials: a catalogue of the grades its valves are made of, each product's parts with their
 * materials, heats from two foundries and a forge with a mill certificate each (a PDF drawn here, as a
 * supplier's 3.1 certificate reads), and every range's parts assigned the heats of its production year. One
 * CF8M body heat is on hold for its hardness, so the stainless range made from it holds its 3.1
 * certificates at the release gate until the heat is released.
 */
import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { sql } from 'drizzle-orm';
import type { BodyMaterial } from '../../shared/standards/requirement';
import type { Part } from '../../shared/contract/materials';
import { heatInput, materialInput } from '../../shared/contract/materials';
import { rowsOf, type Db } from '../db/client';
import type { AuditActor } from '../modules/audit/audit.writer';
import { createHeat, storeCertificate } from '../modules/materials/heats.service';
import { createMaterial, setParts } from '../modules/materials/materials.service';
import { setRangeHeats } from '../modules/materials/range-heats.service';

interface DemoMaterial {
  key: string;
  specification: string;
  grade: string;
  ratingBasis: BodyMaterial;
  /** ASME B16.34 / B16.5 material group, or '' (docs/standards-sources.md, "Materials") */
  materialGroup: string;
  supplier: string;
  /** what its mill certificate prints: chemical composition (%) and tensile properties */
  chemistry: Record<string, number>;
  tensile: { rm: number; rp02: number; a: number };
}

const CATALOGUE: DemoMaterial[] = [
  {
    key: 'fc250',
    specification: 'JIS G5501',
    grade: 'FC250',
    ratingBasis: 'fc',
    materialGroup: '',
    supplier: 'Taichung Iron Foundry',
    chemistry: { C: 3.3, Si: 1.9, Mn: 0.7, P: 0.08, S: 0.07 },
    tensile: { rm: 262, rp02: 0, a: 0 },
  },
  {
    key: 'ggg40',
    specification: 'EN 1563',
    grade: 'EN-GJS-400-18',
    ratingBasis: 'fc',
    materialGroup: '',
    supplier: 'Taichung Iron Foundry',
    chemistry: { C: 3.6, Si: 2.3, Mn: 0.2, P: 0.03, S: 0.01, Mg: 0.04 },
    tensile: { rm: 412, rp02: 262, a: 19 },
  },
  {
    key: 'wcb',
    specification: 'ASTM A216',
    grade: 'WCB',
    ratingBasis: 'wcb',
    materialGroup: '1.1',
    supplier: 'Kaohsiung Steel Castings',
    chemistry: { C: 0.24, Mn: 0.85, P: 0.018, S: 0.012, Si: 0.45 },
    tensile: { rm: 512, rp02: 298, a: 26 },
  },
  {
    key: 'a105',
    specification: 'ASTM A105',
    grade: 'A105',
    ratingBasis: 'wcb',
    materialGroup: '1.1',
    supplier: 'Changhua Forge',
    chemistry: { C: 0.21, Mn: 0.92, P: 0.015, S: 0.01, Si: 0.25 },
    tensile: { rm: 520, rp02: 290, a: 27 },
  },
  {
    key: 'cf8m',
    specification: 'ASTM A351',
    grade: 'CF8M',
    ratingBasis: 'sus',
    materialGroup: '2.2',
    supplier: 'Kaohsiung Steel Castings',
    chemistry: { C: 0.05, Mn: 1.1, Si: 1.2, P: 0.03, S: 0.01, Cr: 18.6, Ni: 10.2, Mo: 2.3 },
    tensile: { rm: 530, rp02: 260, a: 38 },
  },
  {
    key: 'cf8m-en',
    specification: 'EN 10213',
    grade: '1.4408',
    ratingBasis: 'sus',
    materialGroup: '',
    supplier: 'Kaohsiung Steel Castings',
    chemistry: { C: 0.05, Mn: 1.1, Si: 1.1, Cr: 19.1, Ni: 10.4, Mo: 2.3 },
    tensile: { rm: 480, rp02: 230, a: 32 },
  },
  {
    key: 'f316',
    specification: 'ASTM A182',
    grade: 'F316',
    ratingBasis: 'sus',
    materialGroup: '2.2',
    supplier: 'Changhua Forge',
    chemistry: { C: 0.04, Mn: 1.5, P: 0.03, S: 0.01, Si: 0.5, Ni: 10.6, Cr: 16.8, Mo: 2.1 },
    tensile: { rm: 560, rp02: 250, a: 44 },
  },
  {
    key: 'f6a',
    specification: 'ASTM A182',
    grade: 'F6a',
    ratingBasis: 'sus',
    materialGroup: '',
    supplier: 'Changhua Forge',
    chemistry: { C: 0.12, Mn: 0.6, Si: 0.4, Cr: 12.4, Ni: 0.3 },
    tensile: { rm: 640, rp02: 450, a: 22 },
  },
  {
    key: 'b7',
    specification: 'ASTM A193',
    grade: 'B7',
    ratingBasis: 'wcb',
    materialGroup: '',
    supplier: 'Changhua Forge',
    chemistry: { C: 0.42, Mn: 0.85, Cr: 0.95, Mo: 0.2 },
    tensile: { rm: 900, rp02: 760, a: 18 },
  },
];

/** The material of each part, by the body material a product's name says. */
const PARTS_BY_BODY: Record<BodyMaterial, Partial<Record<Part, string>>> = {
  fc: { body: 'fc250', bonnet: 'fc250', closure: 'fc250', stem: 'f6a', bolting: 'b7' },
  wcb: { body: 'wcb', bonnet: 'wcb', closure: 'wcb', stem: 'f6a', bolting: 'b7' },
  sus: { body: 'cf8m', bonnet: 'cf8m', closure: 'f316', stem: 'f316', bolting: 'b7' },
};
/** Parts a valve type has: a ball or butterfly valve has no bonnet of its own here; a check valve no stem. */
const PARTS_OF: Record<string, Part[]> = {
  gate: ['body', 'bonnet', 'closure', 'stem', 'bolting'],
  globe: ['body', 'bonnet', 'closure', 'stem', 'bolting'],
  ball: ['body', 'closure', 'stem', 'bolting'],
  check: ['body', 'bonnet', 'closure', 'bolting'],
  butterfly: ['body', 'closure', 'stem'],
};

/** A supplier's inspection certificate 3.1 as a one-page PDF: heat, material, chemistry and tensile test. */
async function millCertificatePdf(m: DemoMaterial, heat: string, certificate: string, date: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 56, info: { Title: `Inspection certificate ${certificate}`, Author: m.supplier } });
  const parts: Buffer[] = [];
  doc.on('data', (c: Buffer) => parts.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(parts))));
  doc.font('Helvetica-Bold').fontSize(16).text(m.supplier);
  doc.font('Helvetica').fontSize(9).fillColor('#555').text('Taiwan').moveDown();
  doc.fillColor('#000').font('Helvetica-Bold').fontSize(13).text('INSPECTION CERTIFICATE EN 10204 3.1').moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  for (const [k, v] of [
    ['Certificate No.', certificate],
    ['Date of issue', date],
    ['Material', `${m.specification} ${m.grade}`],
    ['Heat No.', heat],
  ])
    doc.text(`${k}: ${v}`);
  doc.moveDown().font('Helvetica-Bold').text('C70–C92 Chemical composition, cast analysis (%)').font('Helvetica');
  doc.text(
    Object.entries(m.chemistry)
      .map(([el, v]) => `${el} ${v}`)
      .join('    '),
  );
  doc.moveDown().font('Helvetica-Bold').text('C10–C13 Tensile test at room temperature').font('Helvetica');
  doc.text(`Rm ${m.tensile.rm} MPa    Rp0.2 ${m.tensile.rp02 || '—'} MPa    A ${m.tensile.a || '—'} %`);
  doc.moveDown().text('We certify that the material described above has been tested and complies with the specification.');
  doc.moveDown(2).text('Authorised inspection representative, quality department');
  doc.end();
  return done;
}

/**
 * Writes the catalogue, the products' parts, the heats with their certificates and each range's heats.
 * Answers the number of heats written and the range held by the heat on hold.
 */
export async function demoMaterials(db: Db, actor: AuditActor): Promise<{ heats: number; heldRange: string | null }> {
  const ids = new Map<string, string>();
  for (const m of CATALOGUE) {
    const made = await createMaterial(
      db,
      actor,
      materialInput.parse({ specification: m.specification, grade: m.grade, ratingBasis: m.ratingBasis, materialGroup: m.materialGroup }),
    );
    ids.set(m.key, made.id);
  }
  const products = rowsOf<{ id: string; valve_type: string | null; body: BodyMaterial | null }>(
    await db.execute(sql`SELECT p.id::text AS id, p.valve_type,
      (SELECT body_material FROM serial_ranges r WHERE r.product_id = p.id AND body_material IS NOT NULL LIMIT 1) AS body
      FROM products p ORDER BY p.name`),
  );
  const partsOf = new Map<string, Part[]>();
  for (const p of products) {
    if (!p.body) continue;
    const parts = (PARTS_OF[p.valve_type ?? 'gate'] ?? PARTS_OF.gate!).filter((x) => PARTS_BY_BODY[p.body!][x]);
    partsOf.set(p.id, parts);
    await setParts(db, actor, p.id, { parts: parts.map((part) => ({ part, materialId: ids.get(PARTS_BY_BODY[p.body!][part]!)! })) });
  }

  const ranges = rowsOf<{ id: string; product_id: string; body: BodyMaterial | null; year: string }>(
    await db.execute(sql`SELECT id::text AS id, product_id::text AS product_id, body_material AS body, to_char(production_date, 'YYYY') AS year
      FROM serial_ranges ORDER BY production_date, start_no`),
  );
  // A heat per material and production year (the casts and bars of that year), each with its certificate.
  const heats = new Map<string, string>();
  const heatOf = async (key: string, year: string): Promise<string> => {
    const at = `${key}:${year}`;
    const known = heats.get(at);
    if (known) return known;
    const m = CATALOGUE.find((x) => x.key === key)!;
    const n = heats.size + 1;
    const number = `${m.grade
      .replace(/[^A-Z0-9]/gi, '')
      .slice(0, 4)
      .toUpperCase()}-${year.slice(2)}${String(n).padStart(3, '0')}`;
    const certificate = `MC-${year}-${String(310 + n).padStart(4, '0')}`;
    const date = `${year}-01-${String(5 + (n % 20)).padStart(2, '0')}`;
    const heat = await createHeat(
      db,
      actor,
      heatInput.parse({
        number,
        materialId: ids.get(key)!,
        supplier: m.supplier,
        certificateNumber: certificate,
        certificateType: '3.1',
        date,
        // what the certificate reports, judged against the grade's cited limits (all inside)
        properties: {
          chemistry: m.chemistry,
          tensileStrength: m.tensile.rm,
          yieldStrength: m.tensile.rp02 || null,
          elongation: m.tensile.a || null,
        },
      }),
    );
    const pdf = await millCertificatePdf(m, number, certificate, date);
    await storeCertificate(db, actor, heat.id, {
      name: `${certificate}.pdf`,
      sha256: createHash('sha256').update(pdf).digest('hex'),
      bytes: pdf.length,
      read: async function* () {
        yield pdf;
      },
    });
    heats.set(at, heat.id);
    return heat.id;
  };
  let heldRange: string | null = null;
  const lastSus = ranges.filter((r) => r.body === 'sus' && partsOf.has(r.product_id)).at(-1);
  for (const r of ranges) {
    const parts = partsOf.get(r.product_id);
    if (!parts || !r.body) continue;
    const assigned: { part: Part; heatId: string }[] = [];
    for (const part of parts) {
      // The last stainless range's bodies came from a heat put on hold: its 3.1 certificates wait for it.
      if (r === lastSus && part === 'body') {
        const m = CATALOGUE.find((x) => x.key === 'cf8m')!;
        const held = await createHeat(
          db,
          actor,
          heatInput.parse({
            number: `CF8M-${r.year.slice(2)}H01`,
            materialId: ids.get('cf8m')!,
            supplier: m.supplier,
            certificateNumber: `MC-${r.year}-0999`,
            certificateType: '3.1',
            date: `${r.year}-02-01`,
            status: 'hold',
            holdNote: 'Hardness 212 HBW above the order limit of 187 HBW; retest asked of the foundry',
          }),
        );
        assigned.push({ part, heatId: held.id });
        heldRange = r.id;
      } else assigned.push({ part, heatId: await heatOf(PARTS_BY_BODY[r.body][part]!, r.year) });
    }
    await setRangeHeats(db, actor, r.id, { heats: assigned });
  }
  return { heats: heats.size + (heldRange ? 1 : 0), heldRange };
}
