/**
 * A JSON Schema check of the keywords zod's z.toJSONSchema writes for the delivery index (type, const,
 * enum, properties, required, additionalProperties, items, minimum, maximum): the committed schema file
 * is applied to a real answer by something other than the zod schema it was made from.
 */
type Schema = {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: Schema;
  minimum?: number;
  maximum?: number;
};

const KNOWN = new Set([
  '$schema',
  'type',
  'const',
  'enum',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'minimum',
  'maximum',
]);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function typeMatches(want: string, v: unknown): boolean {
  if (want === 'integer') return Number.isInteger(v);
  return typeOf(v) === want;
}

/** The errors of `value` against `schema` (empty: valid); an unknown keyword is an error too. */
export function schemaErrors(schema: Schema, value: unknown, at = '$'): string[] {
  const errors: string[] = [];
  for (const k of Object.keys(schema)) if (!KNOWN.has(k)) errors.push(`${at}: keyword ${k} not checked`);
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((ty) => typeMatches(ty, value))) return [...errors, `${at}: ${typeOf(value)} is not ${types.join('|')}`];
  }
  if ('const' in schema && value !== schema.const) errors.push(`${at}: not ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value)) errors.push(`${at}: not one of ${JSON.stringify(schema.enum)}`);
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) errors.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) errors.push(`${at}: above ${schema.maximum}`);
  }
  if (typeOf(value) === 'object') {
    const o = value as Record<string, unknown>;
    for (const r of schema.required ?? []) if (!(r in o)) errors.push(`${at}.${r}: missing`);
    for (const [k, v] of Object.entries(o)) {
      const sub = schema.properties?.[k];
      if (sub) errors.push(...schemaErrors(sub, v, `${at}.${k}`));
      else if (schema.additionalProperties === false) errors.push(`${at}.${k}: not allowed`);
    }
  }
  if (Array.isArray(value) && schema.items) value.forEach((v, i) => errors.push(...schemaErrors(schema.items!, v, `${at}[${i}]`)));
  return errors;
}
