/** A range field's value as the history shows it (shared with the audit trail: src/web/components/catalogue-values.ts). */
export { rangeValue } from '../../../components/catalogue-values';
