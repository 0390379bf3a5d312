import { ROLES } from '../../../../shared/abilities';

export const ROLE_OPTIONS = ROLES.map((r) => ({ value: r, label: `app.roles.${r}` }));
