/**
 * What other modules use of the standards module: a product as the requirement derivation sees it, and
 * the stored requirement rows kept in step with the product (requirements.repo.ts). Modules import this
 * file, never the repo.
 */
export { judgedProduct, requirementsOf, syncRequirements } from './requirements.repo';
export { rejudgeOnStandardsChange, STANDARDS_DATA_VERSION } from './standards-version';
