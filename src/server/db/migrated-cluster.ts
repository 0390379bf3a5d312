/** A new embedded cluster with every migration applied, as PGlite's dump: the build's cluster template and the tests' template. */
import { createPglite, type Database, type RawSession } from './client';
import { migrate } from './migrate';

/** `compression`: gzip for a file to ship, none for one read many times (the tests' template). */
export async function makeMigratedCluster(compression: 'gzip' | 'none' = 'gzip'): Promise<Uint8Array> {
  const client = await createPglite();
  try {
    const session: RawSession = {
      exec: async (text) => {
        await client.exec(text);
      },
      query: async <R>(text: string, params: unknown[] = []) => (await client.query<R>(text, params)).rows,
    };
    // migrate() uses nothing of the handle but one session.
    await migrate({ withSession: (fn) => fn(session) } as Database);
    return new Uint8Array(await (await client.dumpDataDir(compression)).arrayBuffer());
  } finally {
    await client.close();
  }
}
