/** node-forge, required on its first use (lib/first-use.ts): only certificates, PKCS#12 files and signatures need it. */
import type forge from 'node-forge';
import { packageOnFirstUse } from '../first-use';

export const nodeForge = packageOnFirstUse<typeof forge>('node-forge');
