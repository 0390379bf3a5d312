/** Column types of more than one schema file. */
import { customType } from 'drizzle-orm/pg-core';

/** citext: emails compare ignoring case in the database itself. */
export const citext = customType<{ data: string }>({ dataType: () => 'citext' });

/** bytea: node-postgres gives a Buffer, PGlite a Uint8Array; both become a Buffer here. */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)),
  toDriver: (v) => v,
});
