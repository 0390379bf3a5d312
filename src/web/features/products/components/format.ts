/** Product values as the list and the history show them (shared with the audit trail: src/web/components/catalogue-values.ts). */
export { PRESSURE_FIELDS, productValue, TEMPERATURE_FIELDS, withUnit } from '../../../components/catalogue-values';
