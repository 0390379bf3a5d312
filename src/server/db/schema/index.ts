// One file per domain; the SQL in ../migrations is the source of truth, these mirror it for queries.
export * from './accounts';
export * from './mail';
export * from './catalogue';
export * from './machine-data';
export * from './reports';
export * from './searches';
export * from './orders';
export * from './materials';
export * from './alerts';
export * from './webhooks';
