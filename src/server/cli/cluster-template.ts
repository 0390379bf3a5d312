/**
 * Build step (scripts/build-server.mjs): makes the embedded database's cluster, with every migration
 * applied, for a new DATA_DIR to start from (src/server/db/cluster-template.ts).
 */
import { writeClusterTemplate } from '../db/cluster-template';
import { makeMigratedCluster } from '../db/migrated-cluster';

writeClusterTemplate(await makeMigratedCluster());
